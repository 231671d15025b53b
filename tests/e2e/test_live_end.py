"""The end of a live game in a real browser, in Hungarian (issue 32, "a live end"): a game
against a bot ends with the page open, and the header loses "Hint" and gains "Review this
game" without a reload; the review's costliest decision then names what differs between the
move made and the alternative."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engines, services
from games.models import Game, Review
from tests.conftest import make_user
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page, version
from tests.e2e.test_review import MOVES, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LEFT_FOR_THE_BROWSER = 4
# Akropolis, spec §2.3: taking the tile at index i of the construction site costs i stones.
TAKE = r"(az ingyenes lapkát|a \d kőbe kerülő lapkát)"


def review_with_another_take(game: Game) -> int:
    """A review stored as a worker stores one, whose costliest decision is one of Alice's
    takes, the alternative another tile of the same site. Returns its number."""
    engine = engines.get(game.engine_slug)
    decisions = []
    costly = None
    for move in game.moves.order_by("number"):
        entry = {
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
        if costly is None and move.seat == 0 and move.payload["type"] == "take_tile":
            state = services.state_at(game=game, number=move.number)
            other = next(
                m
                for m in engine.legal_moves(state, 0)
                if m["type"] == "take_tile" and m != move.payload
            )
            entry.update(best=other, best_value=5.0, cost=5.0, mark="large")
            costly = entry["number"]
        decisions.append(entry)
    Review.objects.create(
        game=game,
        status=Review.Status.DONE,
        total=len(decisions),
        progress=len(decisions),
        iterations=2,
        decisions=decisions,
    )
    assert costly is not None
    return costly


def test_a_game_against_a_bot_ends_live_with_the_review_button_and_no_hint(
    asgi_server: str, celery_worker_process: Any, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice", language="hu")
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=4,
    )
    in_another_thread(lambda: play_until(game, MOVES - LEFT_FOR_THE_BROWSER))
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#game-board[data-my-turn]", timeout=TURN_TIMEOUT_MS)
    actions = page.locator("#game-actions")
    assert actions.get_by_role("button", name="Tipp").count() == 1
    assert actions.get_by_role("button", name="A játszma elemzése").count() == 0
    page.evaluate("() => { window.notReloaded = true; }")
    # The member plays the last turns; the bot's last move ends the game over the socket.
    for _ in range(LEFT_FOR_THE_BROWSER):
        page.wait_for_selector(
            "#game-board[data-my-turn], #game-board .game-over", timeout=TURN_TIMEOUT_MS
        )
        if page.locator("#game-board .game-over").count():
            break
        number = version(page)
        if page.get_attribute("#game-board", "data-phase") == "take":
            page.locator("button.site-tile.can-take").first.click()
        else:
            page.locator("button.confirm-button").click()
        page.wait_for_function(
            f"() => Number(document.getElementById('game-board').dataset.version) > {number}",
            timeout=TURN_TIMEOUT_MS,
        )
    page.wait_for_selector("#game-board .game-over", timeout=TURN_TIMEOUT_MS)
    actions.get_by_role("button", name="A játszma elemzése").wait_for(timeout=TURN_TIMEOUT_MS)
    assert actions.get_by_role("button", name="Tipp").count() == 0
    assert page.locator("#hint:not([hidden])").count() == 0
    # The final table with its winner came with the same live board.
    page.wait_for_selector(".score-table.final .winner-badge", timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("() => window.notReloaded === true")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    # The costliest decision, in Hungarian: the move made and the alternative name different
    # tiles of the construction site.
    found: dict[str, int] = {}
    in_another_thread(lambda: found.update(number=review_with_another_take(game)))
    page.goto(f"http://{asgi_server}/games/{game.pk}/replay/?move={found['number']}")
    decision = page.inner_text(".review-decision")
    made = re.search(rf"Alice elvette {TAKE}", decision)
    better = re.search(rf"Jobb lett volna: Vedd el {TAKE}", decision)
    assert made is not None and better is not None, decision
    assert made.group(1) != better.group(1)
    assert page.errors == []
