"""A member's sockets end with the session they were opened in (accounts/sessions.py): after a
log-out, or a password change made elsewhere, a game socket no longer receives that seat's
boards, as the pages no longer show them. Sockets of the member's other sessions, and other
members' sockets, stay open and keep receiving.

The sockets are real ones on the site's ASGI server; the log-out and the password change are posts
to the site's own pages.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.db import connections
from django.test import Client
from django.urls import reverse

from games import services
from tests.conftest import PASSWORD, make_user
from tests.games.conftest import build_game, first_legal_move

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WAIT = 15.0  # seconds for a close or a board to arrive


def signed_in(user: Any) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


def in_thread(work: Any) -> Any:
    """Database work for asyncio.to_thread; that thread's connection must not outlive it."""

    def run() -> Any:
        try:
            return work()
        finally:
            connections.close_all()

    return run


def open_socket(address: str, path: str, session_key: str) -> Any:
    headers = {
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}",
        "Origin": f"http://{address}",
    }
    return websockets.connect(f"ws://{address}{path}", additional_headers=headers)


async def closed(socket: Any) -> bool:
    """Whether the server closes the socket within WAIT seconds (messages before are skipped)."""
    try:
        async with asyncio.timeout(WAIT):
            while True:
                await socket.recv()
    except websockets.ConnectionClosed:
        return True
    except TimeoutError:
        return False


async def board_version(socket: Any) -> str:
    message = str(await asyncio.wait_for(socket.recv(), WAIT))
    assert 'data-version="' in message
    return message.split('data-version="', 1)[1].split('"', 1)[0]


def test_logging_out_closes_that_sessions_sockets_and_no_others(asgi_server: str) -> None:
    alice, bob = make_user("alice-sockets"), make_user("bob-sockets")
    game = build_game(alice, bob, seed=13)
    client, session = signed_in(alice)
    _, other_session = signed_in(alice)
    _, bobs_session = signed_in(bob)
    board = f"/ws/games/{game.pk}/"

    def log_out() -> None:
        assert client.post(reverse("account_logout")).status_code == 302

    def next_move() -> None:
        seat, move = first_legal_move(game)
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)

    async def run() -> tuple[list[bool], list[str]]:
        async with (
            open_socket(asgi_server, board, session) as game_socket,
            open_socket(asgi_server, "/ws/notifications/", session) as note_socket,
            open_socket(asgi_server, "/ws/lobby/", session) as lobby_socket,
            open_socket(asgi_server, board, other_session) as other_socket,
            open_socket(asgi_server, board, bobs_session) as bobs_socket,
        ):
            await asyncio.to_thread(in_thread(log_out))
            closes = list(
                await asyncio.gather(closed(game_socket), closed(note_socket), closed(lobby_socket))
            )
            await asyncio.to_thread(in_thread(next_move))
            versions = [await board_version(other_socket), await board_version(bobs_socket)]
            return closes, versions

    closes, versions = asyncio.run(run())
    assert closes == [True, True, True]
    # The same member's other session, and the other member, still get the next board.
    assert versions == ["1", "1"]
    assert client.get(reverse("accounts:profile")).status_code == 302  # the pages agree


def test_a_password_change_closes_the_sockets_of_the_members_other_sessions(
    asgi_server: str,
) -> None:
    alice, bob = make_user("alice-password"), make_user("bob-password")
    game = build_game(alice, bob, seed=13)
    elsewhere, session = signed_in(alice)
    changer, _ = signed_in(alice)
    _, bobs_session = signed_in(bob)
    board = f"/ws/games/{game.pk}/"
    new_password = "a brand new passphrase 77"

    def change_password() -> None:
        response = changer.post(
            reverse("account_change_password"),
            {"oldpassword": PASSWORD, "password1": new_password, "password2": new_password},
        )
        assert response.status_code == 302

    def next_move() -> None:
        seat, move = first_legal_move(game)
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)

    async def run() -> tuple[list[bool], str]:
        async with (
            open_socket(asgi_server, board, session) as game_socket,
            open_socket(asgi_server, "/ws/notifications/", session) as note_socket,
            open_socket(asgi_server, board, bobs_session) as bobs_socket,
        ):
            await asyncio.to_thread(in_thread(change_password))
            closes = list(await asyncio.gather(closed(game_socket), closed(note_socket)))
            await asyncio.to_thread(in_thread(next_move))
            return closes, await board_version(bobs_socket)

    closes, bobs_version = asyncio.run(run())
    assert closes == [True, True]
    assert bobs_version == "1"
    # The pages of that other session have signed out too; the changer's own have not.
    assert elsewhere.get(reverse("accounts:profile")).status_code == 302
    assert changer.get(reverse("accounts:profile")).status_code == 200
