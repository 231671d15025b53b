"""Hand-built Akropolis positions, through the documented state JSON (state.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.akropolis import ENGINE
from games.engines.akropolis.state import PLACE, State

START = {(0, 0): "H", (0, -1): "q", (1, 0): "q", (-1, 1): "q"}


def cells(layout: dict[tuple[int, int], str]) -> list[dict[str, Any]]:
    """A city from {(q, r): hex codes bottom to top}; every hex gets a tile id of its own,
    so the two-tiles support rule never gets in the way of a scoring position."""
    result = []
    tile = 100
    for (q, r), codes in layout.items():
        stack = []
        for code in codes:
            tile += 1
            stack.append([code, tile])
        result.append({"q": q, "r": r, "stack": stack})
    return result


def position(
    *layouts: dict[tuple[int, int], str],
    stones: list[int] | None = None,
    variants: list[str] | None = None,
    **options: Any,
) -> State:
    """A scoring position: one city per layout, game over, stones default to 0."""
    return ENGINE.load(
        {
            "players": len(layouts),
            "stones": stones if stones is not None else [0] * len(layouts),
            "cities": [cells(layout) for layout in layouts],
            "options": {"variants": variants or [], **options},
        }
    )


def solo_game(stones: int = 0) -> State:
    """One player with only the starting tile, and two spare tiles on the site so that
    placing a tile never ends the round."""
    return ENGINE.load(
        {
            "players": 1,
            "stones": [stones],
            "cities": [
                [
                    {"q": 0, "r": 0, "stack": [["H", 0]]},
                    {"q": 0, "r": -1, "stack": [["q", 0]]},
                    {"q": 1, "r": 0, "stack": [["q", 0]]},
                    {"q": -1, "r": 1, "stack": [["q", 0]]},
                ]
            ],
            "site": [60, 61],
        }
    )


def place(state: State, tile: int, q: int, r: int, k: int) -> State:
    """Seat 0 places `tile` with hex A at (q, r), rotation k, as if it had just taken it."""
    ready = replace(state, phase=PLACE, taken=tile, current=0)
    return ENGINE.apply_move(ready, 0, {"type": "place_tile", "q": q, "r": r, "rotation": k})


def visible(state: State, seat: int = 0) -> dict[tuple[int, int], tuple[str, int]]:
    """(q, r) -> (top hex code, level), read from the public view."""
    city = ENGINE.view(state, None)["cities"][seat]
    return {(c["q"], c["r"]): (c["top"], c["level"]) for c in city}
