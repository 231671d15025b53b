"""What the current step of a turn allows: the move types and every legal move (spec §2.3).

A turn is one to three moves by the same seat: `place_card` (or `discard_card` when no
display card fits, §2.9); then, if the placement made an eligible group (§2.6),
`place_temple`, or `move_temple` when all five are in use (§2.8), or `skip_scoring`; then,
after a temple, `take_tile` (§2.7).
"""

from __future__ import annotations

from typing import Any

from games.engines.hanging_gardens import data, garden
from games.engines.hanging_gardens.grid import OFFSET, SHAPES, STRIDE, Shape, pack, unpack
from games.engines.hanging_gardens.state import State, slot_index

PLACE_CARD = "place_card"
DISCARD_CARD = "discard_card"
PLACE_TEMPLE = "place_temple"
MOVE_TEMPLE = "move_temple"
SKIP_SCORING = "skip_scoring"
TAKE_TILE = "take_tile"
MOVE_TYPES = (PLACE_CARD, DISCARD_CARD, PLACE_TEMPLE, MOVE_TEMPLE, SKIP_SCORING, TAKE_TILE)


def placement_moves(s: State) -> list[dict[str, Any]]:
    """Every placement of every display card (§2.4); only if there is none, a discard of
    each display card (§2.9)."""
    own = s.gardens[s.current]
    moves: list[dict[str, Any]] = []
    for card in s.display:
        for shape in SHAPES[card]:
            k = shape.rotation
            # Inline `grid.unpack`: this list is the bulk of a random game's work.
            moves += [
                {
                    "type": PLACE_CARD,
                    "card": card,
                    "rotation": k,
                    "x": a % STRIDE - OFFSET,
                    "y": a // STRIDE - OFFSET,
                }
                for a in garden.anchors(own, shape)
            ]
    if moves:
        return moves
    return [{"type": DISCARD_CARD, "card": card} for card in s.display]


def placed_shape(s: State) -> tuple[Shape, int]:
    """The shape and packed anchor of the card placed this turn (temple phase)."""
    assert s.last is not None and not s.last.discarded
    return SHAPES[s.last.card][s.last.rotation], pack(s.last.x, s.last.y)


def eligible(s: State) -> list[frozenset[int]]:
    shape, anchor = placed_shape(s)
    return garden.eligible_groups(s.gardens[s.current], shape, anchor)


def temple_moves(s: State) -> list[dict[str, Any]]:
    own = s.gardens[s.current]
    cells = sorted((y, x) for group in eligible(s) for x, y in map(unpack, group))
    moves: list[dict[str, Any]] = []
    if own.temples_left:
        moves = [{"type": PLACE_TEMPLE, "x": x, "y": y} for y, x in cells]
    else:
        # §2.8: all five are out, so one standing on a smallest group moves.
        sources = [unpack(t) for t in garden.relocatable(own)]
        moves = [
            {"type": MOVE_TEMPLE, "x": x, "y": y, "from_x": fx, "from_y": fy}
            for y, x in cells
            for fx, fy in sources
        ]
    moves.append({"type": SKIP_SCORING})
    return moves


def takeable_slots(s: State) -> list[tuple[int, int]]:
    """(column, slot) of every face-up tile the scored group may take (§2.7)."""
    return [
        (column, slot)
        for column in data.allowed_columns(s.group_size)
        for slot in range(1, data.SLOTS_PER_COLUMN + 1)
        if s.tile_display[slot_index(column, slot)] is not None
    ]
