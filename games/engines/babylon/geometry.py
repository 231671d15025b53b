"""Board and quarry geometry (spec §4): cells, corners, rotations, quarry edges.

A board cell (notch) `(x, y)` is stored as the integer `y * 8 + x`; x is the column
(west to east), y the row (north to south, north = far side from the owner).
"""

from __future__ import annotations

from typing import Final

from games.engines.babylon import data

SIZE: Final = data.BOARD_SIZE
CELLS: Final = SIZE * SIZE
Q: Final = data.QUARRY_SIZE

# §4.2: corner k of a tile anchored at (ax, ay): 0 NW, 1 NE, 2 SE, 3 SW.
CORNER_OFFSETS: Final = ((0, 0), (1, 0), (1, 1), (0, 1))
ANCHOR_RANGE: Final = range(SIZE - 1)


def cell(x: int, y: int) -> int:
    return y * SIZE + x


def xy(c: int) -> tuple[int, int]:
    return c % SIZE, c // SIZE


def footprint(ax: int, ay: int) -> tuple[int, int, int, int]:
    """The four cells of a tile anchored at (ax, ay), by corner index."""
    c = ay * SIZE + ax
    return (c, c + 1, c + SIZE + 1, c + SIZE)


# Precomputed footprints of every anchor, keyed by the anchor's cell.
FOOTPRINTS: Final[dict[int, tuple[int, int, int, int]]] = {
    cell(ax, ay): footprint(ax, ay) for ay in ANCHOR_RANGE for ax in ANCHOR_RANGE
}


def rotate(fields: str, rotation: int) -> str:
    """§4.2: printed field i lands on corner (i + r) mod 4; returns symbols by corner."""
    r = rotation % 4
    return fields[-r:] + fields[:-r] if r else fields


# Orthogonal neighbour pairs (c1 < c2) for stairs and fountains, and pairs at distance 2
# in a row or column with their middle cell, for bridges (§2.5).
ADJACENT_PAIRS: Final = tuple(
    [(cell(x, y), cell(x + 1, y)) for y in range(SIZE) for x in range(SIZE - 1)]
    + [(cell(x, y), cell(x, y + 1)) for y in range(SIZE - 1) for x in range(SIZE)]
)
BRIDGE_PAIRS: Final = tuple(
    [(cell(x, y), cell(x + 2, y), cell(x + 1, y)) for y in range(SIZE) for x in range(SIZE - 2)]
    + [(cell(x, y), cell(x, y + 2), cell(x, y + 1)) for y in range(SIZE - 2) for x in range(SIZE)]
)

# §4.5: quarry stacks are indexed `y * 4 + x`; directions N, E, S, W.
QUARRY_DIRECTIONS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))


def quarry_index(x: int, y: int) -> int:
    return y * Q + x


def quarry_edges(heights: tuple[int, ...] | list[int], index: int) -> int:
    """§2.3 step 2: edges that earn a pillar when the top tile of stack `index` is taken.

    An edge counts when it touches the quarry wall, or the neighbouring stack is empty
    (the quarry bottom), or its top tile lies at the same or a lower level.
    """
    h = heights[index]
    x, y = index % Q, index // Q
    edges = 0
    for dx, dy in QUARRY_DIRECTIONS:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < Q and 0 <= ny < Q) or heights[ny * Q + nx] <= h:
            edges += 1
    return edges
