"""A member's move that fails on the way (the server answers 500 or 403, or nothing comes back)
is not silently dropped: the page says what happened, in the member's language, and the member's
next action clears the notice and goes through (static/js/site.js, templates/base.html).

Without the notice, htmx swaps nothing for a failed request, and the click seemed ignored.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import services
from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_play import logged_in_page, version, wait_for_version
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SERVER = (
    "Something went wrong at the club: this was not done, or its answer was lost. Please try "
    "again in a moment; if the page looks out of date, reload it."
)
OFFLINE = (
    "The club could not be reached, so this may not have arrived. Check your connection and "
    "try again."
)
REFUSED = (
    "The club refused this, perhaps because your session has ended. Reload the page, and sign "
    "in again if asked."
)
MOVES = "**/games/*/move/"


def texts(language: str) -> dict[str, str]:
    with translation.override(language):
        return {"server": gettext(SERVER), "offline": gettext(OFFLINE), "refused": gettext(REFUSED)}


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_a_failed_move_is_told_and_the_next_one_goes_through(
    asgi_server: str, new_page: Any, language: str
) -> None:
    said = texts(language)
    if language != "en":
        assert said["server"] != SERVER  # translated
    alice = make_user("alice", display_name="Alice", language=language)
    bob = make_user("bob", display_name="Bob")
    game = waiting_game(alice, seed=7)
    services.join_seat(game_id=game.pk, user=bob)
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector('#game-board[data-version="0"]')
    notice = page.locator("#request-failed")
    assert notice.is_hidden()
    take = page.locator("button.site-tile.can-take").first

    for when, answer in [
        ("server", lambda route: route.fulfill(status=500, body="")),
        ("refused", lambda route: route.fulfill(status=403, body="")),
        ("offline", lambda route: route.abort("connectionrefused")),
    ]:
        page.route(MOVES, answer)
        take.click()
        notice.wait_for(state="visible")
        assert notice.inner_text().strip() == said[when]
        # It never takes a click meant for what lies beneath it.
        box = notice.bounding_box()
        assert box is not None
        hit = "([x, y]) => document.elementFromPoint(x, y).closest('#request-failed') === null"
        assert page.evaluate(hit, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        page.unroute(MOVES)
        assert version(page) == 0
    assert not Game.objects.get(pk=game.pk).moves.exists()

    # The server answers again: the next click hides the notice and the move is made.
    take.click()
    wait_for_version(page, 1)
    assert notice.is_hidden()
    assert Game.objects.get(pk=game.pk).moves.count() == 1
    assert page.errors == []
