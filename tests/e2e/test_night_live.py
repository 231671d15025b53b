"""Issue 33, item 3 in a real browser: a member's night page, open when the night starts,
turns into the game's link and shows the table as it is (the bot in the seat nobody took)
without a reload, at 1280 and 390 px."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from tests.conftest import make_user
from tests.e2e.test_live_notices import COUNT_SOCKETS
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_night_page_open_at_the_start_turns_into_the_games_link(
    asgi_server: str, new_page: Any, width: int
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    night = services.schedule_night(
        host=alice,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(hours=2),
        bot_level="easy",
        invited=[bob],
    )
    services.join_night(night_id=night.pk, user=bob)
    page = logged_in_page(new_page, asgi_server, bob, viewport={"width": width, "height": 844})
    page.add_init_script(COUNT_SOCKETS)
    page.goto(f"http://{asgi_server}{night.get_absolute_url()}")
    page.wait_for_function("() => window.opened && window.opened['night-live']")
    page.evaluate("window.stillTheSamePage = true")
    assert page.locator("#night-game").count() == 0
    assert page.locator("#night-players li", has_text="Open seat").count() == 1

    in_another_thread(lambda: services.run_game_nights(now=night.starts_at))

    link = page.locator("#night-game")
    link.wait_for(timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("window.stillTheSamePage") is True
    night.refresh_from_db()
    assert link.get_attribute("href") == night.game.get_absolute_url()
    players = page.locator("#night-players li")
    assert players.count() == 3
    assert page.locator("#night-players li", has_text="Open seat").count() == 0
    assert page.locator("#night-players li", has_text="Easy bot").count() == 1
    assert page.get_by_role("button", name="Leave").count() == 0
    link.click()
    page.wait_for_url(f"**{night.game.get_absolute_url()}")
    assert page.errors == []


def test_the_night_form_offers_the_chosen_games_player_counts(
    asgi_server: str, new_page: Any
) -> None:
    """Issue 33, item 4: the night form offered 2-5 players for every game."""
    from games import engines

    alice = make_user("alice", display_name="Alice")
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/nights/new/")
    for engine in engines.all():
        page.select_option("#id_engine_slug", engine.slug)
        offered = page.eval_on_selector_all("#id_players option", "os => os.map(o => o.value)")
        expected = [str(n) for n in range(engine.min_players, engine.max_players + 1)]
        assert offered == expected, engine.slug
    assert page.errors == []
