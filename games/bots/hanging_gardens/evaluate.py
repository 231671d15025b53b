"""How good a Hanging Gardens position is for one seat, for the bots (`games/bots/`).

`evaluate(state, seat)` is the seat's estimated final score minus the best estimate among
the other seats, in points. The estimate is the score of the tiles held (spec §2.11) plus,
while turns remain, credit for what is likely to pay later:

* series completion: a started series is worth part of what completing it would add, if
  enough tiles of its kind are still in the game and the seat has turns enough to take
  them; the same for a person tile waiting for its complete series;
* groups: a temple-less group of 3 or more is a point tile waiting to be taken (a later
  card touching it makes it eligible, §2.6), the bigger the better (more columns, and a
  second tile from 6 squares); a group of 2 may grow into one. Each turn scores at most one
  group, so only as many groups count as the seat has turns left;
* temples: with all five placed, scoring means moving one, which frees a group, so this
  costs nothing the group credit does not already count.

The credit shrinks to nothing as the game ends; final results always come from
`ENGINE.scores`. This is a heuristic, not the rules.

Three optional helpers serve the whole-turn search of `games/bots/turn_mcts.py`:
`information_key` (what a seat can see), `turns` (the seat's best complete turns) and
`choice` (the card a turn takes, so the search weighs every card: `SEARCH`).

The hard bot judges its own positions by `outlook`: `evaluate` with a waiting group
credited for less of its tile (`OUTLOOK_READY_SHARE`), for every seat alike, and ranks its
own turns by it (`outlook_turns`); the others are still modelled by `evaluate`, the
judgement the greedy bot plays by.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from games.bots import memo
from games.engines.hanging_gardens import ENGINE, data, garden, scoring
from games.engines.hanging_gardens.garden import Garden
from games.engines.hanging_gardens.grid import SHAPES, pack, unpack
from games.engines.hanging_gardens.state import OVER, PLACE, TEMPLE, TILE, State
from games.engines.hanging_gardens.steps import (
    DISCARD_CARD,
    MOVE_TEMPLE,
    PLACE_CARD,
    PLACE_TEMPLE,
    SKIP_SCORING,
    TAKE_TILE,
    eligible,
    takeable_slots,
)

# Points that make a clear lead; MCTS squashes evaluations with it.
SCALE = 10.0
# The post-game review marks a decision that cost this many points (estimated) as a small,
# then a large loss (games/bots/advice.py).
REVIEW_THRESHOLDS = (2.0, 6.0)

# Chance of taking each further tile a started series still needs.
NEXT_TILE_CHANCE = 0.55
# A temple-less group waiting to be scored, by size (3, 4, 5, 6 or more): roughly the tile
# it will bring (a better choice of tiles, or two tiles, for bigger groups).
READY_GROUP = (4.0, 5.0, 6.0, 9.0)
# How much of that a waiting group is worth before the card that touches it comes.
READY_SHARE = 0.7
# The same for the hard bot's own judgement (`outlook`). Chosen by matches of a greedy bot
# judging by `outlook` against the plain greedy bot (docs/benchmarks.md, "Bot matches").
OUTLOOK_READY_SHARE = 0.4
# A temple-less group of two squares, which may grow into a scorable one.
GROWING_GROUP = 0.8

# The whole-turn search (games/bots/turn_mcts.py) reads every turn and opens the best turn
# of each card first: the best dozen turns by value are mostly placements of one card, so
# which card to take, and which to leave to the others, was never weighed.
SEARCH = {"spread": 1_000}

# What each card placement makes of a garden, for `_QuietTurn`, by the garden's content: the
# placed garden's group summary, or None when the placement makes a group eligible (the turn
# goes on). One search ranks the same garden in many positions (an opponent's reply after
# each of the bot's turns), and each determinization builds its gardens anew.
Placement = tuple[int, int, int, int]
Summary = tuple[list[float], int]
_placements: memo.BoundedCache[dict[Placement, Summary | None]] = memo.BoundedCache()


def evaluate(state: State, seat: int) -> float:
    return _judged(state, seat, READY_SHARE)


def outlook(state: State, seat: int) -> float:
    """The hard bot's judgement (`games/bots/turn_mcts.py`): `evaluate`, with a waiting
    group worth `OUTLOOK_READY_SHARE` of its tile, for every seat."""
    return _judged(state, seat, OUTLOOK_READY_SHARE)


def _judged(state: State, seat: int, share: float) -> float:
    """`share`: how much of its tile a waiting group is worth."""
    own_turns = _own_turns_left(state)
    tiles = _tile_estimates(state.open_tiles, state.hidden_tiles, state.missing, own_turns)
    estimates = list(tiles)
    for s, own in enumerate(state.gardens):
        estimates[s] += _garden_credit(own, own_turns, share)
    others = [e for s, e in enumerate(estimates) if s != seat]
    return estimates[seat] - (max(others) if others else 0.0)


def _own_turns_left(state: State) -> float:
    """Turns each seat still has, on average, after the one being played."""
    if state.phase == OVER:
        return 0.0
    per_round = state.cards_per_round
    turns = per_round - state.turn - 1 + len(state.deck)
    # The face-down supply may end the game first (§2.10): at most two tiles per turn
    # leave it, so the game lasts at least half as many turns, typically more.
    turns = min(turns, len(state.supply) + per_round)
    return max(turns, 0) / state.players


@memo.releasing
@lru_cache(maxsize=8192)
def _tile_estimates(
    open_tiles: tuple[tuple[str, ...], ...],
    hidden_tiles: tuple[tuple[str, ...], ...],
    missing: tuple[int, ...],
    own_turns: float,
) -> tuple[float, ...]:
    """Per seat: the score of its tiles (§2.11) and the credit for completing its series.
    Tiles change once a turn at most, so a search asks for the same ones again and again."""
    held = [Counter(o + h) for o, h in zip(open_tiles, hidden_tiles, strict=True)]
    in_game = {
        kind: data.TILE_COUNTS[kind] - sum(counts[kind] for counts in held)
        for kind in data.TILE_KINDS
    }
    estimates = []
    for counts, lost in zip(held, missing, strict=True):
        value = float(sum(scoring.breakdown(counts.elements(), lost).values()))
        if own_turns > 0:
            value += _series_credit(counts, in_game, own_turns)
        estimates.append(value)
    return tuple(estimates)


def _completion_chance(kind: str, count: int, in_game: dict[str, int], turns: float) -> float:
    length = len(data.SERIES_VALUES[kind])
    need = length - count % length
    if need > in_game[kind] or need > turns:
        return 0.0
    return float(NEXT_TILE_CHANCE**need)


def _series_credit(counts: Counter[str], in_game: dict[str, int], turns: float) -> float:
    credit = 0.0
    for kind in data.SERIES_KINDS:
        n = counts[kind]
        values = data.SERIES_VALUES[kind]
        rest = n % len(values)
        if rest:
            gain = values[-1] - values[rest - 1]
            credit += gain * _completion_chance(kind, n, in_game, turns)
    for person, (kind, alone, complete) in data.PERSONS.items():
        if counts[person] and counts[kind] < len(data.SERIES_VALUES[kind]):
            credit += (complete - alone) * _completion_chance(kind, counts[kind], in_game, turns)
    return credit


def _garden_credit(own: Garden, turns: float, share: float) -> float:
    """What the seat's waiting and growing groups promise (nothing once no turn is left)."""
    return _summary_credit(_group_summary(own), turns, share) if turns > 0 else 0.0


def _summary_credit(summary: tuple[list[float], int], turns: float, share: float) -> float:
    ready, growing = summary
    usable = int(turns + 0.999)
    credit = share * sum(ready[:usable])
    return credit + GROWING_GROUP * min(growing, max(usable - len(ready), 0))


def _group_summary(own: Garden) -> tuple[list[float], int]:
    """Credits of the temple-less groups of 3+, best first, and the number of pairs."""
    hit: tuple[list[float], int] | None = own.cache.get("evaluate")
    if hit is not None:
        return hit
    ready: list[float] = []
    growing = 0
    temples = own.temples
    for group in garden.groups(own):
        if not temples.isdisjoint(group):
            continue
        size = len(group)
        if size >= data.MIN_GROUP:
            ready.append(READY_GROUP[min(size, data.BONUS_GROUP) - data.MIN_GROUP])
        elif size == 2:
            growing += 1
    ready.sort(reverse=True)
    hit = (ready, growing)
    own.cache["evaluate"] = hit
    return hit


def choice(move: dict[str, Any]) -> int | None:
    """What a turn's first move chooses, for the search's `spread`: the card it places or
    discards (None for a temple or tile step: the move itself is the choice)."""
    card: int | None = move.get("card")
    return card


def information_key(state: State, seat: int) -> Hashable:
    """Equal for states that look the same to `seat` (spec §5): the deck's order, the
    supply's order and other seats' face-down tiles are left out, their sizes kept."""
    over = state.phase == OVER
    return (
        state.phase,
        state.start,
        state.round,
        state.turn,
        state.display,
        tuple(sorted(state.deck)),
        len(state.supply),
        state.tile_display,
        state.open_tiles,
        tuple(h if over or s == seat else len(h) for s, h in enumerate(state.hidden_tiles)),
        state.missing,
        state.group_size,
        state.last,
        tuple(_garden_key(g) for g in state.gardens),
    )


def _garden_key(own: Garden) -> Hashable:
    hit = own.cache.get("key")
    if hit is None:
        hit = (frozenset(own.top.items()), own.temples)
        own.cache["key"] = hit
    return hit


def turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    """The `limit` best complete turns of `seat`, best first, as (value, moves); each value
    is `evaluate` after the turn (`_best_turns`)."""
    return _best_turns(state, seat, limit, READY_SHARE)


def outlook_turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    """`turns`, valued by `outlook`: the hard bot's own turns."""
    return _best_turns(state, seat, limit, OUTLOOK_READY_SHARE)


def _best_turns(
    state: State, seat: int, limit: int, share: float
) -> list[tuple[float, list[dict[str, Any]]]]:
    """The `limit` best complete turns, each valued by `_judged` with `share` after it.

    The temple goes on the first square of its group (every square scores alike), so a
    scoring turn is one line per group and tile. A placement that makes no group eligible
    ends the turn and changes only the seat's garden, the display and the turn counter, so
    its value is computed from the new garden alone instead of a whole new state.
    """
    if state.phase == OVER or seat != state.current:
        return []
    found: list[tuple[float, int, list[dict[str, Any]]]] = []
    if state.phase != PLACE:
        for value, line in _finishes(state, seat, share):
            found.append((value, len(found), line))
    else:
        quiet = _QuietTurn(state, seat, share)
        for move in ENGINE.legal_moves(state, seat):
            quick = quiet.value_of(move)
            if quick is not None:
                found.append((quick, len(found), [move]))
                continue
            after = ENGINE.apply_move(state, seat, move)
            for value, line in _finishes(after, seat, share):
                found.append((value, len(found), [move, *line]))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [(value, line) for value, _, line in found[:limit]]


def turn_values(state: State, seat: int, moves: list[dict[str, Any]]) -> list[float]:
    """For each move, `evaluate` after the best way to finish the turn it starts (the
    greedy bot's question). A turn ends when the seat's next card is due: with two players
    the same seat may play the next turn too, and that turn is not part of this one."""
    quiet = _QuietTurn(state, seat, READY_SHARE) if state.phase == PLACE else None
    values = []
    for move in moves:
        value = quiet.value_of(move) if quiet is not None else None
        if value is None:
            after = ENGINE.apply_move(state, seat, move)
            value = max(v for v, _ in _finishes(after, seat, READY_SHARE))
        values.append(value)
    return values


def _finishes(state: State, seat: int, share: float) -> list[tuple[float, list[dict[str, Any]]]]:
    """Every way (one temple square per group) to finish the turn from `state`, valued by
    `_judged` with `share`."""
    if ENGINE.is_over(state) or state.current != seat or state.phase == PLACE:
        return [(_judged(state, seat, share), [])]
    found = []
    for move in _choices(state):
        for value, line in _finishes(ENGINE.apply_move(state, seat, move), seat, share):
            found.append((value, [move, *line]))
    return found


def _scorable(placed: Garden, motif_cells: list[int]) -> bool:
    """Whether a group is eligible after this placement (spec §2.6), from the garden's
    groups, which the evaluation needs anyway."""
    temples = placed.temples
    return any(
        len(group) >= data.MIN_GROUP
        and not group.isdisjoint(motif_cells)
        and temples.isdisjoint(group)
        for group in garden.groups(placed)
    )


class _QuietTurn:
    """`_judged` with `share` after a turn of `seat` that only places a card: one state
    stands for all of them, with the seat's garden swapped in."""

    def __init__(self, state: State, seat: int, share: float) -> None:
        first = next(
            m for m in ENGINE.legal_moves(state, seat) if m["type"] in (PLACE_CARD, DISCARD_CARD)
        )
        # Any such turn leads to the same counters, deck and tiles; only the garden differs.
        if first["type"] == DISCARD_CARD:
            self.after = ENGINE.apply_move(state, seat, first)
        else:
            self.after = _end_turn_without_scoring(state, first)
        self.seat = seat
        self.share = share
        self.garden = state.gardens[seat]
        key = _garden_key(self.garden)
        known = _placements.get(key)
        if known is None:
            known = {}
            _placements.put(key, known)
        self.known = known
        self.own_turns = _own_turns_left(self.after)
        after = self.after
        self.tiles = _tile_estimates(
            after.open_tiles, after.hidden_tiles, after.missing, self.own_turns
        )
        others = [
            self.tiles[s] + _garden_credit(g, self.own_turns, share)
            for s, g in enumerate(after.gardens)
            if s != seat
        ]
        self.best_other = max(others) if others else 0.0

    def value(self, summary: Summary) -> float:
        """The value after a quiet turn that leaves the garden with this group summary."""
        own = self.tiles[self.seat]
        if self.own_turns > 0:
            own += _summary_credit(summary, self.own_turns, self.share)
        return own - self.best_other

    def value_of(self, move: dict[str, Any]) -> float | None:
        """The value after `move` if it places a card and makes no group eligible (the
        turn ends with it), else None."""
        if move["type"] != PLACE_CARD:
            return None
        placement = (move["card"], move["rotation"], move["x"], move["y"])
        if placement in self.known:
            summary = self.known[placement]
        else:
            shape = SHAPES[move["card"]][move["rotation"]]
            anchor = pack(move["x"], move["y"])
            placed = garden.place(self.garden, shape, anchor)
            summary = None
            if not _scorable(placed, [anchor + m for m in shape.motif_offsets]):
                summary = _group_summary(placed)
            self.known[placement] = summary
        return None if summary is None else self.value(summary)


def _end_turn_without_scoring(state: State, move: dict[str, Any]) -> State:
    after = ENGINE.apply_move(state, state.current, move)
    while after.phase in (TEMPLE, TILE):
        after = ENGINE.apply_move(after, state.current, {"type": SKIP_SCORING})
    return after


def _choices(state: State) -> list[dict[str, Any]]:
    """The temple or tile step's options, one temple square per group."""
    if state.phase == TILE:
        return [{"type": TAKE_TILE, "column": c, "slot": s} for c, s in takeable_slots(state)]
    assert state.phase == TEMPLE
    own = state.gardens[state.current]
    moves: list[dict[str, Any]] = [{"type": SKIP_SCORING}]
    sources = [unpack(t) for t in garden.relocatable(own)] if not own.temples_left else []
    for group in eligible(state):
        x, y = unpack(min(group))
        if own.temples_left:
            moves.append({"type": PLACE_TEMPLE, "x": x, "y": y})
        else:
            moves += [
                {"type": MOVE_TEMPLE, "x": x, "y": y, "from_x": fx, "from_y": fy}
                for fx, fy in sources
            ]
    return moves
