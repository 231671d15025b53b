"""Where a tile may go (spec §2.4, §4.4). Placements depend only on the city, never on
the tile, so one list serves every tile and is cached on the (immutable) city."""

from __future__ import annotations

from games.engines.akropolis import data
from games.engines.akropolis.hexes import NEIGHBOURS, ROTATED_PACKED, unpack
from games.engines.akropolis.state import City
from games.engines.base import IllegalMove


def legal_placements(city: City) -> tuple[int, ...]:
    """Every legal placement as one sorted int, `anchor * 8 + rotation` (see `decode`)."""
    if city.placements is None:
        object.__setattr__(city, "placements", _compute(city))
    assert city.placements is not None
    return city.placements


def decode(code: int) -> tuple[int, int, int]:
    """(q, r, rotation) of a placement from `legal_placements`."""
    q, r = unpack(code >> 3)
    return q, r, code & 7


def _compute(city: City) -> tuple[int, ...]:
    # Spec §4.3: every triangle of three mutually adjacent positions is covered in exactly
    # three ways, hex A on each corner. Triangles are either "A, SE, S" (k = 0 from A) or
    # "A, S, SW" (k = 1 from A), so we search those two shapes and then put A on each
    # corner: from corner B the same triangle is rotation k + 2, from corner C k + 4.
    # The rules of §2.4 treat the three corners alike, so this finds every placement.
    stacks = city.stacks
    occupied = set(stacks)
    frontier = {p + d for p in occupied for d in NEIGHBOURS} - occupied
    found: list[int] = []
    for k in (0, 1):
        d_b, d_c = ROTATED_PACKED[k]
        b_occupied = {p - d_b for p in occupied}
        c_occupied = {p - d_c for p in occupied}
        # §2.4, h = 0: three empty positions, at least one sharing an edge with the city.
        touching = frontier | {p - d_b for p in frontier} | {p - d_c for p in frontier}
        triangles = list(touching - occupied - b_occupied - c_occupied)
        # §2.4, h >= 1: equal heights under all three hexes, resting on two tiles or more.
        for a in b_occupied & c_occupied & occupied:
            stack_a, stack_b, stack_c = stacks[a], stacks[a + d_b], stacks[a + d_c]
            h = len(stack_a)
            if len(stack_b) != h or len(stack_c) != h:
                continue
            if stack_a[-1][1] == stack_b[-1][1] == stack_c[-1][1]:
                continue
            triangles.append(a)
        found += [a * 8 + k for a in triangles]
        found += [(a + d_b) * 8 + k + 2 for a in triangles]
        found += [(a + d_c) * 8 + k + 4 for a in triangles]
    found.sort()
    return tuple(found)


def check_placement(city: City, anchor: int, k: int) -> int:
    """Return the common height under the tile, or raise IllegalMove saying why not."""
    stacks = city.stacks
    d_b, d_c = ROTATED_PACKED[k]
    targets = (anchor, anchor + d_b, anchor + d_c)
    heights = [len(stacks.get(p, ())) for p in targets]
    if len(set(heights)) > 1:
        if min(heights) == 0:
            raise IllegalMove(
                "unsupported",
                "A tile must lie flat: it cannot overhang an empty space or lie partly on "
                "the table and partly on the city.",
                heights=heights,
            )
        raise IllegalMove(
            "mixed_heights",
            "A tile must lie flat: all three hexes under it must be at the same level.",
            heights=heights,
        )
    h = heights[0]
    if h == 0:
        if not any(p + d in stacks for p in targets for d in NEIGHBOURS):
            raise IllegalMove(
                "not_touching",
                "A tile laid on the table must share an edge with the city.",
            )
        return 0
    if len({stacks[p][-1][1] for p in targets}) < 2:
        raise IllegalMove(
            "single_tile_support",
            "A tile built on the city must rest on at least two different tiles.",
        )
    return h


def place(city: City, tile_id: int, anchor: int, k: int) -> tuple[City, int]:
    """Put the tile on the city (already checked); return the new city and quarries covered."""
    codes = data.TILES[tile_id][1]
    d_b, d_c = ROTATED_PACKED[k]
    stacks = dict(city.stacks)
    quarries = 0
    for pos, code in zip((anchor, anchor + d_b, anchor + d_c), codes, strict=True):
        below = stacks.get(pos, ())
        if below and below[-1][0] == data.QUARRY:
            quarries += 1
        stacks[pos] = (*below, (code, tile_id))
    return City(stacks), quarries
