"""The notifications page, the badge on every page and marking read (issue 10, defect 2)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import Notification, User
from accounts.routing import websocket_urlpatterns
from tests.conftest import make_user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def badge_in(html: str) -> tuple[int, int, bool]:
    """(newest number, unread count, hidden) of the badge in a page or fragment."""
    match = re.search(r'<span class="badge" id="notifications-count"([^>]*)>(\d+)</span>', html)
    assert match, "the page has the badge"
    number = re.search(r'data-number="(\d+)"', match.group(1))
    assert number
    return int(number.group(1)), int(match.group(2)), " hidden" in match.group(1)


def test_each_member_numbers_their_own_notifications(alice: User, bob: User) -> None:
    first = services.notify(user=alice, message="one")
    services.notify(user=bob, message="for bob")
    second = services.notify(user=alice, message="two")
    assert (first.number, second.number) == (1, 2)
    assert Notification.objects.get(user=bob).number == 1


def test_every_page_shows_the_unread_count_and_the_newest_number(alice: User) -> None:
    client = client_for(alice)
    assert badge_in(client.get(reverse("home")).content.decode()) == (0, 0, True)
    services.notify(user=alice, message="Bob joined your game")
    services.notify(user=alice, message="It is your turn")
    assert badge_in(client.get(reverse("games:lobby")).content.decode()) == (2, 2, False)


def test_reading_the_notifications_page_marks_nothing_read(alice: User) -> None:
    services.notify(user=alice, message="It is your turn")
    page = client_for(alice).get(reverse("accounts:notifications")).content.decode()
    assert "It is your turn" in page
    assert Notification.objects.get(user=alice).read_at is None
    assert badge_in(page)[1] == 1


def test_a_post_marks_read_what_the_page_showed_and_no_later_one(alice: User) -> None:
    services.notify(user=alice, message="shown")
    client = client_for(alice)
    page = client.get(reverse("accounts:notifications")).content.decode()
    assert 'name="upto" value="1"' in page
    services.notify(user=alice, message="arrived after the page was drawn")
    response = client.post(reverse("accounts:notifications-read"), {"upto": "1"})
    assert response.status_code == 302
    unread = Notification.objects.filter(user=alice, read_at__isnull=True)
    assert [n.message for n in unread] == ["arrived after the page was drawn"]


def test_marking_read_needs_a_post(alice: User) -> None:
    services.notify(user=alice, message="It is your turn")
    response = client_for(alice).get(reverse("accounts:notifications-read"))
    assert response.status_code == 405
    assert Notification.objects.get(user=alice).read_at is None


def test_a_member_marks_only_their_own_notifications_read(alice: User, bob: User) -> None:
    services.notify(user=bob, message="for bob")
    client_for(alice).post(reverse("accounts:notifications-read"), {"upto": "1"})
    assert Notification.objects.get(user=bob).read_at is None


def test_the_badge_over_http_for_a_page_that_reconnects(alice: User) -> None:
    services.notify(user=alice, message="one")
    services.notify(user=alice, message="two")
    services.mark_read(user=alice, upto=1)
    response = client_for(alice).get(reverse("accounts:notifications-badge"))
    assert response.status_code == 200
    assert badge_in(response.content.decode()) == (2, 1, False)
    assert "<html" not in response.content.decode()


# --- live ---------------------------------------------------------------------------------------

APP = URLRouter(websocket_urlpatterns)


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_the_notice_and_the_badge_with_its_number() -> None:
    from asgiref.sync import sync_to_async

    alice = await sync_to_async(make_user)("alice")
    socket = WebsocketCommunicator(APP, "/ws/notifications/")
    socket.scope["user"] = alice
    assert (await socket.connect())[0]
    try:
        await sync_to_async(services.notify)(user=alice, message="It is your turn")
        message = await socket.receive_from(timeout=10)
        assert badge_in(message) == (1, 1, False)
        assert 'hx-swap-oob="outerHTML"' in message  # the badge replaces the page's badge
        assert "It is your turn" in message
        await sync_to_async(services.mark_read)(user=alice, upto=1)
        assert badge_in(await socket.receive_from(timeout=10)) == (1, 0, True)
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()


def test_a_notice_is_stored_even_when_the_channel_layer_fails(
    alice: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from accounts import broadcast

    class BrokenLayer:
        async def group_send(self, group: str, message: dict) -> None:
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: BrokenLayer())
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(user=alice, message="It is your turn")
    assert Notification.objects.get(user=alice).message == "It is your turn"
