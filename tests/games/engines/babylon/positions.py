"""Hand-built Babylon positions, written through the documented state JSON (state.py)."""

from __future__ import annotations

import copy
from typing import Any

from games.engines.babylon import ENGINE
from games.engines.babylon.state import State

# Spec §4.2: corner k of a tile shows printed field (k - r) mod 4.
PRINTED = {
    # The few tiles the tests use, copied from spec §3.3 (fields 0-1-2-3).
    "B02": "SBTF",
    "B05": "SBFT",
    "B10": "SFTB",
    "C02": "BT--",
    "C04": "F-T-",
    "C06": "B-T-",
    "C07": "SB--",
    "C08": "FT--",
    "C11": "ST--",
    "C14": "FT--",
    "C15": "S-T-",
    "G05": "BTF-",
}


def corner_symbols(tile: str, rotation: int) -> str:
    fields = PRINTED[tile]
    return "".join(fields[(k - rotation) % 4] for k in range(4))


def rotation_with(tile: str, symbol: str, corner: int) -> int:
    """The rotation that puts the tile's `symbol` on board corner `corner`."""
    (rotation,) = [r for r in range(4) if corner_symbols(tile, r)[corner] == symbol]
    return rotation


def tile(tile_id: str, x: int, y: int, level: int, rotation: int = 0, **extra: Any) -> dict:
    return {"tile": tile_id, "x": x, "y": y, "rotation": rotation, "level": level, **extra}


def board(
    tiles: list[dict] | None = None,
    pieces: list[dict] | None = None,
    stored: str | None = None,
    singles: int = 0,
) -> dict[str, Any]:
    return {"tiles": tiles or [], "pieces": pieces or [], "stored": stored, "singles": singles}


def piece(kind: str, *at: tuple[int, int, int]) -> dict[str, Any]:
    return {"kind": kind, "at": [list(p) for p in at]}


def scoring_position(*boards: dict[str, Any], flowers: list[str] | None = None) -> State:
    """A finished game with the given boards (one per seat)."""
    payload: dict[str, Any] = {"players": max(len(boards), 2), "boards": list(boards)}
    if len(boards) == 1:
        payload["boards"].append(board())
    if flowers:
        payload["flowers"] = flowers
    return ENGINE.load(payload)


def building(
    garden: dict[str, Any],
    *,
    taken: str | None,
    placed: list[int] | None = None,
    doubles: int = 0,
    revealed: list[str] | None = None,
    flowers: list[str] | None = None,
    taken_placed: bool = False,
    symbol_used: bool = False,
) -> State:
    """Seat 0 in the build step of its turn, with `garden` as its board."""
    payload: dict[str, Any] = {
        "players": 2,
        "boards": [copy.deepcopy(garden), board()],
        "phase": "build",
        "current": 0,
        "revealed": revealed or [],
        "tokens": ["none"],
        "turn": {
            "taken": taken,
            "taken_placed": taken_placed,
            "placed": placed or [],
            "doubles": doubles,
            "symbol_used": symbol_used,
        },
    }
    if flowers:
        payload["flowers"] = flowers
    return ENGINE.load(payload)


def place_move(
    x: int, y: int, level: int, rotation: int = 0, open_corner: int | None = None, which="taken"
) -> dict[str, Any]:
    return {
        "type": "place",
        "tile": which,
        "x": x,
        "y": y,
        "rotation": rotation,
        "level": level,
        "open_corner": open_corner,
    }


def decorate(kind: str, *cells: tuple[int, int]) -> dict[str, Any]:
    """The decorate move for `cells`, the west or north end first."""
    (x, y), *rest = cells
    toward = None
    if rest:
        ((x2, y2),) = rest
        toward = "east" if y2 == y else "south"
    return {"type": "decorate", "kind": kind, "x": x, "y": y, "toward": toward}


def next_tile(state: State, tile_id: str, singles: int, doubles: int = 0) -> State:
    """The same board at seat 0's next turn: it has just dug `tile_id` and holds a fresh
    pool; nothing is placed yet this turn."""
    payload = ENGINE.dump(state)
    payload["boards"][0]["singles"] = singles
    payload["turn"] = {
        "taken": tile_id,
        "taken_placed": False,
        "placed": [],
        "doubles": doubles,
        "symbol_used": False,
    }
    return ENGINE.load(payload)


def same_turn_tile(state: State, tile_id: str) -> State:
    """Seat 0 holds `tile_id` as a further tile to build in the same turn (a test's
    shortcut: a real turn builds at most the taken and the stored tile)."""
    payload = ENGINE.dump(state)
    payload["turn"].update(taken=tile_id, taken_placed=False)
    return ENGINE.load(payload)


def cells_of(state: State, seat: int = 0) -> list[dict[str, Any]]:
    return ENGINE.dump(state)["boards"][seat]["pieces"]
