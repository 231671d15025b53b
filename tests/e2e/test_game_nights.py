"""Issue 19 item 8 in a real browser: a member schedules a game night, a second member joins
it from the club page, and at the time it starts with a bot in the third seat."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games import services
from games.models import GameNight
from tests.conftest import make_user
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_schedule_a_game_night_join_it_and_see_it_start_with_a_bot(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    # A time to come, in alice's time zone (the club's: Europe/Budapest), to the minute.
    when = (timezone.now() + timedelta(hours=2)).astimezone(ZoneInfo(alice.time_zone))

    host = logged_in_page(new_page, asgi_server, alice)
    host.goto(f"http://{asgi_server}/")
    host.get_by_role("link", name="Schedule a game night").click()
    host.select_option("#id_engine_slug", "babylon")
    host.select_option("#id_players", "3")
    host.fill("#id_day", when.strftime("%Y-%m-%d"))
    host.fill("#id_clock", when.strftime("%H:%M"))
    host.select_option("#id_bot_level", "easy")
    host.get_by_role("button", name="Schedule").click()
    host.wait_for_url(re.compile(r"/games/nights/\d+/$"))
    night = GameNight.objects.get()
    assert night.starts_at == when.replace(second=0, microsecond=0)

    # bob finds it on his club page and joins.
    guest = logged_in_page(new_page, asgi_server, bob)
    guest.add_init_script(
        'document.addEventListener("htmx:wsOpen", (e) => {'
        ' if (e.target.id === "live-notifications") { window.noticesOpen = true; } });'
        'document.addEventListener("htmx:afterSettle", (e) => {'
        ' if (e.target.id === "club-refresh") { window.clubRefreshed = true; } })'
    )
    guest.goto(f"http://{asgi_server}/")
    # The club page draws itself again once its live socket opens: the link is clicked in the
    # page as it then stands, not in the one being replaced (under load, the click was lost).
    guest.wait_for_function("() => window.clubRefreshed === true", timeout=TURN_TIMEOUT_MS)
    guest.locator(f'#club-nights [data-night="{night.pk}"] a').first.click()
    guest.get_by_role("button", name="Join the game night").click()
    guest.wait_for_selector("#night-players >> text=Bob")
    guest.wait_for_function("() => window.noticesOpen === true")

    # The time comes: the beat task's run at that instant starts the game.
    in_another_thread(lambda: services.run_game_nights(now=night.starts_at))

    # bob is told, live, that it has begun, and the notice leads to the game.
    toast = guest.locator("#live-notifications .toast", has_text="The game night has begun")
    toast.wait_for(timeout=TURN_TIMEOUT_MS)
    toast.get_by_role("link").click()
    guest.wait_for_url(re.compile(r"/games/\d+/$"))
    third = guest.locator("#bab-garden-2 figcaption strong")
    third.wait_for()
    assert third.inner_text() == "Easy bot"
    assert guest.locator("#bab-garden-0 figcaption strong").inner_text() == "Alice"
    assert guest.locator("#bab-garden-1 figcaption strong").inner_text() == "Bob"
