"""The bots' turn planner: good complete turns for the seat to move, found quickly.

A turn is a dig, up to two tile placements with the decorations they allow, and the end
of the turn. Every placement of every tile in every rotation is too many to play out
(thousands), so placements are first ranked by a quick estimate of what they add
(`QuickScorer`), and only the best few are played out with the real moves, decorated
greedily and judged by `evaluate.evaluate` after the turn ends. Digs are ranked the same
way: by the pillars they give and the best quick placement of the tile they bring.

Everything here reads only what the seat may see; plans are cached by the seat's
information key, so the moves of one turn are planned once.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from games.engines.babylon import data, decorations, evaluate, geometry, placement, rules
from games.engines.babylon.moves import (
    DIG,
    END_TURN,
    PLACE,
    REMOVE_CLAY,
    SET_SYMBOL,
    decorate_move,
)
from games.engines.babylon.state import BUILD, OVER, REMOVE, STATUE, Board, State
from games.engines.babylon.state import DIG as DIG_PHASE

Move = dict[str, Any]
Plan = tuple[float, list[Move]]

# Search breadth: digs played out, placements played out for the first and second tile.
DIGS = 5
FIRST = 6
SECOND = 4
# A move the planner did not play out is valued this far below every turn it kept.
UNPLAYED_GAP = 1.0

_CACHE_LIMIT = 2_048
_plans: dict[Hashable, list[Plan]] = {}

_DECORATION_POINTS = {"stairs": 0, "fountain": 3, "bridge": 3, "statue": 1}


def _apply(state: State, move: Move) -> State:
    from games.engines.babylon import ENGINE

    return ENGINE.apply_move(state, state.current, move)  # type: ignore[no-any-return]


# --- Quick estimates ----------------------------------------------------------------------


@dataclass(slots=True)
class QuickScorer:
    """Estimates, in points, what one placement adds to the seat's board, without
    building the board: height, belvedere, pillars spent, what it covers, flower and
    decoration sets, and the decorations its symbols make possible now or later."""

    state: State
    board: Board
    left: float
    top_level: int
    visible_cells: list[int]
    flowers: dict[str, int]
    kinds: dict[str, int]
    statues: list[int]
    set_bonus: dict[str, float]

    @classmethod
    def of(cls, state: State) -> QuickScorer:
        board = state.boards[state.current]
        visible_cells = [0] * len(board.tiles)
        for index in board.top:
            if index >= 0:
                visible_cells[index] += 1
        flowers = dict.fromkeys(data.FLOWERS, 0)
        for index, count in enumerate(visible_cells):
            if count:
                flowers[data.TILES[board.tiles[index].id][0]] += 1
        kinds = dict.fromkeys(data.DECORATIONS, 0)
        for piece in board.pieces:
            if piece.kind in kinds:
                kinds[piece.kind] += 1
        return cls(
            state=state,
            board=board,
            left=evaluate.progress_left(state),
            top_level=max(board.levels, default=0),
            visible_cells=visible_cells,
            flowers=flowers,
            kinds=kinds,
            statues=decorations.statues_on(board),
            # A decoration of a kind the next set lacks is worth more than its points.
            set_bonus={
                symbol: 2.0 if kinds[kind] == min(kinds.values()) else 0.5
                for symbol, kind in _KIND_OF.items()
            },
        )

    def base(self, option: placement.Option) -> float:
        """The part of a placement's value that does not depend on the tile."""
        now, later = _standing(self.board, option)
        left = self.left
        pool = self.board.singles
        swap = placement.exchanges_needed(option, self.state.turn.doubles)
        spent = option.singles + 2 * swap
        kept_before = min(pool, data.STORAGE_SINGLES)
        kept_after = min(pool - spent, data.STORAGE_SINGLES)
        cost = evaluate.SINGLE_PILLAR * (kept_before - kept_after)
        # A pillar spent now is a pillar not kept, and pillars are scarce early on.
        cost += 0.25 * spent
        return now + (later - cost) * left

    def flower_gain(self, option: placement.Option, flower: str) -> float:
        flowers = dict(self.flowers)
        flowers[flower] += 1
        for hidden in _hidden_flowers(self.board, option.anchor, self.visible_cells):
            flowers[hidden] -= 1
        before = min(self.flowers.values())
        after = min(flowers.values())
        steps_before = sum(1 for n in self.flowers.values() if n > before)
        steps_after = sum(1 for n in flowers.values() if n > after)
        steps = evaluate.FLOWER_SET_STEP * self.left * (steps_after - steps_before)
        return data.FLOWER_SET_POINTS * (after - before) + steps

    def symbols_gain(self, anchor: int, level: int, symbols: str) -> float:
        """Decorations the symbols make at once, and credit for the fields left open."""
        cache = self.board.cache.setdefault("symbols_gain", {})
        key = (anchor, level, symbols)
        parts = cache.get(key)
        if parts is None:
            bonus = self.set_bonus
            now = later = 0.0
            for k in range(4):
                symbol = symbols[k]
                if symbol == data.BLANK:
                    continue
                gain = _corner_gain(self.board, anchor, k, symbol, level)
                if gain > 0:
                    now += gain + bonus[symbol]
                elif symbol != data.STATUE:
                    later += evaluate.OPEN_FIELD[symbol] * level
            parts = cache[key] = (now, later)
        return parts[0] + parts[1] * self.left


def _standing(board: Board, option: placement.Option) -> tuple[float, float]:
    """What a placement's height, belvedere and covered fields are worth: (points now,
    future credit); cached on the board."""
    cache: dict[placement.Option, tuple[float, float]] = board.cache.setdefault("standing", {})
    hit = cache.get(option)
    if hit is not None:
        return hit
    level = option.level
    top_level = max(board.levels, default=0)
    now = float(data.HEIGHT_POINTS_PER_LEVEL * max(0, level - top_level))
    later = evaluate.ROOM_TO_CLIMB if level > top_level else 0.0
    if option.open_corner is not None:
        now += data.BELVEDERE_POINTS
    for k, c in enumerate(geometry.FOOTPRINTS[option.anchor]):
        surface = board.surface[c]
        if not surface:
            continue
        index = board.occupied.get(surface * geometry.CELLS + c)
        if index is not None:
            piece = board.pieces[index]
            if piece.kind == STATUE:
                now -= piece.at[0][2] + (1.0 if option.supports[k] else 0.5)
            elif piece.kind == "belvedere":
                now -= data.BELVEDERE_POINTS
            elif piece.kind in data.DECORATIONS:
                now -= 1.5 * piece.at[0][2] + 1.0
        else:
            later -= evaluate.OPEN_FIELD.get(board.symbol_at(c) or "", 0.0) * surface
    cache[option] = (now, later)
    return now, later


_KIND_OF = {data.STAIRS: "stairs", data.FOUNTAIN: "fountain", data.BRIDGE: "bridge"}
_KIND_OF[data.STATUE] = "statue"


def _outside(anchor: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Per corner of a footprint: its orthogonal neighbours outside the footprint, and the
    cells two steps away (with the middle cell) whose middle is outside too."""
    cells = geometry.FOOTPRINTS[anchor]
    footprint = set(cells)
    result = []
    for c in cells:
        x, y = geometry.xy(c)
        near, far = [], []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < geometry.SIZE and 0 <= ny < geometry.SIZE:
                n = geometry.cell(nx, ny)
                if n not in footprint:
                    near.append(n)
            fx, fy = x + 2 * dx, y + 2 * dy
            if 0 <= fx < geometry.SIZE and 0 <= fy < geometry.SIZE:
                middle = geometry.cell(nx, ny)
                if middle not in footprint:
                    far.append((geometry.cell(fx, fy), middle))
        result.append((near, far))
    return result


_OUTSIDE = {anchor: _outside(anchor) for anchor in geometry.FOOTPRINTS}


def _corner_gain(board: Board, anchor: int, k: int, symbol: str, level: int) -> float:
    """Points of the best decoration a new tile at `level` showing `symbol` on corner k
    can make at once with the board around it (0 when none); cached on the board."""
    cache: dict[tuple[int, int, str, int], float] = board.cache.setdefault("corner_gain", {})
    key = (anchor, k, symbol, level)
    hit = cache.get(key)
    if hit is not None:
        return hit
    best = 0.0
    near, far = _OUTSIDE[anchor][k]
    surface = board.surface
    if symbol == data.STATUE:
        c = geometry.FOOTPRINTS[anchor][k]
        best = float(level) if decorations.in_line(c, decorations.statues_on(board)) else 0.0
    elif symbol == data.BRIDGE:
        for n, middle in far:
            if (
                surface[n] == level
                and surface[middle] < level
                and middle not in board.spans
                and board.is_empty_top(n)
                and board.symbol_at(n) == data.BRIDGE
            ):
                best = 3.0 * level
                break
    else:
        for n in near:
            other = surface[n]
            if not other or board.symbol_at(n) != symbol or not board.is_empty_top(n):
                continue
            if symbol == data.STAIRS and abs(other - level) == 1:
                best = max(best, float(other + level))
            elif symbol == data.FOUNTAIN and other == level:
                best = max(best, 3.0 * level)
    cache[key] = best
    return best


def _hidden_flowers(board: Board, anchor: int, visible_cells: list[int]) -> list[str]:
    """Flowers of the tiles a tile at `anchor` would hide completely; cached."""
    cache: dict[int, list[str]] = board.cache.setdefault("hidden_flowers", {})
    hit = cache.get(anchor)
    if hit is not None:
        return hit
    covered: dict[int, int] = {}
    for c in geometry.FOOTPRINTS[anchor]:
        index = board.top[c]
        if index >= 0:
            covered[index] = covered.get(index, 0) + 1
    flowers = [
        data.TILES[board.tiles[index].id][0]
        for index, count in covered.items()
        if count >= visible_cells[index]
    ]
    cache[anchor] = flowers
    return flowers


def ranked_placements(state: State, limit: int) -> list[tuple[float, Move]]:
    """The best `limit` placement moves of the seat to move, by quick estimate."""
    tiles = rules.placeable_tiles(state)
    if not tiles:
        return []
    scorer = QuickScorer.of(state)
    board = scorer.board
    choices = []
    for which in tiles:
        tile_id = state.turn.taken if which == "taken" else board.stored
        assert tile_id is not None
        flower, fields = data.TILES[tile_id]
        rotations = []
        for rotation in data.ROTATIONS:
            symbols = geometry.rotate(fields, rotation)
            if symbols not in [s for _, s in rotations]:
                rotations.append((rotation, symbols))
        choices.append((which, flower, rotations))
    # The symbols and the flower do not depend on the open corner: score each anchor and
    # level once per tile and rotation, with its two best ways to stand.
    groups: dict[tuple[int, int], list[tuple[float, placement.Option]]] = {}
    for option in rules.affordable_options(state):
        groups.setdefault((option.anchor, option.level), []).append((scorer.base(option), option))
    scored: list[tuple[float, int, str, placement.Option, int]] = []
    order = 0
    for (anchor, level), stands in groups.items():
        stands.sort(key=lambda item: -item[0])
        for which, flower, rotations in choices:
            flower_gain = scorer.flower_gain(stands[0][1], flower)
            for rotation, symbols in rotations:
                gain = flower_gain + scorer.symbols_gain(anchor, level, symbols)
                for base, option in stands[:2]:
                    scored.append((-(base + gain), order, which, option, rotation))
                    order += 1
    best = heapq.nsmallest(limit, scored, key=lambda item: (item[0], item[1]))
    return [
        (
            -negative,
            {
                "type": PLACE,
                "tile": which,
                "x": option.x,
                "y": option.y,
                "rotation": rotation,
                "level": option.level,
                "open_corner": option.open_corner,
            },
        )
        for negative, _, which, option, rotation in best
    ]


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
    """`evaluate.progress_left` once the turn in progress has ended."""
    total = data.ROUNDS_BY_PLAYERS[state.players] * state.players
    played = (state.round - 1) * state.players + state.current + 1
    return max(0.0, 1.0 - played / total)


def _own(board: Board, left: float) -> float:
    score, credit = evaluate.board_parts(board)
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


_builds: dict[Hashable, list[Plan]] = {}


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
    _remember(_builds, key, plans)
    return plans


def _dig_estimate(state: State, x: int, y: int) -> float:
    """A quick value of digging stack (x, y): the pillars it gives, and how much the tile
    it brings is likely to add (its symbols, and its flower where a set lacks it)."""
    index = geometry.quarry_index(x, y)
    tile = state.quarry[index][-1]
    earned, extra, extra_double = rules.dig_yield(state, state.current, index)
    board = state.boards[state.current]
    kept = min(board.singles + earned + extra, data.STORAGE_SINGLES + 2)
    value = evaluate.SINGLE_PILLAR * (kept - min(board.singles, data.STORAGE_SINGLES))
    value += 2 * evaluate.SINGLE_PILLAR * extra_double
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


def _remember(cache: dict[Hashable, Any], key: Hashable, value: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def best_turns(state: State, seat: int, limit: int) -> list[Plan]:
    """The `limit` best complete turns of `seat` found by the planner, best first, each
    with the `evaluate` value of the position after it."""
    if state.phase == OVER or seat != state.current:
        return []
    key = (seat, evaluate.information_key(state, seat))
    cached = _plans.get(key)
    if cached is None:
        cached = _plan(state, seat)
        _remember(_plans, key, cached)
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
            plans.append((evaluate.evaluate(_apply(state, move), seat) + bonus, [move]))
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
        value = best.get(_key(move))
        values.append(floor if value is None else value)
    return values


def _key(move: Move) -> Hashable:
    return tuple(sorted(move.items()))
