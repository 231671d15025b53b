"""Practice from one's own mistakes in a real browser, in Hungarian: from the review of a
finished game, "Try this position again" opens an unrated practice game at that decision,
with the member to move."""

from __future__ import annotations

from typing import Any

import pytest

from games import engines, services
from games.models import Game, Review
from tests.conftest import make_user
from tests.e2e.test_play import in_another_thread, logged_in_page
from tests.games.conftest import build_game, play_random_moves, state_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def finished_and_reviewed(alice: Any, bob: Any) -> dict[str, Any]:
    """A finished game of Alice and Bob with a review stored as a worker stores one, in which
    Alice's first take of the second round cost her 4 points."""
    game = play_random_moves(build_game(alice, bob, engine="akropolis", seed=5))
    assert game.status == Game.Status.FINISHED
    decisions = []
    for move in game.moves.order_by("number"):
        decisions.append(
            {
                "number": move.number + 1,
                "seat": move.seat,
                "move": move.payload,
                "best": move.payload,
                "value": 0.0,
                "best_value": 0.0,
                "cost": 0.0,
                "iterations": 2,
                "mark": "none",
            }
        )
    costly = next(d for d in decisions if d["seat"] == 0 and d["number"] > 4)
    costly.update(value=-1.0, best_value=3.0, cost=4.0, mark="large")
    Review.objects.create(
        game=game,
        status=Review.Status.DONE,
        total=len(decisions),
        progress=len(decisions),
        iterations=2,
        decisions=decisions,
    )
    return {"game": game, "number": costly["number"]}


def test_try_this_position_again_opens_a_practice_game_with_the_member_to_move(
    asgi_server: str, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice", language="hu")
    bob = make_user("bob", display_name="Bob")
    found: dict[str, Any] = {}
    in_another_thread(lambda: found.update(finished_and_reviewed(alice, bob)))
    game, number = found["game"], found["number"]
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/replay/")
    # The costliest decision of Alice's is listed with its button; Bob's seat has none.
    mine = page.locator(f'.review-summary[data-seat="0"] li:has(a[href*="move={number}"])')
    assert page.locator('.review-summary[data-seat="1"] .practice-form').count() == 0
    mine.get_by_label("A gépi ellenfelek szintje").select_option("easy")
    mine.get_by_role("button", name="Próbáld újra ezt az állást").click()
    page.wait_for_selector("#game-board[data-my-turn]")
    practice = Game.objects.exclude(pk=game.pk).get()
    assert page.url.rstrip("/").endswith(f"/games/{practice.pk}")
    assert "Gyakorlás" in page.inner_text("h1")
    assert page.locator(".turn-bar .your-turn").inner_text() == "Te jössz."
    assert not practice.rated
    assert practice.seats.get(position=1).bot_level == "easy"
    engine = engines.get("akropolis")
    seen = services.view_for(game=game, seat=0, number=number - 1)
    assert engine.view(state_of(practice), 0) == seen
    assert page.errors == []
