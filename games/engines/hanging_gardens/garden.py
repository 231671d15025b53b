"""One player's garden: the top square of every occupied cell, and the temples on it.

Placement legality (spec §2.4), groups (§2.5), eligible groups (§2.6) and the temples that
may be relocated (§2.8). Covered squares are ignored by every rule, so only the top square
of each cell is kept (§4).

Gardens are immutable values: `place` returns a new garden. Each garden keeps private
caches: of the anchors where a card shape fits (they depend on the whole garden), and of
facts about its squares alone (which cells support a motif pattern, its groups), which a
garden that differs only in its temples shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import data
from games.engines.hanging_gardens.grid import (
    NEIGHBOURS,
    SHAPES,
    STRIDE,
    Shape,
    in_bounds,
    pack,
    unpack,
)


@dataclass(frozen=True, slots=True)
class Garden:
    top: dict[int, str]
    temples: frozenset[int] = frozenset()
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    shared: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def starting(cls) -> Garden:
        """Spec §2.1 step 2: the start card at anchor (0, 0), rotation 0."""
        return cls(dict(_laid(SHAPES[0][0], pack(0, 0))))

    @property
    def temples_left(self) -> int:
        return data.TEMPLES_PER_PLAYER - len(self.temples)

    # -- JSON: the spec's fixture notation (§6): rows from the top, a space is the table.

    def to_json(self) -> dict[str, Any]:
        cells = [(unpack(pos), square) for pos, square in self.top.items()]
        temples = sorted(unpack(pos) for pos in self.temples)
        if not cells:
            return {"x": 0, "y": 0, "rows": [], "temples": []}
        xs = [x for (x, _), _ in cells]
        ys = [y for (_, y), _ in cells]
        x0, y0 = min(xs), min(ys)
        grid = [[" "] * (max(xs) - x0 + 1) for _ in range(max(ys) - y0 + 1)]
        for (x, y), square in cells:
            grid[y - y0][x - x0] = square
        return {
            "x": x0,
            "y": y0,
            "rows": ["".join(row).rstrip() for row in grid],
            "temples": [[x, y] for y, x in sorted((y, x) for x, y in temples)],
        }

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> Garden:
        x0, y0 = int(payload.get("x", 0)), int(payload.get("y", 0))
        top: dict[int, str] = {}
        for dy, row in enumerate(payload["rows"]):
            for dx, square in enumerate(str(row)):
                if square == " ":
                    continue
                if square not in data.SQUARES:
                    raise ValueError(f"Unknown square {square!r} at ({x0 + dx}, {y0 + dy}).")
                if not in_bounds(x0 + dx, y0 + dy):
                    raise ValueError(f"Cell ({x0 + dx}, {y0 + dy}) is too far out.")
                top[pack(x0 + dx, y0 + dy)] = square
        temples = set()
        for x, y in payload.get("temples", ()):
            pos = pack(int(x), int(y))
            if top.get(pos, data.BUILDING) == data.BUILDING:
                raise ValueError(f"A temple at ({x}, {y}) must stand on a motif.")
            temples.add(pos)
        if len(temples) > data.TEMPLES_PER_PLAYER:
            raise ValueError(f"A player has only {data.TEMPLES_PER_PLAYER} temples.")
        return cls(dict(sorted(top.items())), frozenset(temples))


def _laid(shape: Shape, anchor: int) -> list[tuple[int, str]]:
    return [(anchor + off, square) for off, square in shape.by_offset]


def check_placement(garden: Garden, shape: Shape, x: int, y: int) -> None:
    """Raise IllegalMove saying why the card may not go there (spec §2.4), else nothing."""
    if not (in_bounds(x, y) and in_bounds(x + shape.width - 1, y + shape.height - 1)):
        raise IllegalMove(
            "too_far", "That is too far from the garden for any card to reach.", x=x, y=y
        )
    anchor = pack(x, y)
    top = garden.top
    for dx, dy, square in shape.squares:
        pos = anchor + dx + dy * STRIDE
        if square != data.BUILDING and pos not in top:
            # §2.4 rule 1: a motif must cover a building space or a motif.
            raise IllegalMove(
                "motif_on_table",
                "A motif must lie on a building space or another motif, never on the table.",
                x=x + dx,
                y=y + dy,
            )
        if pos in garden.temples:
            # §2.4 rule 3: temples are never covered.
            raise IllegalMove("covers_temple", "A card may not cover a temple.", x=x + dx, y=y + dy)


def anchors(garden: Garden, shape: Shape) -> tuple[int, ...]:
    """Every packed anchor where `shape` may go (spec §2.4), sorted.

    Legality depends only on where the motif squares land (each needs an occupied cell) and
    on the card's bounding box (no temple under it), so shapes that agree on both share one
    answer. A search starts from the occupied cells under the first motif square.
    """
    key = (shape.width, shape.motif_offsets)
    found: tuple[int, ...] | None = garden.cache.get(key)
    if found is not None:
        return found
    first = shape.motif_offsets[0]
    cells = _supporting(garden, tuple(m - first for m in shape.motif_offsets[1:]))
    blocked = _blocked(garden, shape)
    if blocked:
        candidates = [p - first for p in cells if p - first not in blocked]
    else:
        candidates = [p - first for p in cells]
    if _near_edge(garden):
        candidates = [a for a in candidates if _box_in_bounds(a, shape)]
    found = tuple(candidates)
    garden.cache[key] = found
    return found


def _supporting(garden: Garden, rest: tuple[int, ...]) -> list[int]:
    """Occupied cells p, sorted, such that p + r is occupied too for every r in `rest`:
    where the first motif square may land when the others land at those offsets."""
    hit: list[int] | None = garden.shared.get(rest)
    if hit is not None:
        return hit
    top = garden.top
    if not rest:
        hit = sorted(top)
    elif len(rest) == 1:
        (a,) = rest
        hit = sorted(p for p in top if p + a in top)
    elif len(rest) == 2:
        a, b = rest
        hit = sorted(p for p in top if p + a in top and p + b in top)
    else:
        hit = sorted(p for p in top if all(p + r in top for r in rest))
    garden.shared[rest] = hit
    return hit


def _blocked(garden: Garden, shape: Shape) -> frozenset[int]:
    """Anchors whose bounding box (of this shape's width) would cover a temple."""
    if not garden.temples:
        return frozenset()
    key = ("blocked", shape.width)
    hit: frozenset[int] | None = garden.cache.get(key)
    if hit is None:
        hit = frozenset(t - off for t in garden.temples for off in shape.offsets)
        garden.cache[key] = hit
    return hit


def _near_edge(garden: Garden) -> bool:
    hit: bool | None = garden.shared.get("near_edge")
    if hit is None:
        hit = any(_is_near_edge(pos) for pos in garden.top)
        garden.shared["near_edge"] = hit
    return hit


def _is_near_edge(pos: int) -> bool:
    """Near enough to the coordinate bound that a card from here might cross it."""
    limit = data.MAX_COORDINATE - 3
    x, y = unpack(pos)
    return not (-limit <= x <= limit and -limit <= y <= limit)


def _box_in_bounds(anchor: int, shape: Shape) -> bool:
    x, y = unpack(anchor)
    return in_bounds(x, y) and in_bounds(x + shape.width - 1, y + shape.height - 1)


def can_place_any(garden: Garden, cards: tuple[int, ...]) -> bool:
    return any(anchors(garden, shape) for card in cards for shape in SHAPES[card])


def place(garden: Garden, shape: Shape, anchor: int) -> Garden:
    """The garden with the card laid: each square becomes its cell's top square (§2.4)."""
    top = dict(garden.top)
    laid = _laid(shape, anchor)
    for pos, square in laid:
        top[pos] = square
    placed = Garden(top, garden.temples)
    if not _near_edge(garden):
        corner = anchor + (shape.width - 1) + (shape.height - 1) * STRIDE
        placed.shared["near_edge"] = _is_near_edge(anchor) or _is_near_edge(corner)
    placed.shared["parent"] = (garden, [pos for pos, _ in laid])
    return placed


def group_at(top: dict[int, str], pos: int) -> frozenset[int]:
    """Spec §2.5: the cells orthogonally connected to `pos` showing its motif."""
    motif = top.get(pos, data.BUILDING)
    if motif == data.BUILDING:
        return frozenset()
    seen = {pos}
    todo = [pos]
    while todo:
        cell = todo.pop()
        for d in NEIGHBOURS:
            n = cell + d
            if n not in seen and top.get(n) == motif:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def groups(garden: Garden) -> list[frozenset[int]]:
    """Every group of the garden (spec §2.5), in no particular order.

    A garden made by `place` remembers the garden it came from, and its groups are those
    of that garden with only the groups near the new card recomputed: a group neither
    holding one of the card's cells nor touching one cannot have changed.
    """
    chain = [garden]
    while "groups" not in chain[-1].shared and "parent" in chain[-1].shared:
        chain.append(chain[-1].shared["parent"][0])
    for child in reversed(chain):
        if "groups" not in child.shared:
            child.shared["groups"] = _groups_from(child)
        # Once the groups are known the parent is no longer needed.
        child.shared.pop("parent", None)
    result: list[frozenset[int]] = garden.shared["groups"]
    return result


def _groups_from(garden: Garden) -> list[frozenset[int]]:
    top = garden.top
    parent = garden.shared.get("parent")
    found: list[frozenset[int]] = []
    if parent is None:
        todo = [pos for pos in sorted(top) if top[pos] != data.BUILDING]
    else:
        before, cells = parent
        near = set(cells)
        near.update(c + d for c in cells for d in NEIGHBOURS)
        redo: set[int] = set(cells)
        for group in before.shared["groups"]:
            if near.isdisjoint(group):
                found.append(group)
            else:
                redo |= group
        todo = [pos for pos in sorted(redo) if top[pos] != data.BUILDING]
    seen: set[int] = set()
    for pos in todo:
        if pos not in seen:
            group = group_at(top, pos)
            seen |= group
            found.append(group)
    return found


def eligible_groups(garden: Garden, shape: Shape, anchor: int) -> list[frozenset[int]]:
    """Spec §2.6: groups of 3 or more, holding a square of the card just placed at `anchor`
    (same-motif overlays included, §7.4) and no temple; ordered by their first cell."""
    found: list[frozenset[int]] = []
    seen: set[int] = set()
    for off in shape.motif_offsets:
        pos = anchor + off
        if pos in seen:
            continue
        group = group_at(garden.top, pos)
        seen |= group
        if len(group) >= data.MIN_GROUP and not group & garden.temples:
            found.append(group)
    found.sort(key=min)
    return found


def relocatable(garden: Garden) -> list[int]:
    """Spec §2.8, §7.6: the placed temples standing on a smallest group, sorted; kept in
    the garden's cache, as each temple move of a scoring step checks its source again."""
    hit: list[int] | None = garden.cache.get("relocatable")
    if hit is not None:
        return hit
    sizes = {t: len(group_at(garden.top, t)) for t in garden.temples}
    found: list[int] = []
    if sizes:
        smallest = min(sizes.values())
        found = sorted(t for t, size in sizes.items() if size == smallest)
    garden.cache["relocatable"] = found
    return found


def with_temple(garden: Garden, pos: int, moved_from: int | None = None) -> Garden:
    temples = set(garden.temples)
    if moved_from is not None:
        temples.discard(moved_from)
    temples.add(pos)
    return Garden(garden.top, frozenset(temples), shared=garden.shared)
