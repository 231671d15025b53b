"""Issue 10, defects 2 and 3 in a real browser: the notification badge on every page and the
lobby's lists update by themselves, and a badge whose socket dropped catches up over HTTP."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from accounts import services as accounts_services
from games import services
from tests.conftest import make_user
from tests.e2e.test_play import (
    TURN_TIMEOUT_MS,
    in_another_thread,
    join_in_another_thread,
    logged_in_page,
)
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

COUNT_SOCKETS = """document.addEventListener("htmx:wsOpen", (event) => {
  window.opened = window.opened || {};
  window.opened[event.target.id] = (window.opened[event.target.id] || 0) + 1;
})"""


def badge(page: Any) -> tuple[str, bool]:
    element = page.locator("#notifications-count")
    return element.inner_text(), element.is_visible()


def test_the_lobby_shows_a_new_game_and_the_badge_counts_a_join_without_a_reload(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(alice, players=3)
    page = logged_in_page(new_page, asgi_server, alice)
    page.add_init_script(COUNT_SOCKETS)
    page.goto(f"http://{asgi_server}{reverse('games:lobby')}")
    page.wait_for_function(
        "() => window.opened && window.opened['lobby-live'] && window.opened['live-notifications']"
    )
    page.evaluate("window.stillTheSamePage = true")
    assert badge(page)[1] is False  # nothing unread yet: no badge

    # Another member opens a game: it appears among the open games (defect 3).
    carol = make_user("carol", display_name="Carol")
    opened: list[Any] = []
    in_another_thread(lambda: opened.append(waiting_game(carol, players=2)))
    page.wait_for_selector(f'#lobby-lists [data-game="{opened[0].pk}"]', timeout=TURN_TIMEOUT_MS)

    # bob takes a seat in alice's game: she is told, live, on the page she has open (defect 2).
    in_another_thread(lambda: services.join_seat(game_id=game.pk, user=bob))
    page.wait_for_function(
        "() => document.querySelector('#notifications-count').textContent.trim() === '1'",
        timeout=TURN_TIMEOUT_MS,
    )
    assert badge(page) == ("1", True)
    page.wait_for_selector("#live-notifications .toast >> text=Bob joined your game")
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.errors == []


def open_with_a_late_first_refresh(
    page: Any, server: str, path: str, socket: str, change: Any
) -> tuple[str, Any]:
    """Open the page at `path` and hold the refresh its socket's opening fetches: the server
    answers it at once, `change` happens, the socket's hint about it arrives, and only then is
    that stale answer delivered. Returns the stale answer's text and what `change` returned."""
    held: list[Any] = []

    def hold_the_first_refresh(route: Any) -> None:
        if route.request.headers.get("hx-request") and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.add_init_script(
        "document.addEventListener('htmx:wsAfterMessage', (e) => {"
        f" if (e.target.id === '{socket}') {{ window.hints = (window.hints || 0) + 1; }} }})"
    )
    page.route(lambda url: urlsplit(url).path == path, hold_the_first_refresh)
    page.goto(f"http://{server}{path}")
    for _ in range(TURN_TIMEOUT_MS // 50):
        if held:  # the socket opened and its refresh was answered: stale from now on
            break
        page.wait_for_timeout(50)
    else:
        pytest.fail(f"opening {path} never fetched its refresh")
    result = change()
    page.wait_for_function("() => window.hints >= 1", timeout=TURN_TIMEOUT_MS)
    route, stale = held[0]
    text = stale.text()
    route.fulfill(response=stale)
    return text, result


def test_a_change_announced_while_the_lobby_lists_are_loading_is_fetched_after_them(
    asgi_server: str, new_page: Any
) -> None:
    """The lists the socket's opening fetched were read before Carol opened her game but arrive
    after the hint about it: the hint's own fetch must follow them, not be dropped."""
    alice = make_user("alice", display_name="Alice")
    carol = make_user("carol", display_name="Carol")
    page = logged_in_page(new_page, asgi_server, alice)

    def carol_opens_a_game() -> Any:
        opened: list[Any] = []
        in_another_thread(lambda: opened.append(waiting_game(carol, players=2)))
        return opened[0]

    stale, game = open_with_a_late_first_refresh(
        page, asgi_server, reverse("games:lobby"), "lobby-live", carol_opens_a_game
    )
    assert f'data-game="{game.pk}"' not in stale
    page.wait_for_selector(f'#lobby-lists [data-game="{game.pk}"]', timeout=TURN_TIMEOUT_MS)
    assert page.locator("#lobby-lists").count() == 1
    assert page.errors == []


def test_a_join_announced_while_the_waiting_room_is_loading_is_fetched_after_it(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(alice, players=3)
    page = logged_in_page(new_page, asgi_server, alice)
    room = reverse("games:join", args=[game.pk])
    stale, _ = open_with_a_late_first_refresh(
        page, asgi_server, room, "room-live", lambda: join_in_another_thread(game, bob)
    )
    assert "Bob" not in stale
    page.wait_for_selector("#waiting-room >> text=Bob", timeout=TURN_TIMEOUT_MS)
    assert page.locator("#waiting-room").count() == 1
    assert page.errors == []


def test_a_badge_whose_socket_dropped_catches_up_over_http(asgi_server: str, new_page: Any) -> None:
    """The notifications missed while the socket was cut are counted when it reconnects."""
    alice = make_user("alice", display_name="Alice")
    sockets: list[Any] = []
    cut = {"on": False}

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)
        server.on_message(lambda m: None if cut["on"] else ws.send(m))
        ws.on_message(lambda m: server.send(m))

    page = logged_in_page(new_page, asgi_server, alice)
    page.route_web_socket(lambda url: "/ws/notifications/" in url, relay)
    page.add_init_script(COUNT_SOCKETS)
    # The socket's opening fetches the badge over HTTP. That answer must be in before the
    # notifications are made: one served after them would rightly show them (this race made
    # the test fail now and then on PostgreSQL, where the answer comes later).
    with page.expect_response(lambda r: "/notifications/badge/" in r.url) as first_badge:
        page.goto(f"http://{asgi_server}{reverse('accounts:profile')}")
    assert first_badge.value.status == 200
    page.wait_for_function("() => window.opened && window.opened['live-notifications'] === 1")
    page.evaluate("window.stillTheSamePage = true")

    cut["on"] = True
    for text in ("It is your turn", "Bob joined your game"):
        in_another_thread(lambda text=text: accounts_services.notify(user=alice, message=text))
    page.wait_for_timeout(500)
    assert badge(page)[1] is False  # both messages were lost on the way
    cut["on"] = False
    with page.expect_response(lambda r: "/notifications/badge/" in r.url) as fetched:
        sockets[0].close(code=1012)  # htmx reconnects and asks for the badge
    assert fetched.value.status == 200
    page.wait_for_function(
        "() => document.querySelector('#notifications-count').textContent.trim() === '2'",
        timeout=TURN_TIMEOUT_MS,
    )
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.errors == []
