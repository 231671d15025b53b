"""Where a terrace tile may stand (spec §2.4), and what placing it does.

A placement is an anchor, a level `L` and an optional open corner. Legality does not
depend on the tile or its rotation (those only decide the symbols), so each board's
placements are computed once and shared by both tiles and all four rotations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from games.engines.babylon import data, geometry
from games.engines.babylon.state import (
    BELVEDERE,
    DOUBLE,
    SINGLE,
    STATUE,
    STATUE_PILLAR,
    Board,
    Piece,
    Tile,
    field_key,
)

# Support of one corner (§2.4 rule 6).
NO_SUPPORT = None


# What holds each of a tile's four corners (SINGLE, DOUBLE or STATUE; None: open).
Corners = tuple[str | None, str | None, str | None, str | None]


@dataclass(frozen=True, slots=True)
class Option:
    """One placement: where, at which level, which corner (if any) stands open, and what
    supports the other corners (SINGLE, DOUBLE or STATUE per corner, None when open)."""

    anchor: int
    level: int
    open_corner: int | None
    supports: Corners
    singles: int
    doubles: int

    @property
    def x(self) -> int:
        return self.anchor % geometry.SIZE

    @property
    def y(self) -> int:
        return self.anchor // geometry.SIZE


def _supports(board: Board) -> tuple[list[str | None], list[str | None]]:
    """Per cell, what holds a corner one level and two levels above its surface."""
    cached: tuple[list[str | None], list[str | None]] | None = board.cache.get("supports")
    if cached is not None:
        return cached
    one: list[str | None] = [SINGLE] * geometry.CELLS
    two: list[str | None] = [DOUBLE] * geometry.CELLS
    for c, span in board.spans.items():
        if span > board.surface[c]:
            # A bridge spans this cell above its surface: no pillar can stand under it.
            one[c] = two[c] = NO_SUPPORT
    for piece in board.pieces:
        for x, y, level in piece.at:
            c = y * geometry.SIZE + x
            if board.surface[c] != level:
                continue  # covered: a pillar never stands there again
            one[c] = STATUE if piece.kind == STATUE else NO_SUPPORT
            two[c] = NO_SUPPORT
            if board.spans.get(c, 0) > level:
                one[c] = NO_SUPPORT
    result = (one, two)
    board.cache["supports"] = result
    return result


ALL_OPEN: tuple[int | None, ...] = (None, 0, 1, 2, 3)


def options(board: Board) -> tuple[Option, ...]:
    """Every placement the board allows, before the pool and the supply are checked."""
    cached: tuple[Option, ...] | None = board.cache.get("options")
    if cached is not None:
        return cached
    found: list[Option] = []
    for anchor in geometry.FOOTPRINTS:
        found += _options_at(board, anchor)
    result = tuple(found)
    board.cache["options"] = result
    return result


def _options_at(board: Board, anchor: int) -> list[Option]:
    """The placements with this anchor, in the order `options` lists them."""
    if anchor in board.anchors:
        return []  # rule 4: never exactly over another tile
    found: list[Option] = []
    surface, spans, levels = board.surface, board.spans, board.levels
    one, two = _supports(board)
    cells = geometry.FOOTPRINTS[anchor]
    c0, c1, c2, c3 = cells
    s0, s1, s2, s3 = surface[c0], surface[c1], surface[c2], surface[c3]
    highest = max(s0, s1, s2, s3)
    for level in (highest + 1, highest + 2):
        if level > 1 and level - 1 not in levels:
            continue  # rule 3: level by level
        if spans and any(spans.get(c, 0) >= level for c in cells):
            continue  # rule 5: never under a bridge
        # What holds each corner: a gap of 1 or 2 levels, empty or statue (rule 6).
        g0, g1, g2, g3 = level - s0, level - s1, level - s2, level - s3
        supports = (
            one[c0] if g0 == 1 else two[c0] if g0 == 2 else None,
            one[c1] if g1 == 1 else two[c1] if g1 == 2 else None,
            one[c2] if g2 == 1 else two[c2] if g2 == 2 else None,
            one[c3] if g3 == 1 else two[c3] if g3 == 2 else None,
        )
        missing = supports.count(None)
        if missing > 1:
            continue
        singles, doubles = supports.count(SINGLE), supports.count(DOUBLE)
        opens = (supports.index(None),) if missing else ALL_OPEN
        for open_corner in opens:
            if open_corner is None or missing:
                held, s, d = supports, singles, doubles
            else:
                gone = supports[open_corner]
                held = cast(Corners, supports[:open_corner] + (None,) + supports[open_corner + 1 :])
                s, d = singles - (gone == SINGLE), doubles - (gone == DOUBLE)
            found.append(Option(anchor, level, open_corner, held, s, d))
    return found


def find(board: Board, x: int, y: int, level: int, open_corner: int | None) -> Option | None:
    """The placement at (x, y) with this level and open corner, if the board allows it;
    only that anchor's placements are worked out unless the board's are already known."""
    anchor = geometry.cell(x, y)
    if anchor not in geometry.FOOTPRINTS:
        return None
    cached: tuple[Option, ...] | None = board.cache.get("options")
    candidates = _options_at(board, anchor) if cached is None else cached
    for option in candidates:
        if option.anchor == anchor and option.level == level and option.open_corner == open_corner:
            return option
    return None


def exchanges_needed(option: Option, pool_doubles: int) -> int:
    """Doubles missing from the pool, bought with 2 singles each (§2.4 rule 8)."""
    return max(0, option.doubles - pool_doubles)


def place(board: Board, tile_id: str, option: Option, rotation: int) -> Board:
    """The board after the tile stands on the option's supports (and belvedere)."""
    cells = geometry.FOOTPRINTS[option.anchor]
    x, y = option.x, option.y
    symbols = geometry.rotate(data.TILES[tile_id][1], rotation)
    pieces = list(board.pieces)
    for k, support in enumerate(option.supports):
        if support is None:
            continue
        c = cells[k]
        cx, cy = geometry.xy(c)
        surface = board.surface[c]
        if support == STATUE:
            index = board.occupied[field_key(c, surface)]
            pieces[index] = Piece(STATUE_PILLAR, pieces[index].at)
        else:
            pieces.append(Piece(support, ((cx, cy, surface),)))
    if option.open_corner is not None:
        bx, by = geometry.xy(cells[option.open_corner])
        pieces.append(Piece(BELVEDERE, ((bx, by, option.level),)))
    tile = Tile(tile_id, x, y, rotation, option.level, symbols)
    return Board(
        tiles=(*board.tiles, tile),
        pieces=tuple(pieces),
        stored=board.stored,
        singles=board.singles,
    )
