"""Hand-built Hanging Gardens positions, through the documented state JSON (state.py).

Gardens use the spec's fixture notation (games/hanging-gardens.md §6): rows from the top,
the first row at `y`, character i of a row at x = i (plus `x`); a space is the table, "."
a building space, T P A F the motifs.
"""

from __future__ import annotations

from typing import Any

from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.state import State

# A full face-up display, one kind per slot: columns 1..3, [top, bottom].
TILE_DISPLAY = [["queen", "king"], ["tiger", "garden"], ["statue", "chalice"]]
SUPPLY = ["gate", "gate", "chalice", "chalice", "tiger"]


def garden(*rows: str, x: int = 0, y: int = 0, temples: tuple[tuple[int, int], ...] = ()) -> dict:
    return {"x": x, "y": y, "rows": list(rows), "temples": [list(t) for t in temples]}


START = garden("..", "..", "..")


def position(
    own: dict,
    *,
    display: list[int],
    players: int = 2,
    others: list[dict] | None = None,
    deck: list[int] | None = None,
    tile_display: list[list[str | None]] | None = None,
    supply: list[str] | None = None,
    turn: int = 0,
    **extra: Any,
) -> State:
    """Seat 0 (the start player, turn 0 of round 1 unless told) to move in the place phase
    with garden `own` and the building cards `display` face up."""
    if deck is None:
        deck = [c for c in range(1, 61) if c not in display][:8]
    return ENGINE.load(
        {
            "players": players,
            "deck": deck,
            "display": display,
            "gardens": [own, *(others or [START] * (players - 1))],
            "supply": SUPPLY if supply is None else supply,
            "tile_display": TILE_DISPLAY if tile_display is None else tile_display,
            "turn": turn,
            **extra,
        }
    )


def place(card: int, rotation: int, x: int, y: int) -> dict:
    return {"type": "place_card", "card": card, "rotation": rotation, "x": x, "y": y}


def temple(x: int, y: int) -> dict:
    return {"type": "place_temple", "x": x, "y": y}


def move_temple(x: int, y: int, from_x: int, from_y: int) -> dict:
    return {"type": "move_temple", "x": x, "y": y, "from_x": from_x, "from_y": from_y}


def take(column: int, slot: int) -> dict:
    return {"type": "take_tile", "column": column, "slot": slot}


SKIP = {"type": "skip_scoring"}


def top(state: State, seat: int = 0) -> dict[tuple[int, int], str]:
    """The seat's garden as {(x, y): top square}."""
    dumped = ENGINE.dump(state)["gardens"][seat]
    return {
        (dumped["x"] + dx, dumped["y"] + dy): square
        for dy, row in enumerate(dumped["rows"])
        for dx, square in enumerate(row)
        if square != " "
    }


def temples(state: State, seat: int = 0) -> set[tuple[int, int]]:
    return {tuple(t) for t in ENGINE.dump(state)["gardens"][seat]["temples"]}
