"""A server process renews its game sockets' open pages together (games/consumers.py,
`renew_pages`): every page it holds is marked as still open, so the member is not sent "your
turn" while one is (games/services/notices.py); a socket whose session no longer signs its
member in (the session ended while its message was lost) is closed, as a page's request would
be signed out; and each session is looked up once, however many of its sockets are open."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.consumers import renew_pages
from games.models import OpenPage
from tests.conftest import make_user
from tests.games.conftest import build_game

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(minutes=10)


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def open_page(game: Any, user: Any, session_key: str | None, channel: str) -> Any:
    """A game socket as the renewal sees it: its page, and the session it was opened in."""
    OpenPage.objects.create(
        game=game, user=user, channel=channel, seen_at=timezone.now() - LONG_AGO
    )
    return SimpleNamespace(page_key=channel, session_key=session_key, session_user_id=user.pk)


def seen_lately(channel: str) -> bool:
    return OpenPage.objects.get(channel=channel).seen_at > timezone.now() - timedelta(minutes=1)


def test_every_page_of_the_process_is_marked_open_and_no_other() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = build_game(alice, bob)
    alices = session_of(alice)
    sockets = [
        open_page(game, alice, alices, "alice-tab-1"),
        open_page(game, alice, alices, "alice-tab-2"),
        open_page(game, bob, session_of(bob), "bob-tab"),
    ]
    open_page(game, bob, session_of(bob), "another-server")

    assert renew_pages(sockets) == []

    assert all(seen_lately(channel) for channel in ("alice-tab-1", "alice-tab-2", "bob-tab"))
    assert not seen_lately("another-server")


def test_a_socket_whose_session_ended_unannounced_is_closed() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = build_game(alice, bob)
    client = Client()
    client.force_login(alice)
    alices = client.cookies[settings.SESSION_COOKIE_NAME].value
    alice_socket = open_page(game, alice, alices, "alice-tab")
    bob_socket = open_page(game, bob, session_of(bob), "bob-tab")
    client.session.flush()  # the session is gone, and no message said so

    ended = renew_pages([alice_socket, bob_socket])

    assert ended == [alice_socket]


def test_a_socket_opened_without_a_session_is_closed() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = build_game(alice, bob)
    socket = open_page(game, alice, None, "alice-tab")

    assert renew_pages([socket]) == [socket]


def test_one_update_for_all_pages_and_one_look_per_session(django_assert_num_queries) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = build_game(alice, bob)
    alices = session_of(alice)
    sockets = [open_page(game, alice, alices, f"alice-tab-{n}") for n in range(5)]

    # The UPDATE, then the session and its member, read once for its five sockets.
    with django_assert_num_queries(3):
        assert renew_pages(sockets) == []


def test_a_failed_renewal_is_logged_and_tried_again(monkeypatch: Any, caplog: Any) -> None:
    """A database hiccup must not end the process's renewals, nor pass unseen."""
    import asyncio

    from games import consumers

    calls: list[int] = []

    def renew(sockets: list[Any]) -> list[Any]:
        calls.append(len(sockets))
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return []

    monkeypatch.setattr(consumers, "PAGE_RENEW_SECONDS", 0.01)
    monkeypatch.setattr(consumers, "renew_pages", renew)

    async def run() -> None:
        renewals = consumers.PageRenewals()
        renewals.sockets.add(object())  # type: ignore[arg-type]
        task = asyncio.create_task(renewals._renew())
        while len(calls) < 2:
            await asyncio.sleep(0.01)
        task.cancel()

    with caplog.at_level("ERROR", logger="games.consumers"):
        asyncio.run(asyncio.wait_for(run(), 5))

    assert calls[:2] == [1, 1]
    assert "Renewing 1 open pages failed" in caplog.text
