"""The bots' turn planner: good complete turns for the seat to move, found quickly.

A turn is a dig, up to two tile placements with the decorations they allow, and the end
of the turn. Every placement of every tile in every rotation is too many to play out
(thousands), so placements are first ranked by a quick estimate of what they add
(`QuickScorer`), and only the best few are played out with the real moves, decorated
greedily and judged by `heuristics.evaluate` after the turn ends. Digs are ranked the same
way: by the pillars they give and the best quick placement of the tile they bring.

Everything here reads only what the seat may see; plans are cached by the seat's
information key, so the moves of one turn are planned once.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.bots import memo
from games.bots.babylon import heuristics
from games.bots.babylon.estimates import ranked_placements
from games.engines.babylon import ENGINE, data, decorations, geometry, rules
from games.engines.babylon.moves import (
    DIG,
    END_TURN,
    REMOVE_CLAY,
    SET_SYMBOL,
    decorate_move,
)
from games.engines.babylon.state import BUILD, OVER, REMOVE, Board, State
from games.engines.babylon.state import DIG as DIG_PHASE

Move = dict[str, Any]
Plan = tuple[float, list[Move]]

# Search breadth: digs played out, placements played out for the first and second tile.
DIGS = 5
FIRST = 6
SECOND = 4
# A move the planner did not play out is valued this far below every turn it kept.
UNPLAYED_GAP = 1.0

# A position's plans keep its boards alive (hundreds of megabytes over a review when they were
# kept by the thousand): bounded and released after each search (games/bots/memo.py).
_plans: memo.BoundedCache[list[Plan]] = memo.BoundedCache()

_DECORATION_POINTS = {"stairs": 0, "fountain": 3, "bridge": 3, "statue": 1}


def _apply(state: State, move: Move) -> State:
    return ENGINE.apply_move(state, state.current, move)


# --- Playing out a turn -------------------------------------------------------------------


def _decoration_value(state: State, kind: str, cells: tuple[int, ...]) -> float:
    board = state.boards[state.current]
    levels = [board.surface[c] for c in cells]
    if kind == "stairs":
        return float(sum(levels)) + 0.5
    return float(_DECORATION_POINTS[kind] * levels[0]) + 0.5


def decorate_greedily(state: State, moves: list[Move]) -> State:
    """Build the most valuable decoration available, again and again."""
    while True:
        board = state.boards[state.current]
        found = decorations.legal(board, state.turn.placed, state.supply)
        if not found:
            return state
        kind, cells = max(found, key=lambda d: _decoration_value(state, *d))
        move = decorate_move(kind, tuple(geometry.xy(c) for c in cells))
        state = _apply(state, move)
        moves.append(move)


def use_symbol_effect(state: State, moves: list[Move]) -> State:
    """With a change/add-symbol token: the symbol that makes the best decoration now."""
    if state.effect not in (data.CHANGE_SYMBOL, data.ADD_SYMBOL) or state.turn.symbol_used:
        return state
    board = state.boards[state.current]
    targets = decorations.symbol_targets(board, state.turn.placed, state.effect)
    if not targets:
        return state
    before = len(decorations.legal(board, state.turn.placed, state.supply))
    best: tuple[float, Move | None] = (0.0, None)
    for c, symbol in targets:
        changed = decorations.set_symbol(board, c, symbol)
        found = decorations.legal(changed, state.turn.placed, state.supply)
        if len(found) <= before:
            continue
        gain = max(_decoration_value(state, kind, cells) for kind, cells in found if c in cells)
        if gain > best[0]:
            x, y = geometry.xy(c)
            best = (gain, {"type": SET_SYMBOL, "x": x, "y": y, "symbol": symbol})
    if best[1] is None:
        return state
    moves.append(best[1])
    return _apply(state, best[1])


def left_after_turn(state: State) -> float:
    """`heuristics.progress_left` once the turn in progress has ended."""
    total = data.ROUNDS_BY_PLAYERS[state.players] * state.players
    played = (state.round - 1) * state.players + state.current + 1
    return max(0.0, 1.0 - played / total)


def _own(board: Board, left: float) -> float:
    score, credit = heuristics.board_parts(board)
    return score + left * credit


def _best_other(state: State, seat: int, left: float) -> float:
    """The best estimate among the other seats; a seat's own turn never changes it."""
    others = [_own(b, left) for s, b in enumerate(state.boards) if s != seat]
    return max(others) if others else 0.0


def finish(state: State, seat: int, moves: list[Move], left: float) -> Plan:
    """End the turn the better way (store or discard an unbuilt tile); the value is the
    seat's own estimate after the turn (`evaluate` adds the other seats' part)."""
    options = ["store", "discard"] if not state.turn.taken_placed else [None]
    best: Plan | None = None
    for taken in options:
        move = {"type": END_TURN, "taken": taken}
        value = _own(_apply(state, move).boards[seat], left)
        if best is None or value > best[0]:
            best = (value, [*moves, move])
    assert best is not None
    return best


def after_placing(state: State, move: Move, moves: list[Move]) -> State:
    state = _apply(state, move)
    moves.append(move)
    state = decorate_greedily(state, moves)
    state = use_symbol_effect(state, moves)
    return decorate_greedily(state, moves)


def _supply_key(state: State) -> tuple[int, ...]:
    # One turn uses at most 8 pieces of a kind (two tiles on doubles, or decorations on
    # eight fields): beyond that the supply's count changes nothing in it.
    return tuple(min(v, 9) for v in state.supply.to_dict().values())


def _build_key(state: State) -> Hashable:
    """What a build step depends on: the seat's own board, pool and turn, the round
    effect, the supply where it runs short, and the progress of the game. Not the
    quarry (hidden tiles differ between determinizations) nor the other boards."""
    return (
        state.current,
        state.boards[state.current],
        state.turn,
        state.effect,
        _supply_key(state),
        left_after_turn(state),
    )


_builds: memo.BoundedCache[list[Plan]] = memo.BoundedCache()


def plan_builds(state: State, seat: int) -> list[Plan]:
    """Good ways to finish the build step from `state`, best first, valued by the seat's
    own estimate after the turn."""
    key = _build_key(state)
    cached = _builds.get(key)
    if cached is not None:
        return cached
    left = left_after_turn(state)
    plans: list[Plan] = []
    start_moves: list[Move] = []
    start = decorate_greedily(state, start_moves)
    start = use_symbol_effect(start, start_moves)
    start = decorate_greedily(start, start_moves)
    plans.append(finish(start, seat, start_moves, left))
    for _, move in ranked_placements(start, FIRST):
        moves = list(start_moves)
        one = after_placing(start, move, moves)
        plans.append(finish(one, seat, moves, left))
        for _, again in ranked_placements(one, SECOND):
            more = list(moves)
            two = after_placing(one, again, more)
            plans.append(finish(two, seat, more, left))
    plans.sort(key=lambda plan: -plan[0])
    _builds.put(key, plans)
    return plans


def _dig_estimate(state: State, x: int, y: int) -> float:
    """A quick value of digging stack (x, y): the pillars it gives, and how much the tile
    it brings is likely to add (its symbols, and its flower where a set lacks it)."""
    index = geometry.quarry_index(x, y)
    tile = state.quarry[index][-1]
    earned, extra, extra_double = rules.dig_yield(state, state.current, index)
    board = state.boards[state.current]
    kept = min(board.singles + earned + extra, data.STORAGE_SINGLES + 2)
    value = heuristics.SINGLE_PILLAR * (kept - min(board.singles, data.STORAGE_SINGLES))
    value += 2 * heuristics.SINGLE_PILLAR * extra_double
    flower, fields = data.TILES[tile]
    value += _SYMBOL_WORTH * sum(1 for f in fields if f != data.BLANK)
    counts = dict.fromkeys(data.FLOWERS, 0)
    for i in set(board.top):
        if i >= 0:
            counts[data.TILES[board.tiles[i].id][0]] += 1
    if counts[flower] == min(counts.values()):
        value += data.FLOWER_SET_POINTS / 2
    return value


# What one symbol on a dug tile is worth before it is placed (dig ranking only).
_SYMBOL_WORTH = 1.0


def best_turns(state: State, seat: int, limit: int) -> list[Plan]:
    """The `limit` best complete turns of `seat` found by the planner, best first, each
    with the `evaluate` value of the position after it."""
    if state.phase == OVER or seat != state.current:
        return []
    key = (seat, heuristics.information_key(state, seat))
    cached = _plans.get(key)
    if cached is None:
        cached = _plan(state, seat)
        _plans.put(key, cached)
    return cached[:limit]


def _plan(state: State, seat: int) -> list[Plan]:
    if state.phase == REMOVE:
        # The removal only changes the quarry, which the evaluation ignores: prefer taking
        # away the clay tiles of the other players' flowers (their flower bonus).
        mine = state.flowers[seat]
        plans = []
        for x, y in rules.clay_stacks(state):
            move = {"type": REMOVE_CLAY, "x": x, "y": y}
            tile = state.quarry[geometry.quarry_index(x, y)][-1]
            bonus = 0.1 if data.TILES[tile][0] != mine else 0.0
            plans.append((heuristics.evaluate(_apply(state, move), seat) + bonus, [move]))
        plans.sort(key=lambda plan: -plan[0])
        return plans
    others = _best_other(state, seat, left_after_turn(state))
    if state.phase == DIG_PHASE:
        estimates = []
        for x, y in rules.dig_stacks(state):
            estimates.append((_dig_estimate(state, x, y), {"type": DIG, "x": x, "y": y}))
        estimates.sort(key=lambda item: -item[0])
        plans = []
        for _, move in estimates[:DIGS]:
            after = _apply(state, move)
            for value, moves in plan_builds(after, seat)[:3]:
                plans.append((value - others, [move, *moves]))
        plans.sort(key=lambda plan: -plan[0])
        return plans
    if state.phase == BUILD:
        return [(value - others, moves) for value, moves in plan_builds(state, seat)]
    return []


def move_values(state: State, seat: int, moves: list[Move]) -> list[float]:
    """For each legal move, the value of the best planned turn it starts. A move that no
    kept plan starts with is valued UNPLAYED_GAP below the worst kept plan."""
    plans = best_turns(state, seat, 10_000)
    best: dict[Hashable, float] = {}
    for value, plan_moves in plans:
        key = _key(plan_moves[0])
        best[key] = max(value, best.get(key, value))
    floor = min(best.values()) - UNPLAYED_GAP if best else 0.0
    values = []
    for move in moves:
        known = best.get(_key(move))
        values.append(floor if known is None else known)
    return values


def _key(move: Move) -> Hashable:
    return tuple(sorted(move.items()))
