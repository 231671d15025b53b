"""The hint in a real browser (issue 31 item 2, issue 32 item 1): the press answers at once,
the heavy worker computes the hint and the page shows it without a reload; after the member's
move (a new position) the hint is gone, again without a reload."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from tests.conftest import make_user
from tests.e2e.test_play import TURN_TIMEOUT_MS, logged_in_page, version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_hint_arrives_without_a_reload_and_goes_with_the_position(
    asgi_server: str, celery_workers: Any, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice")
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=3,
    )
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#game-board[data-my-turn]", timeout=TURN_TIMEOUT_MS)
    # The press posts the form and comes back to the game page, thinking; from then on the
    # page fetches the hint box by itself.
    page.locator("form.hint-form button").click()
    page.wait_for_selector("#hint .hint-thinking, #hint form", timeout=TURN_TIMEOUT_MS)
    page.evaluate("() => { window.notReloaded = true; }")
    page.wait_for_selector("#hint form", timeout=TURN_TIMEOUT_MS)
    assert "Hint from the hard bot" in page.inner_text("#hint")
    assert page.evaluate("() => window.notReloaded === true")
    # Taking a tile is a new position: the hint box goes when the board comes back.
    number = version(page)
    page.locator("button.site-tile.can-take").first.click()
    page.wait_for_function(
        f"() => Number(document.getElementById('game-board').dataset.version) > {number}",
        timeout=TURN_TIMEOUT_MS,
    )
    page.wait_for_function("() => !document.getElementById('hint')", timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("() => window.notReloaded === true")
