"""The Hanging Gardens turn flow (spec §2.1-§2.10): setup, rounds, the three steps of a turn.

A turn is one to three moves by the same seat: `place_card` (or `discard_card` when no
display card fits, §2.9); then, if the placement made an eligible group, `place_temple` or
`move_temple` (all five in use, §2.8) or `skip_scoring`; then, after a temple, `take_tile`.
The face-down draw for a group of 6+ and the missing-tile credits happen by themselves.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import EngineDefaults, IllegalMove, Rng, move_type, require_integers
from games.engines.hanging_gardens import data, garden, scoring, state, view
from games.engines.hanging_gardens.garden import Garden
from games.engines.hanging_gardens.grid import SHAPES, in_bounds, pack
from games.engines.hanging_gardens.state import (
    OVER,
    PLACE,
    TEMPLE,
    TILE,
    State,
    Turn,
    evolve,
    evolve_turn,
)
from games.engines.hanging_gardens.steps import (
    DISCARD_CARD,
    MOVE_TEMPLE,
    MOVE_TYPES,
    PLACE_CARD,
    PLACE_TEMPLE,
    SKIP_SCORING,
    TAKE_TILE,
    eligible,
    placement_moves,
    takeable_slots,
    temple_moves,
)

_MOVE_KEYS: dict[str, tuple[str, ...]] = {
    PLACE_CARD: ("card", "rotation", "x", "y"),
    DISCARD_CARD: ("card",),
    PLACE_TEMPLE: ("x", "y"),
    MOVE_TEMPLE: ("x", "y", "from_x", "from_y"),
    SKIP_SCORING: (),
    TAKE_TILE: ("column", "slot"),
}
_PHASE_OF_MOVE = {
    PLACE_CARD: PLACE,
    DISCARD_CARD: PLACE,
    PLACE_TEMPLE: TEMPLE,
    MOVE_TEMPLE: TEMPLE,
    SKIP_SCORING: TEMPLE,
    TAKE_TILE: TILE,
}
_ASKS = {PLACE: "place a building card", TEMPLE: "place a temple or skip", TILE: "take a tile"}


class HangingGardens(EngineDefaults):
    slug = "hanging-gardens"
    name = "The Hanging Gardens"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    move_types = MOVE_TYPES
    reveals_steps = True

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
            raise ValueError(
                f"The Hanging Gardens is for {data.MIN_PLAYERS} to {data.MAX_PLAYERS} "
                f"players, not {players!r}."
            )
        if options:
            raise ValueError(f"The Hanging Gardens has no options, not {sorted(options)}.")
        # §2.1 steps 4-5: shuffle the building cards and the point tiles; six tiles face up.
        rng = Rng.from_seed(seed)
        cards, rng = rng.shuffle(data.CARD_IDS)
        tiles, _ = rng.shuffle(
            [kind for kind in data.TILE_KINDS for _ in range(data.TILE_COUNTS[kind])]
        )
        per_round = data.CARDS_PER_ROUND[players]
        return State(
            players=players,
            deck=cards[per_round:],
            display=cards[:per_round],
            gardens=tuple(Garden.starting() for _ in range(players)),
            supply=tiles[state.SLOTS :],
            tile_display=tiles[: state.SLOTS],
            open_tiles=((),) * players,
            hidden_tiles=((),) * players,
            missing=(0,) * players,
            start=data.FIRST_START_PLAYER,
            round=1,
            turn=0,
            phase=PLACE,
            group_size=0,
            last=None,
            turns_played=0,
        )

    def to_move(self, s: State) -> list[int]:
        return [] if s.phase == OVER else [s.current]

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def legal_moves(self, s: State, seat: int) -> list[dict[str, Any]]:
        if s.phase == OVER or seat != s.current:
            return []
        if s.phase == PLACE:
            return placement_moves(s)
        if s.phase == TEMPLE:
            return temple_moves(s)
        return [
            {"type": TAKE_TILE, "column": column, "slot": slot}
            for column, slot in takeable_slots(s)
        ]

    def apply_move(self, s: State, seat: int, move: dict[str, Any]) -> State:
        kind = _check_shape(move)
        if s.phase == OVER:
            raise IllegalMove("game_over", "The game is over.")
        if seat != s.current:
            raise IllegalMove("not_your_turn", "It is not this seat's turn.", seat=seat)
        if _PHASE_OF_MOVE[kind] != s.phase:
            raise IllegalMove("wrong_phase", f"Now is the time to {_ASKS[s.phase]}.", phase=s.phase)
        if kind == PLACE_CARD:
            return _place_card(s, move["card"], move["rotation"], move["x"], move["y"])
        if kind == DISCARD_CARD:
            return _discard_card(s, move["card"])
        if kind == PLACE_TEMPLE:
            return _score(s, move["x"], move["y"], None)
        if kind == MOVE_TEMPLE:
            return _score(s, move["x"], move["y"], (move["from_x"], move["from_y"]))
        if kind == SKIP_SCORING:
            return _end_turn(s)
        return _take_tile(s, move["column"], move["slot"])

    def scores(self, s: State) -> dict[str, Any]:
        return scoring.scores(s)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def dump(self, s: State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, payload: dict[str, Any]) -> State:
        return state.load(payload)

    def determinize(self, seen: dict[str, Any], seat: int | None, seed: int) -> State:
        return view.determinize(seen, seat, seed)

    def reveals(self, s: State, seat: int, move: dict[str, Any]) -> bool:
        """Whether the step shows something hidden (§5: the order of the deck and of the
        face-down tiles), so that it cannot be taken back: a new round's building cards
        (§2.2), a point tile refilling the display or drawn face down for a group of 6+
        (§2.7), or the end of the game, when every tile is shown (§2.11). Placing a card
        or a temple otherwise shows nothing. An illegal move raises `IllegalMove`."""
        after = self.apply_move(s, seat, move)
        drew = len(after.deck) < len(s.deck) or len(after.supply) < len(s.supply)
        return drew or after.phase == OVER


# -- Moves ---------------------------------------------------------------------------------


def _check_shape(move: Any) -> str:
    kind = move_type(move, _MOVE_KEYS)
    require_integers(move, _MOVE_KEYS[kind])
    return kind


def _check_card(s: State, card: int) -> None:
    if card not in s.display:
        raise IllegalMove(
            "no_such_card", f"Card {card} is not in the display.", card=card, display=s.display
        )


def _place_card(s: State, card: int, k: int, x: int, y: int) -> State:
    _check_card(s, card)
    if not 0 <= k < data.ROTATIONS:
        raise IllegalMove("bad_move", "'rotation' must be 0 to 3.", rotation=k)
    shape = SHAPES[card][k]
    own = s.gardens[s.current]
    garden.check_placement(own, shape, x, y)
    anchor = pack(x, y)
    placed = garden.place(own, shape, anchor)
    scorable = bool(garden.eligible_groups(placed, shape, anchor))
    s = evolve(
        s,
        gardens=_with(s.gardens, s.current, placed),
        display=tuple(c for c in s.display if c != card),
        last=Turn(seat=s.current, card=card, rotation=k, x=x, y=y),
        phase=TEMPLE if scorable else s.phase,
    )
    return s if scorable else _end_turn(s)


def _discard_card(s: State, card: int) -> State:
    _check_card(s, card)
    if garden.can_place_any(s.gardens[s.current], s.display):
        # §2.9, §7.11: discarding is only for a display where no card fits.
        raise IllegalMove("must_place", "A card in the display fits your garden; place one.")
    s = evolve(
        s,
        display=tuple(c for c in s.display if c != card),
        last=Turn(seat=s.current, card=card, discarded=True),
    )
    return _end_turn(s)


def _score(s: State, x: int, y: int, source: tuple[int, int] | None) -> State:
    own = s.gardens[s.current]
    if source is None and not own.temples_left:
        raise IllegalMove(
            "no_temple_left", "All five temples are in use: move one from a smallest group."
        )
    if source is not None and own.temples_left:
        raise IllegalMove(
            "temples_left",
            "You still have a temple in your supply; a temple moves only when all five are out.",
            left=own.temples_left,
        )
    target = pack(x, y) if in_bounds(x, y) else None
    group = next((g for g in eligible(s) if target in g), None)
    if group is None:
        raise IllegalMove(
            "not_eligible",
            "A temple goes on a group of 3 or more, without a temple, that touches the card "
            "just placed.",
            x=x,
            y=y,
        )
    assert target is not None  # no group holds None
    moved_from = None
    if source is not None:
        sx, sy = source
        moved_from = pack(sx, sy) if in_bounds(sx, sy) else None
        if moved_from not in own.temples:
            raise IllegalMove("no_temple_there", "You have no temple on that square.", x=sx, y=sy)
        if moved_from not in garden.relocatable(own):
            raise IllegalMove(
                "not_smallest", "Only a temple on a smallest group may move.", x=sx, y=sy
            )
    assert s.last is not None
    s = evolve(
        s,
        gardens=_with(s.gardens, s.current, garden.with_temple(own, target, moved_from)),
        last=evolve_turn(s.last, temple=target, temple_from=moved_from),
    )
    return _after_temple(s, len(group))


def _after_temple(s: State, size: int) -> State:
    """§2.7: the face-down tile for 6+, then the face-up tile, or credits for missing ones."""
    assert s.last is not None
    seat = s.current
    missing = 0
    if size >= data.BONUS_GROUP:
        if s.supply:
            s = evolve(
                s,
                hidden_tiles=_with(s.hidden_tiles, seat, s.hidden_tiles[seat] + s.supply[:1]),
                supply=s.supply[1:],
                last=evolve_turn(s.last, drew_hidden=True),
            )
        else:
            missing += 1
    s = evolve(s, group_size=size)
    can_take = bool(takeable_slots(s))
    if not can_take:
        # §7.9, ASSUMPTION: no tile in the allowed columns is a missing tile too.
        missing += 1
    if missing:
        assert s.last is not None
        s = evolve(
            s,
            missing=_with(s.missing, seat, s.missing[seat] + missing),
            last=evolve_turn(s.last, missing=missing),
        )
    return evolve(s, phase=TILE) if can_take else _end_turn(s)


def _take_tile(s: State, column: int, slot: int) -> State:
    if not (1 <= column <= data.COLUMNS and 1 <= slot <= data.SLOTS_PER_COLUMN):
        raise IllegalMove(
            "bad_move", "Columns are 1 to 3 and slots 1 (top) or 2.", column=column, slot=slot
        )
    if column not in data.allowed_columns(s.group_size):
        raise IllegalMove(
            "column_not_allowed",
            f"A group of {s.group_size} may take only from columns "
            f"{', '.join(map(str, data.allowed_columns(s.group_size)))}.",
            column=column,
            size=s.group_size,
        )
    index = state.slot_index(column, slot)
    kind = s.tile_display[index]
    if kind is None:
        raise IllegalMove("empty_slot", "There is no tile there.", column=column, slot=slot)
    seat = s.current
    # §2.7 step 3: refill the slot at once from the face-down supply (if any is left).
    refill = s.supply[0] if s.supply else None
    display = list(s.tile_display)
    display[index] = refill
    assert s.last is not None
    s = evolve(
        s,
        open_tiles=_with(s.open_tiles, seat, (*s.open_tiles[seat], kind)),
        tile_display=tuple(display),
        supply=s.supply[1:],
        last=evolve_turn(s.last, tile=(column, slot, kind)),
    )
    return _end_turn(s)


def _end_turn(s: State) -> State:
    """§2.2: the next seat of the round; at the round's end the flower passes left and the
    next cards are revealed, unless the deck or the face-down supply is used up (§2.10)."""
    turn, played = s.turn + 1, s.turns_played + 1
    per_round = s.cards_per_round
    if turn < per_round:
        return evolve(s, phase=PLACE, group_size=0, turn=turn, turns_played=played)
    if not s.deck or not s.supply:
        return evolve(s, phase=OVER, group_size=0, turn=turn, turns_played=played)
    return evolve(
        s,
        phase=PLACE,
        group_size=0,
        turns_played=played,
        start=(s.start + 1) % s.players,
        round=s.round + 1,
        turn=0,
        display=s.deck[:per_round],
        deck=s.deck[per_round:],
    )


def _with(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]
