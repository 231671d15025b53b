"""Move types and the shape check every move passes before any rule is looked at.

Move dicts (spec §2.13, with flat coordinates; every field required, nothing else):

    {"type": "remove_clay", "x": 0..3, "y": 0..3}       # setup: remove a clay tile
    {"type": "dig", "x": 0..3, "y": 0..3}               # step A: take a visible tile
    {"type": "place", "tile": "taken" | "stored", "x": 0..6, "y": 0..6,
     "rotation": 0..3, "level": L, "open_corner": null | 0..3}
                                                        # step B: pillars + terrace tile
    {"type": "decorate", "kind": "stairs" | "fountain" | "bridge" | "statue",
     "x": 0..7, "y": 0..7, "toward": "east" | "south" | null}
                                                        # step B: a decoration
    {"type": "set_symbol", "x": 0..7, "y": 0..7, "symbol": "S" | "F" | "B" | "T"}
    {"type": "end_turn", "taken": "store" | "discard" | null}   # step C

`x, y` of `remove_clay` and `dig` name a quarry stack; of `place` the tile's anchor (its
north-west cell); of `decorate` the west or north end of a two-field decoration (the
statue's cell), the other end lying `toward` the east or the south: the next cell for
stairs and fountains, two cells on for a bridge; a statue has `toward` null. Every value
is a number, a string or null, so a move is hashable as the tuple of its items.
"""

from __future__ import annotations

from typing import Any

from games.engines.babylon import data
from games.engines.base import IllegalMove, move_type

REMOVE_CLAY = "remove_clay"
DIG = "dig"
PLACE = "place"
DECORATE = "decorate"
SET_SYMBOL = "set_symbol"
END_TURN = "end_turn"
MOVE_TYPES = (REMOVE_CLAY, DIG, PLACE, DECORATE, SET_SYMBOL, END_TURN)

KEYS: dict[str, tuple[str, ...]] = {
    REMOVE_CLAY: ("x", "y"),
    DIG: ("x", "y"),
    PLACE: ("tile", "x", "y", "rotation", "level", "open_corner"),
    DECORATE: ("kind", "x", "y", "toward"),
    SET_SYMBOL: ("x", "y", "symbol"),
    END_TURN: ("taken",),
}

TAKEN = "taken"
STORED = "stored"
STORE = "store"
DISCARD = "discard"
EAST = "east"
SOUTH = "south"
# Cell steps to a decoration's other end, by kind and direction.
TOWARD: dict[str, tuple[int, int]] = {EAST: (1, 0), SOUTH: (0, 1)}
REACH = {"stairs": 1, "fountain": 1, "bridge": 2}

# Largest x and y per move type.
_SIZE = {
    REMOVE_CLAY: data.QUARRY_SIZE,
    DIG: data.QUARRY_SIZE,
    PLACE: data.BOARD_SIZE - 1,
    DECORATE: data.BOARD_SIZE,
    SET_SYMBOL: data.BOARD_SIZE,
}


def _bad(message: str, **params: Any) -> IllegalMove:
    return IllegalMove("bad_move", message, **params)


def _is_int(value: Any) -> bool:
    return type(value) is int


def check_shape(move: Any) -> str:
    """Return the move type; raise IllegalMove("bad_move") for anything malformed."""
    kind = move_type(move, KEYS)
    if kind in _SIZE:
        size = _SIZE[kind]
        for key in ("x", "y"):
            if not _is_int(move[key]) or not 0 <= move[key] < size:
                raise _bad(f"{key!r} must be an integer from 0 to {size - 1}.", key=key)
    if kind == PLACE:
        if move["tile"] not in (TAKEN, STORED):
            raise _bad('\'tile\' must be "taken" or "stored".')
        if not _is_int(move["rotation"]) or move["rotation"] not in data.ROTATIONS:
            raise _bad("'rotation' must be 0, 1, 2 or 3.")
        if not _is_int(move["level"]) or not 1 <= move["level"] <= 64:
            raise _bad("'level' must be a positive integer.")
        corner = move["open_corner"]
        if corner is not None and (not _is_int(corner) or corner not in range(4)):
            raise _bad("'open_corner' must be null or 0..3.")
    elif kind == DECORATE:
        decoration = move["kind"]
        if not isinstance(decoration, str) or decoration not in data.DECORATIONS:
            raise _bad(f"'kind' must be one of {list(data.DECORATIONS)}.")
        toward = move["toward"]
        if decoration == "statue":
            if toward is not None:
                raise _bad("A statue stands on one field: 'toward' must be null.")
        elif toward not in (EAST, SOUTH):
            raise _bad(f'A {decoration} needs \'toward\' "east" or "south".')
    elif kind == SET_SYMBOL:
        if move["symbol"] not in data.SYMBOLS:
            raise _bad(f"'symbol' must be one of {list(data.SYMBOLS)}.")
    elif kind == END_TURN and move["taken"] not in (STORE, DISCARD, None):
        raise _bad('\'taken\' must be "store", "discard" or null.')
    return kind


def decoration_cells(move: dict[str, Any]) -> tuple[tuple[int, int], ...] | None:
    """The board cells a (well-shaped) decorate move covers, or None when its far end
    is off the board."""
    x, y = move["x"], move["y"]
    if move["kind"] == "statue":
        return ((x, y),)
    dx, dy = TOWARD[move["toward"]]
    reach = REACH[move["kind"]]
    far = (x + dx * reach, y + dy * reach)
    if not (0 <= far[0] < data.BOARD_SIZE and 0 <= far[1] < data.BOARD_SIZE):
        return None
    return ((x, y), far)


def decorate_move(kind: str, cells: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    """The move that builds `kind` on `cells` (west or north end first)."""
    (x, y), *rest = cells
    toward = None
    if rest:
        toward = EAST if rest[0][1] == y else SOUTH
    return {"type": DECORATE, "kind": kind, "x": x, "y": y, "toward": toward}
