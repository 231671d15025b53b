"""Hand-built Tower of Babel positions, through the documented state JSON (state.py).

Seats in the spec's examples: Red 0 (the active player), Yellow 1, Green 2, Blue 3.
"""

from __future__ import annotations

from typing import Any

from games.engines.tower_of_babel import ENGINE
from games.engines.tower_of_babel.state import State

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3

# Disc ids (data.py): 1-6 camel 3,4,4,5,5,6; 7-12 crane; 13-18 ship; 19-24 stonemason;
# 25-28 the two-type discs D1-D4.
CAMEL_3, CAMEL_4, CAMEL_5 = 1, 2, 4
CRANE_4, CRANE_6 = 8, 12
SHIP_3, SHIP_5 = 13, 16
STONEMASON_3, STONEMASON_4 = 19, 20
D1, D2, D3, D4 = 25, 26, 27, 28

# A board on which every type stays available: wonder w holds one disc of each of three
# types, and no wonder is complete.
FULL_BOARD = [
    [1, 7, 13],
    [2, 8, 14],
    [3, 9, 15],
    [4, 10, 19],
    [5, 11, 20],
    [6, 17, 21],
    [12, 18, 22],
    [16, 23, 24],
]


def offer(
    cards: dict[str, int] | None = None, trading: bool = False, bonus: bool = False
) -> dict[str, Any]:
    return {"cards": cards or {}, "trading_card": trading, "offer_bonus": bonus}


def position(players: int = 4, **fields: Any) -> State:
    """A position from state-JSON fields; unlisted fields are a quiet game in progress:
    the full board above, empty hands, a deck of 40 cards in a known order."""
    payload: dict[str, Any] = {
        "players": players,
        "wonders": [list(w) for w in FULL_BOARD],
        "units": [[0] * players for _ in FULL_BOARD],
        "deck": ["camel", "crane", "ship", "stonemason"] * 10,
    }
    payload.update(fields)
    return ENGINE.load(payload)


def resolving(
    disc: int,
    offers: dict[int, dict[str, Any]],
    *,
    wonder: int = 8,
    players: int = 4,
    **fields: Any,
) -> State:
    """Red's build of `disc` on `wonder` with every offer revealed (the resolve step).
    `offers` maps seats to offers; other seats offered nothing. The disc is put on the
    wonder (in place of that wonder's first disc) if it is not there yet."""
    wonders = [list(w) for w in fields.pop("wonders", FULL_BOARD)]
    if disc not in wonders[wonder - 1]:
        for w in wonders:
            if disc in w:
                w.remove(disc)
        wonders[wonder - 1][0:1] = [disc]
    all_offers: list[dict[str, Any] | None] = [
        None if seat == RED else offers.get(seat, offer()) for seat in range(players)
    ]
    return position(
        players,
        phase="resolve",
        wonders=wonders,
        build={"wonder": wonder, "disc": disc, "offers": all_offers, "waiting": []},
        **fields,
    )


def offering(disc: int, *, wonder: int = 8, players: int = 4, **fields: Any) -> State:
    """Red's build of `disc` on `wonder`, with every other player still to offer."""
    state = resolving(disc, {}, wonder=wonder, players=players, **fields)
    payload = ENGINE.dump(state)
    payload["phase"] = "offers"
    payload["build"]["offers"] = [None] * players
    payload["build"]["waiting"] = [(RED + k) % players for k in range(1, players)]
    return ENGINE.load(payload)


def play(state: State, seat: int, move_type: str, **keys: Any) -> State:
    return ENGINE.apply_move(state, seat, {"type": move_type, **keys})


def hand(state: State, seat: int) -> dict[str, int]:
    return ENGINE.dump(state)["hands"][seat]


def points(state: State, seat: int) -> dict[str, int]:
    return ENGINE.scores(state)["breakdown"][seat]
