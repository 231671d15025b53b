"""Quick estimates for the bots' turn planner (planner.py): what a placement of a tile adds,
without playing it out, so that only the best few of thousands are played with the real moves.
Everything here reads only what the seat may see."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from games.bots.babylon import gardens, heuristics
from games.engines.babylon import data, decorations, geometry, placement, rules
from games.engines.babylon.moves import (
    PLACE,
)
from games.engines.babylon.state import STATUE, Board, State

Move = dict[str, Any]
Plan = tuple[float, list[Move]]


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
        board = gardens.shared(state.boards[state.current])
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
            left=heuristics.progress_left(state),
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
        cost = heuristics.SINGLE_PILLAR * (kept_before - kept_after)
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
        steps = heuristics.FLOWER_SET_STEP * self.left * (steps_after - steps_before)
        return data.FLOWER_SET_POINTS * (after - before) + steps

    def symbols_gain(self, anchor: int, level: int, symbols: str) -> float:
        """Decorations the symbols make at once, and credit for the fields left open."""
        cache = self.board.cache.setdefault("symbols_gain", {})
        key = (anchor, level, symbols)
        parts: tuple[float, float] | None = cache.get(key)
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
                    later += heuristics.OPEN_FIELD[symbol] * level
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
    later = heuristics.ROOM_TO_CLIMB if level > top_level else 0.0
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
            later -= heuristics.OPEN_FIELD.get(board.symbol_at(c) or "", 0.0) * surface
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
        rotations: list[tuple[int, str]] = []
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
