"""Move types and the shape check every move passes before any rule is looked at.

Move dicts (spec §2.13; every field required, nothing else allowed):

    {"type": "remove_clay", "stack": [x, y]}            # setup: remove a clay tile
    {"type": "dig", "stack": [x, y]}                    # step A: take a visible tile
    {"type": "place", "tile": "taken" | "stored", "anchor": [x, y], "rotation": 0..3,
     "level": L, "open_corner": null | 0..3}            # step B: pillars + terrace tile
    {"type": "decorate", "kind": "stairs" | "fountain" | "bridge" | "statue",
     "cells": [[x, y], [x, y]]}                         # step B: one cell for a statue;
                                                        #   two cells in (y, x) order
    {"type": "set_symbol", "cell": [x, y], "symbol": "S" | "F" | "B" | "T"}
    {"type": "end_turn", "taken": "store" | "discard" | null}   # step C

Quarry stacks are [x, y] with x, y in 0..3; board cells [x, y] with x, y in 0..7.
"""

from __future__ import annotations

from typing import Any

from games.engines.babylon import data
from games.engines.base import IllegalMove

REMOVE_CLAY = "remove_clay"
DIG = "dig"
PLACE = "place"
DECORATE = "decorate"
SET_SYMBOL = "set_symbol"
END_TURN = "end_turn"
MOVE_TYPES = (REMOVE_CLAY, DIG, PLACE, DECORATE, SET_SYMBOL, END_TURN)

KEYS: dict[str, tuple[str, ...]] = {
    REMOVE_CLAY: ("stack",),
    DIG: ("stack",),
    PLACE: ("tile", "anchor", "rotation", "level", "open_corner"),
    DECORATE: ("kind", "cells"),
    SET_SYMBOL: ("cell", "symbol"),
    END_TURN: ("taken",),
}

TAKEN = "taken"
STORED = "stored"
STORE = "store"
DISCARD = "discard"


def _bad(message: str, **params: Any) -> IllegalMove:
    return IllegalMove("bad_move", message, **params)


def check_shape(move: Any) -> str:
    """Return the move type; raise IllegalMove("bad_move") for anything malformed."""
    if not isinstance(move, dict):
        raise _bad("A move must be a JSON object.")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in KEYS:
        raise _bad(f"Unknown move type {kind!r}; expected one of {list(MOVE_TYPES)}.")
    expected = {"type", *KEYS[kind]}
    if set(move) != expected:
        raise _bad(
            f"A {kind} move has exactly the keys {sorted(expected)}.",
            keys=sorted(str(k) for k in move),
        )
    if kind in (REMOVE_CLAY, DIG):
        pair(move["stack"], "stack", data.QUARRY_SIZE)
    elif kind == PLACE:
        if move["tile"] not in (TAKEN, STORED):
            raise _bad('\'tile\' must be "taken" or "stored".')
        pair(move["anchor"], "anchor", data.BOARD_SIZE - 1)
        if not _is_int(move["rotation"]) or move["rotation"] not in data.ROTATIONS:
            raise _bad("'rotation' must be 0, 1, 2 or 3.")
        if not _is_int(move["level"]) or not 1 <= move["level"] <= 64:
            raise _bad("'level' must be a positive integer.")
        corner = move["open_corner"]
        if corner is not None and (not _is_int(corner) or corner not in range(4)):
            raise _bad("'open_corner' must be null or 0..3.")
    elif kind == DECORATE:
        if not isinstance(move["kind"], str) or move["kind"] not in data.DECORATIONS:
            raise _bad(f"'kind' must be one of {list(data.DECORATIONS)}.")
        cells = move["cells"]
        size = 1 if move["kind"] == "statue" else 2
        if not isinstance(cells, list) or len(cells) != size:
            raise _bad(f"A {move['kind']} needs {size} cell(s).")
        for c in cells:
            pair(c, "cells", data.BOARD_SIZE)
    elif kind == SET_SYMBOL:
        pair(move["cell"], "cell", data.BOARD_SIZE)
        if move["symbol"] not in data.SYMBOLS:
            raise _bad(f"'symbol' must be one of {list(data.SYMBOLS)}.")
    elif move["taken"] not in (STORE, DISCARD, None):
        raise _bad('\'taken\' must be "store", "discard" or null.')
    return kind


def _is_int(value: Any) -> bool:
    return type(value) is int


def pair(value: Any, name: str, size: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(_is_int(v) and 0 <= v < size for v in value)
    ):
        raise _bad(f"{name!r} must be [x, y] with x and y in 0..{size - 1}.", key=name)
    return value[0], value[1]
