"""Final scoring (spec §2.10, §2.11, §4.7). Works on any state, so it is also the
running score shown during the game."""

from __future__ import annotations

from typing import Any

from games.engines.babylon import data, geometry
from games.engines.babylon.state import (
    BELVEDERE,
    BRIDGE,
    FOUNTAIN,
    STAIRS,
    STATUE,
    Board,
    State,
)

DECORATION_KINDS = (STAIRS, STATUE, FOUNTAIN, BRIDGE)


def scores(state: State) -> dict[str, Any]:
    breakdown = [board_breakdown(board) for board in state.boards]
    totals = [sum(parts.values()) for parts in breakdown]
    notches = [visible_notches(board) for board in state.boards]
    # §2.11: most points; tie: fewer visible notches (the larger garden); still tied:
    # a shared victory, tied seats keep seat order in the ranking.
    ranking = sorted(range(state.players), key=lambda s: (-totals[s], notches[s], s))
    best = ranking[0]
    winners = [s for s in ranking if (totals[s], notches[s]) == (totals[best], notches[best])]
    return {
        "totals": totals,
        "breakdown": breakdown,
        "ranking": ranking,
        "winners": winners,
        "visible_notches": notches,
        "measures": [measures(parts) for parts in breakdown],
    }


def measures(points: dict[str, int]) -> dict[str, dict[str, int]]:
    """What the categories that score a measure counted (§2.10): the highest level, and the
    decoration and flower sets, recovered exactly from their points (§3.6 constants)."""
    return {
        "height": {"level": points["height"] // data.HEIGHT_POINTS_PER_LEVEL},
        "decoration_sets": {"sets": points["decoration_sets"] // data.DECORATION_SET_POINTS},
        "flower_sets": {"sets": points["flower_sets"] // data.FLOWER_SET_POINTS},
    }


def visible_notches(board: Board) -> int:
    """D29: 64 minus the union of the tile footprints (bridges hide nothing)."""
    return sum(1 for level in board.surface if level == 0)


def visible_part(board: Board, x: int, y: int, level: int) -> bool:
    """§4.7: a part at (cell, level) is covered when a tile over that cell is higher."""
    return board.surface[y * geometry.SIZE + x] <= level


def visible_tiles(board: Board) -> set[int]:
    """§4.6: a tile is visible when at least one of its fields is."""
    return {index for index in board.top if index >= 0}


def board_breakdown(board: Board) -> dict[str, int]:
    counts = dict.fromkeys(DECORATION_KINDS, 0)
    points = dict.fromkeys(data.CATEGORIES, 0)
    for piece in board.pieces:
        kind = piece.kind
        parts = list(piece.at)
        if kind == BRIDGE:
            (x1, y1, level), (x2, y2, _) = parts
            parts.append(((x1 + x2) // 2, (y1 + y2) // 2, level))
        if not any(visible_part(board, *part) for part in parts):
            continue
        if kind == STATUE:
            points["statues"] += data.STATUE_POINTS_PER_LEVEL * parts[0][2]
        elif kind == FOUNTAIN:
            points["fountains"] += data.FOUNTAIN_POINTS_PER_LEVEL * parts[0][2]
        elif kind == BRIDGE:
            points["bridges"] += data.BRIDGE_POINTS_PER_LEVEL * parts[0][2]
        elif kind == STAIRS:
            points["stairs"] += parts[0][2] + parts[1][2]
        elif kind == BELVEDERE:
            points["belvederes"] += data.BELVEDERE_POINTS
        if kind in counts:
            counts[kind] += 1
    points["decoration_sets"] = data.DECORATION_SET_POINTS * min(counts.values())
    flowers = dict.fromkeys(data.FLOWERS, 0)
    for index in visible_tiles(board):
        # D22: a starting tile counts with its owner's flower, printed on it.
        flowers[data.TILES[board.tiles[index].id][0]] += 1
    points["flower_sets"] = data.FLOWER_SET_POINTS * min(flowers.values())
    # D30: no tile, no height points.
    points["height"] = data.HEIGHT_POINTS_PER_LEVEL * max(board.levels, default=0)
    return points
