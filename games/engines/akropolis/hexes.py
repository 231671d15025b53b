"""Hex geometry (spec §4): axial coordinates packed into ints for speed.

A position (q, r) is stored as one int, `(q + OFFSET) * WIDTH + (r + OFFSET)`, so a
neighbour is a plain addition and sets of positions are sets of small ints. Only this
module packs and unpacks; the JSON formats always use (q, r).
"""

from __future__ import annotations

from typing import Final

WIDTH_BITS: Final = 10
WIDTH: Final = 1 << WIDTH_BITS
OFFSET: Final = 512
# No city can reach this far: even a 30-tile city spans fewer than 100 positions. Moves
# beyond it are rejected before packing so coordinates can never alias.
MAX_COORD: Final = 300

# Spec §4.1: neighbour directions N, NE, SE, S, SW, NW (clockwise), as (dq, dr).
DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
)


def pack(q: int, r: int) -> int:
    return (q + OFFSET) * WIDTH + (r + OFFSET)


def unpack(pos: int) -> tuple[int, int]:
    q, r = divmod(pos, WIDTH)
    return q - OFFSET, r - OFFSET


def in_range(q: int, r: int) -> bool:
    return -MAX_COORD <= q <= MAX_COORD and -MAX_COORD <= r <= MAX_COORD


NEIGHBOURS: Final[tuple[int, ...]] = tuple(dq * WIDTH + dr for dq, dr in DIRECTIONS)


def rotate(q: int, r: int, k: int) -> tuple[int, int]:
    """Spec §4.3: rotate (q, r) by k * 60 degrees clockwise about the origin."""
    for _ in range(k % 6):
        q, r = -r, q + r
    return q, r


# Spec §4.2: unrotated offsets of hexes A, B, C.
TILE_SHAPE: Final[tuple[tuple[int, int], ...]] = ((0, 0), (1, 0), (0, 1))

# Spec §4.3: for rotation k, the (dq, dr) offsets of A, B and C from the anchor.
ROTATED_SHAPES: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(rotate(q, r, k) for q, r in TILE_SHAPE) for k in range(6)
)

# The same offsets of B and C, packed: ROTATED_PACKED[k] = (dB, dC).
ROTATED_PACKED: Final[tuple[tuple[int, int], ...]] = tuple(
    (shape[1][0] * WIDTH + shape[1][1], shape[2][0] * WIDTH + shape[2][1])
    for shape in ROTATED_SHAPES
)


def targets(anchor: int, k: int) -> tuple[int, int, int]:
    """The positions that hexes A, B and C of a tile cover with A on `anchor`, rotation k."""
    d_b, d_c = ROTATED_PACKED[k]
    return anchor, anchor + d_b, anchor + d_c


def distance(q1: int, r1: int, q2: int, r2: int) -> int:
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
