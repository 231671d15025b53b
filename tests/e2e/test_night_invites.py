"""Issue 33, items 3 and 4 in a real browser, at 1280 and 390 px: a host schedules a night and
invites a member by searching for her, the member joins (the host is told), the host cancels
after confirming, and each participant is told what happened to them."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from accounts.models import Notification
from games.models import GameNight
from tests.conftest import make_user
from tests.e2e.test_play import logged_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def latest_text(user: Any) -> str:
    note = Notification.objects.filter(user=user).order_by("-number").first()
    with translation.override("en"):
        return note.text if note else ""


@pytest.mark.parametrize("width", [1280, 390])
def test_invite_by_search_join_and_cancel(asgi_server: str, new_page: Any, width: int) -> None:
    alice = make_user("alice", display_name="Alice")
    zofia = make_user("zofia", display_name="Zofia Łukasiewicz", language="pl")
    carol = make_user("carol", display_name="Carol")
    for n in range(30):
        make_user(f"member{n:02d}", display_name=f"Member {n}")
    when = (timezone.now() + timedelta(hours=3)).astimezone(ZoneInfo(alice.time_zone))
    viewport = {"width": width, "height": 844}

    host = logged_in_page(new_page, asgi_server, alice, viewport=viewport)
    host.goto(f"http://{asgi_server}/games/nights/new/")
    host.select_option("#id_engine_slug", "babylon")
    host.select_option("#id_players", "3")
    host.fill("#id_day", when.strftime("%Y-%m-%d"))
    host.fill("#id_clock", when.strftime("%H:%M"))
    assert host.locator("#invite-choices input").count() == 0  # no wall of checkboxes
    for query, member in (("lukas", zofia), ("car", carol)):
        host.fill("#invite-q", query)
        box = host.locator(f'#invite-choices input[value="{member.pk}"]')
        box.wait_for()
        box.check()
    host.fill("#invite-q", "member1")
    host.locator("#invite-choices label", has_text="Member 10").wait_for()
    assert host.locator("#invite-choices input:checked").count() == 2  # still ticked
    host.get_by_role("button", name="Schedule").click()
    host.wait_for_url(re.compile(r"/games/nights/\d+/$"))
    night = GameNight.objects.get()
    assert set(night.invited.values_list("username", flat=True)) == {"zofia", "carol"}

    guest = logged_in_page(new_page, asgi_server, zofia, viewport=viewport)
    guest.goto(f"http://{asgi_server}{night.get_absolute_url()}")
    guest.get_by_role("button", name="Dołącz do wieczoru gier").click()
    guest.wait_for_selector("#night-players >> text=Zofia")
    assert latest_text(alice).startswith("Zofia Łukasiewicz joined your Babylon game night")

    host.goto(f"http://{asgi_server}{night.get_absolute_url()}")
    host.get_by_role("button", name="Cancel the game night").click()
    host.locator("#confirm-cancel").wait_for()
    night.refresh_from_db()
    assert night.status == GameNight.Status.SCHEDULED  # not before the host confirms
    host.get_by_role("button", name="Yes, cancel the game night").click()
    host.locator("#night-status", has_text="Cancelled").wait_for()
    night.refresh_from_db()
    assert night.status == GameNight.Status.CANCELLED
    assert latest_text(zofia).endswith("that you had joined.")
    assert latest_text(carol).endswith("that you were invited to.")
    assert host.errors == [] and guest.errors == []
