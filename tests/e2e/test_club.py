"""Issue 19 item 5 in a real browser: the club page's lists follow the lobby socket's hints."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_live_notices import COUNT_SOCKETS
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page
from tests.games.conftest import build_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_game_that_starts_appears_among_the_running_games_without_a_reload(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    page = logged_in_page(new_page, asgi_server, alice)
    page.add_init_script(COUNT_SOCKETS)
    page.goto(f"http://{asgi_server}/")
    page.wait_for_function("() => window.opened && window.opened['lobby-live']")
    page.evaluate("window.stillTheSamePage = true")
    assert page.locator("#club-running [data-game]").count() == 0

    started: list[Game] = []
    in_another_thread(lambda: started.append(build_game(bob, "easy", seed=5)))
    game = started[0]
    page.wait_for_selector(f'#club-running [data-game="{game.pk}"]', timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("window.stillTheSamePage") is True
