"""Babylon turn flow (spec §2.1-§2.9): setup removals, dig, build, store, rounds, end."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.babylon import (
    data,
    decorations,
    geometry,
    placement,
    rules,
    scoring,
    state,
    view,
)
from games.engines.babylon.moves import (
    DECORATE,
    DIG,
    DISCARD,
    END_TURN,
    MOVE_TYPES,
    PLACE,
    REMOVE_CLAY,
    SET_SYMBOL,
    STORE,
    STORED,
    TAKEN,
    check_shape,
    decoration_cells,
)
from games.engines.babylon.state import BUILD, OVER, REMOVE, Board, State, Supply, Turn
from games.engines.babylon.state import DIG as DIG_PHASE
from games.engines.base import EngineDefaults, IllegalMove, Rng

_PHASE_OF_MOVE = {
    REMOVE_CLAY: REMOVE,
    DIG: DIG_PHASE,
    PLACE: BUILD,
    DECORATE: BUILD,
    SET_SYMBOL: BUILD,
    END_TURN: BUILD,
}
_ASKS = {REMOVE: "remove a clay tile", DIG_PHASE: "dig", BUILD: "build or end the turn"}


class Babylon(EngineDefaults):
    slug = "babylon"
    name = "Babylon"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    move_types = MOVE_TYPES
    reveals_steps = True

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
            raise ValueError(f"Babylon is for 2 to 4 players, not {players!r}.")
        flowers = _flowers(options, players)
        # §2.1 step 1: shuffle each material onto its own layer of the 16 stacks.
        rng = Rng.from_seed(seed)
        basalt, rng = rng.shuffle(data.tiles_of(data.BASALT))
        granite, rng = rng.shuffle(data.tiles_of(data.GRANITE))
        clay, rng = rng.shuffle(data.tiles_of(data.CLAY))
        quarry = tuple(zip(basalt, granite, clay, strict=True))
        # §2.1 step 4: draw 14/12/10 tokens face down; the rest leave the game unseen.
        tokens, rng = rng.shuffle(data.ROUND_TOKENS)
        drawn = data.TOKENS_BY_PLAYERS[players]
        order = data.REMOVAL_ORDER[players]
        return State(
            players=players,
            flowers=flowers,
            quarry=quarry,
            removed=(),
            discarded=(),
            tokens=tokens[:drawn],
            unused_tokens=tokens[drawn:],
            revealed=(),
            supply=Supply(),
            boards=tuple(Board(stored=f"{data.START_PREFIX}{f}") for f in flowers),
            phase=REMOVE if order else DIG_PHASE,
            current=order[0] if order else data.FIRST_PLAYER,
            round=1,
            removals_done=0,
            turn=Turn(),
        )

    def to_move(self, s: State) -> list[int]:
        return [] if s.phase == OVER else [s.current]

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def legal_moves(self, s: State, seat: int) -> list[dict[str, Any]]:
        if s.phase == OVER or seat != s.current:
            return []
        if s.phase == REMOVE:
            return [{"type": REMOVE_CLAY, "x": x, "y": y} for x, y in rules.clay_stacks(s)]
        if s.phase == DIG_PHASE:
            return [{"type": DIG, "x": x, "y": y} for x, y in rules.dig_stacks(s)]
        return rules.build_moves(s)

    def apply_move(self, s: State, seat: int, move: dict[str, Any]) -> State:
        kind = check_shape(move)
        if s.phase == OVER:
            raise IllegalMove("game_over", "The game is over.")
        if seat != s.current:
            raise IllegalMove("not_your_turn", "It is not this seat's turn.", seat=seat)
        if _PHASE_OF_MOVE[kind] != s.phase:
            raise IllegalMove("wrong_phase", f"Now is the time to {_ASKS[s.phase]}.", phase=s.phase)
        if kind == REMOVE_CLAY:
            return _remove_clay(s, move["x"], move["y"])
        if kind == DIG:
            return _dig(s, move["x"], move["y"])
        if kind == PLACE:
            return _place(s, move)
        if kind == DECORATE:
            return _decorate(s, move)
        if kind == SET_SYMBOL:
            return _set_symbol(s, move["x"], move["y"], move["symbol"])
        return _end_turn(s, move["taken"])

    def scores(self, s: State) -> dict[str, Any]:
        return scoring.scores(s)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def dump(self, s: State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, payload: dict[str, Any]) -> State:
        return state.load(payload)

    def determinize(self, seen: dict[str, Any], seat: int | None, seed: int) -> State:
        return view.determinize(seen, seed)

    def reveals(self, s: State, seat: int, move: dict[str, Any]) -> bool:
        """Whether the step shows something hidden (spec §5), so that it cannot be taken
        back: a dig or a clay removal that uncovers the tile below it, or the end of a
        round turning up the next token. Building, decorating and changing a symbol show
        nothing. An illegal move raises `IllegalMove`."""
        after = self.apply_move(s, seat, move)
        if after.revealed != s.revealed:
            return True
        return any(0 < len(a) < len(b) for a, b in zip(after.quarry, s.quarry, strict=True))


def _flowers(options: dict[str, Any] | None, players: int) -> tuple[str, ...]:
    """§2.1 step 3: `options["flowers"]` gives the first seats their boards, in seat order;
    the other seats get the remaining flowers in the default order."""
    if options is None:
        return data.DEFAULT_FLOWER_ORDER[:players]
    if not isinstance(options, dict):
        raise ValueError("Options must be a JSON object.")
    unknown = sorted(set(options) - set(data.DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(f"Unknown option(s) {unknown}; allowed: {sorted(data.DEFAULT_OPTIONS)}.")
    chosen = options.get("flowers", [])
    if (
        not isinstance(chosen, list)
        or not all(isinstance(f, str) and f in data.FLOWERS for f in chosen)
        or len(set(chosen)) != len(chosen)
    ):
        raise ValueError(f"Option 'flowers' lists distinct flowers from {list(data.FLOWERS)}.")
    rest = [f for f in data.DEFAULT_FLOWER_ORDER if f not in chosen]
    return tuple([*chosen, *rest][:players])


def _stack_index(s: State, x: int, y: int) -> int:
    index = geometry.quarry_index(x, y)
    if not s.quarry[index]:
        raise IllegalMove("empty_stack", "That quarry stack is empty.", x=x, y=y)
    return index


def _remove_clay(s: State, x: int, y: int) -> State:
    index = _stack_index(s, x, y)
    tile = s.quarry[index][-1]
    if data.material(tile) != data.CLAY:
        raise IllegalMove("not_clay", "Only clay tiles may be removed.", x=x, y=y)
    quarry = list(s.quarry)
    quarry[index] = quarry[index][:-1]
    done = s.removals_done + 1
    order = data.REMOVAL_ORDER[s.players]
    finished = done >= len(order)
    return replace(
        s,
        quarry=tuple(quarry),
        removed=(*s.removed, tile),
        removals_done=done,
        phase=DIG_PHASE if finished else REMOVE,
        current=data.FIRST_PLAYER if finished else order[done],
    )


def _dig(s: State, x: int, y: int) -> State:
    index = _stack_index(s, x, y)
    tile = s.quarry[index][-1]
    earned, extra_single, extra_double = rules.dig_yield(s, s.current, index)
    supply = s.supply
    # D24 / §2.12: a short supply gives what remains.
    singles = min(earned + extra_single, supply.singles)
    doubles = min(extra_double, supply.doubles)
    quarry = list(s.quarry)
    quarry[index] = quarry[index][:-1]
    boards = list(s.boards)
    board = boards[s.current]
    boards[s.current] = board.with_storage(board.singles + singles, board.stored)
    return replace(
        s,
        quarry=tuple(quarry),
        supply=replace(supply, singles=supply.singles - singles, doubles=supply.doubles - doubles),
        boards=tuple(boards),
        phase=BUILD,
        turn=Turn(taken=tile, doubles=doubles),
    )


def _place(s: State, move: dict[str, Any]) -> State:
    which = move["tile"]
    if which not in rules.placeable_tiles(s):
        raise IllegalMove(
            "tile_unavailable",
            f"There is no {which} tile left to build this turn.",
            tile=which,
        )
    board = s.boards[s.current]
    x, y = move["x"], move["y"]
    option = placement.find(board, x, y, move["level"], move["open_corner"])
    if option is None:
        raise IllegalMove(
            "cannot_place",
            "The tile cannot stand there at that level with that open corner.",
            x=x,
            y=y,
            level=move["level"],
        )
    supply = s.supply
    if option.open_corner is not None and supply.belvederes < 1:
        raise IllegalMove("no_belvedere", "The supply has no belvedere left.")
    swap = placement.exchanges_needed(option, s.turn.doubles)
    if swap > supply.doubles or board.singles < option.singles + 2 * swap:
        raise IllegalMove(
            "not_enough_pillars",
            "You do not have the pillars for this placement.",
            singles=option.singles,
            doubles=option.doubles,
        )
    tile_id = s.turn.taken if which == TAKEN else board.stored
    assert tile_id is not None
    new_board = placement.place(board, tile_id, option, move["rotation"])
    # §2.4 rule 8: doubles from the pool first; missing ones bought with 2 singles each,
    # those singles going back to the supply.
    pool_singles = board.singles - option.singles - 2 * swap
    pool_doubles = s.turn.doubles - (option.doubles - swap)
    new_board = new_board.with_storage(pool_singles, None if which == STORED else board.stored)
    supply = replace(
        supply,
        singles=supply.singles + 2 * swap,
        doubles=supply.doubles - swap,
        belvederes=supply.belvederes - (option.open_corner is not None),
    )
    boards = list(s.boards)
    boards[s.current] = new_board
    turn = replace(
        s.turn,
        placed=(*s.turn.placed, len(new_board.tiles) - 1),
        doubles=pool_doubles,
        taken_placed=s.turn.taken_placed or which == TAKEN,
    )
    return replace(s, boards=tuple(boards), supply=supply, turn=turn)


def _decorate(s: State, move: dict[str, Any]) -> State:
    kind = move["kind"]
    where = decoration_cells(move)
    board = s.boards[s.current]
    wanted = (kind, tuple(geometry.cell(x, y) for x, y in where or ()))
    if where is None or wanted not in decorations.legal(board, s.turn.placed, s.supply):
        raise IllegalMove("cannot_decorate", f"A {kind} cannot be built there.", kind=kind)
    new_board, supply = decorations.apply(board, s.supply, wanted)
    boards = list(s.boards)
    boards[s.current] = new_board
    return replace(s, boards=tuple(boards), supply=supply)


def _set_symbol(s: State, x: int, y: int, symbol: str) -> State:
    if s.effect not in (data.CHANGE_SYMBOL, data.ADD_SYMBOL):
        raise IllegalMove("no_symbol_effect", "No round token lets you change a symbol now.")
    if s.turn.symbol_used:
        raise IllegalMove("symbol_used", "You have already used this round's symbol effect.")
    c = geometry.cell(x, y)
    board = s.boards[s.current]
    if (c, symbol) not in decorations.symbol_targets(board, s.turn.placed, s.effect):
        raise IllegalMove(
            "cannot_set_symbol",
            "That field cannot take that symbol: it must be a visible, empty field of a tile "
            "built this turn.",
        )
    boards = list(s.boards)
    boards[s.current] = decorations.set_symbol(board, c, symbol)
    return replace(s, boards=tuple(boards), turn=replace(s.turn, symbol_used=True))


def _end_turn(s: State, taken: str | None) -> State:
    board = s.boards[s.current]
    unplaced = s.turn.taken is not None and not s.turn.taken_placed
    if unplaced and taken is None:
        raise IllegalMove(
            "store_or_discard", "Store or discard the tile you took before ending your turn."
        )
    if not unplaced and taken is not None:
        raise IllegalMove("nothing_to_store", "The tile you took is already built.")
    discarded = s.discarded
    stored = board.stored
    if taken == STORE:
        # §2.7 step 3: an occupant of the slot (the starting tile too) is discarded.
        if stored is not None:
            discarded = (*discarded, stored)
        stored = s.turn.taken
    elif taken == DISCARD:
        assert s.turn.taken is not None
        discarded = (*discarded, s.turn.taken)
    # §2.7 steps 1-2: keep at most 6 singles, return the rest and every double.
    kept = min(board.singles, data.STORAGE_SINGLES)
    supply = replace(
        s.supply,
        singles=s.supply.singles + board.singles - kept,
        doubles=s.supply.doubles + s.turn.doubles,
    )
    boards = list(s.boards)
    boards[s.current] = board.with_storage(kept, stored)
    s = replace(s, boards=tuple(boards), supply=supply, discarded=discarded, turn=Turn())
    if s.current + 1 < s.players:
        return replace(s, phase=DIG_PHASE, current=s.current + 1)
    # §2.8: the round ends; reveal the next token, or the game is over (§2.9).
    if not s.tokens:
        return replace(s, phase=OVER)
    return replace(
        s,
        phase=DIG_PHASE,
        current=data.FIRST_PLAYER,
        round=s.round + 1,
        revealed=(*s.revealed, s.tokens[0]),
        tokens=s.tokens[1:],
    )
