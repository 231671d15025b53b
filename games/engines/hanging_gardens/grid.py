"""The square grid of a garden and the turned cards on it (spec §4).

x grows to the right and y downward. A cell (x, y) packs into one int,
`(y + OFFSET) * STRIDE + (x + OFFSET)`, so a neighbour is one addition away and sets of
cells are sets of ints. `data.MAX_COORDINATE` keeps every cell far from the packing's edge.

A card in rotation k is k quarter turns clockwise from upright: one quarter turn sends
square (c, r) of a W x H layout to (H - 1 - r, c) of the H x W layout. Its anchor is the
top-left cell of the turned card's bounding box.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.hanging_gardens import data

STRIDE = 256
OFFSET = 128
NEIGHBOURS = (1, -1, STRIDE, -STRIDE)


def pack(x: int, y: int) -> int:
    return (y + OFFSET) * STRIDE + (x + OFFSET)


def unpack(pos: int) -> tuple[int, int]:
    return pos % STRIDE - OFFSET, pos // STRIDE - OFFSET


def in_bounds(x: int, y: int) -> bool:
    return -data.MAX_COORDINATE <= x <= data.MAX_COORDINATE and (
        -data.MAX_COORDINATE <= y <= data.MAX_COORDINATE
    )


def turn(rows: tuple[str, ...], k: int) -> tuple[str, ...]:
    """The layout `rows` after k quarter turns clockwise (spec §4)."""
    for _ in range(k % 4):
        height, width = len(rows), len(rows[0])
        # New square (c', r') comes from old (c, r) with c' = H - 1 - r and r' = c.
        rows = tuple(
            "".join(rows[height - 1 - c2][r2] for c2 in range(height)) for r2 in range(width)
        )
    return rows


@dataclass(frozen=True, slots=True)
class Shape:
    """One card in one rotation: what lands where, relative to the anchor."""

    card: int
    rotation: int
    rows: tuple[str, ...]
    width: int
    height: int
    # (dx, dy, square) for all six squares, row by row.
    squares: tuple[tuple[int, int, str], ...]
    # Packed offsets (dx + dy * STRIDE) of all six squares, and of the motif squares only.
    offsets: tuple[int, ...]
    motif_offsets: tuple[int, ...]
    # Packed offset -> square, to lay the card.
    by_offset: tuple[tuple[int, str], ...]


def _shape(card: int, rows: tuple[str, ...], k: int) -> Shape:
    turned = turn(rows, k)
    squares = tuple(
        (dx, dy, square) for dy, row in enumerate(turned) for dx, square in enumerate(row)
    )
    offsets = tuple(dx + dy * STRIDE for dx, dy, _ in squares)
    motif_offsets = tuple(dx + dy * STRIDE for dx, dy, square in squares if square != data.BUILDING)
    return Shape(
        card=card,
        rotation=k,
        rows=turned,
        width=len(turned[0]),
        height=len(turned),
        squares=squares,
        offsets=offsets,
        motif_offsets=motif_offsets,
        by_offset=tuple(zip(offsets, (s for _, _, s in squares), strict=True)),
    )


# SHAPES[card][k] for every building card and rotation; the start card is card 0.
SHAPES: dict[int, tuple[Shape, ...]] = {
    card: tuple(_shape(card, rows, k) for k in range(data.ROTATIONS))
    for card, rows in ((0, data.START_CARD), *data.CARDS.items())
}


def cells_of(card: int, k: int, x: int, y: int) -> list[tuple[int, int, str]]:
    """The (x, y, square) triples a card covers at anchor (x, y) in rotation k."""
    return [(x + dx, y + dy, square) for dx, dy, square in SHAPES[card][k].squares]
