"""The last move of a board's `recent` list is marked on the board in every game, also when
the viewer played it: a hint's preview and the review's alternative end `recent` with the
viewer's own move (issue 32)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import boards, engines

NAMES = ["Anna", "Bence", "Csilla", "Dóra"]


def own_move_of_type(slug: str, move_type: str, seed: int = 1) -> tuple[Any, int, dict]:
    """A random game's position where the seat to move may play `move_type`."""
    engine = engines.get(slug)
    rng = random.Random(seed)
    state = engine.new_game(max(3, engine.min_players), seed)
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        moves = engine.legal_moves(state, seat)
        wanted = [m for m in moves if m["type"] == move_type]
        if wanted:
            return state, seat, rng.choice(wanted)
        state = engine.apply_move(state, seat, rng.choice(moves))
    raise AssertionError(f"no {move_type} in {slug}")


def drawn_after(slug: str, state: Any, seat: int, move: dict, *, in_recent: bool) -> dict:
    """The seat's own board after its `move`, with that move last in `recent` or not."""
    engine = engines.get(slug)
    after = engine.apply_move(state, seat, move)
    summary = boards.summarize(slug, engine.view(state, None), seat, move, engine.view(after, None))
    recent = [{"number": 1, "seat": seat, "type": move["type"], "summary": summary, "text": ""}]
    module = boards.get(slug)
    return module.board(engine.view(after, seat), NAMES, recent if in_recent else [])


def marked(drawing: dict) -> bool:
    """Whether the drawing marks a last move: a part of it flagged `last`, or a city picture
    drawn with the last move's outline (Akropolis keeps its cities as pictures)."""
    text = json.dumps(drawing, default=list)
    return '"last": true' in text or 'class=\\"last-move-outline\\"' in text


@pytest.mark.parametrize(
    ("slug", "move_type"),
    [
        ("babylon", "place"),
        ("babylon", "dig"),
        ("akropolis", "place_tile"),
        ("hanging-gardens", "place_card"),
    ],
)
def test_the_viewers_own_last_move_is_marked(slug: str, move_type: str) -> None:
    state, seat, move = own_move_of_type(slug, move_type)
    assert not marked(drawn_after(slug, state, seat, move, in_recent=False))
    assert marked(drawn_after(slug, state, seat, move, in_recent=True))


def test_akropolis_marks_the_tile_the_viewer_took() -> None:
    state, seat, move = own_move_of_type("akropolis", "take_tile")
    drawing = drawn_after("akropolis", state, seat, move, in_recent=True)
    assert drawing["last_taken"] is not None
    assert drawing["last_taken"]["name"] == NAMES[seat]


def test_tower_of_babel_marks_the_offers_the_viewer_took() -> None:
    engine = engines.get("tower-of-babel")
    state, seat, move = own_move_of_type("tower-of-babel", "accept")
    taking = [m for m in engine.legal_moves(state, seat) if m["type"] == "accept" and m["offers"]]
    move = taking[0] if taking else move
    drawing = drawn_after("tower-of-babel", state, seat, move, in_recent=True)
    rows = drawing["last_build"]["offers"]
    assert [r["name"] for r in rows if r["last"]] == [NAMES[s] for s in move["offers"]]
    assert any(w["marked"] for w in drawing["wonders"])
    plain = drawn_after("tower-of-babel", state, seat, move, in_recent=False)
    assert not any(r["last"] for r in plain["last_build"]["offers"])


def test_tower_of_babel_marks_the_viewers_offer() -> None:
    state, seat, move = own_move_of_type("tower-of-babel", "offer")
    drawing = drawn_after("tower-of-babel", state, seat, move, in_recent=True)
    if drawing["build"] is None:  # the last offer revealed them all and the build resolved
        pytest.skip("no offers panel after this offer")
    rows = [r for r in drawing["build"]["offers"] if r["last"]]
    assert [r["seat"] for r in rows] == [seat]
