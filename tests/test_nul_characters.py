"""A NUL character anywhere in what a browser sends is refused with the site's 400 page (issue
31, item 6): PostgreSQL stores and compares no text holding one, so the query that met it
answered 500. Run these on PostgreSQL too (DATABASE_URL), where the 500s were found."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode

from accounts.models import User
from config.asgi import router
from tests.games.conftest import build_game
from tests.test_processes import session_cookie_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def refused(response: object, title: str = "Request not understood") -> bool:
    return response.status_code == 400 and title in response.text  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "address",
    [
        "/games/history/?opponent=u:%00",  # the probe's two
        "/members/profile/%00/",
        "/games/history/?game=%00",
        "/rules/?q=%00",
        "/games/history/?%00=1",  # in a name, not a value
        "/accounts/login/?next=/%00",
    ],
)
def test_a_nul_in_the_address_or_query_is_refused(member: Client, address: str) -> None:
    assert refused(member.get(address))


def test_the_refusal_is_in_the_readers_language(member: Client) -> None:
    member.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    assert refused(member.get("/members/profile/%00/"), "A kérés nem értelmezhető")


def test_a_nul_in_a_form_field_is_refused(client: Client, alice: User) -> None:
    response = client.post(
        reverse("account_login"),
        urlencode({"login": "alice\x00", "password": "x"}),
        content_type="application/x-www-form-urlencoded",
    )
    assert refused(response)
    client.force_login(alice)
    response = client.post(reverse("accounts:profile-edit"), {"display_name": "Al\x00ice"})
    assert refused(response)
    alice.refresh_from_db()
    assert alice.display_name == "Alice"  # refused input changes nothing


def test_a_nul_in_a_multipart_form_field_is_refused(member: Client) -> None:
    response = member.post(reverse("accounts:profile-edit"), {"display_name": "\x00"})
    assert refused(response)


def test_a_nul_in_a_cookie_is_refused(client: Client) -> None:
    # A quoted cookie value may spell the character as an octal escape (RFC 2109).
    client.cookies[settings.SESSION_COOKIE_NAME] = "abcdefgh\x00ijklmnop"
    assert refused(client.get(reverse("home")))


def test_a_page_without_nul_is_served_as_before(member: Client) -> None:
    assert member.get("/games/history/?opponent=u:alice").status_code == 200


async def open_socket(path: str, cookie: str) -> bool:
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    socket = WebsocketCommunicator(router, path, headers=[*headers, (b"cookie", cookie.encode())])
    try:
        connected, _code = await socket.connect()
        return connected
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_with_a_nul_in_its_cookie_or_query_is_refused(alice: User) -> None:
    """The session cookie spelled `\\000` (a quoted cookie's octal escape): on PostgreSQL the
    session lookup raised in the handshake."""
    game = await sync_to_async(build_game)(alice, "easy")
    cookie = await sync_to_async(session_cookie_for)(alice)
    address = f"/ws/games/{game.pk}/"
    assert await open_socket(address, cookie)  # the member's own socket opens
    assert not await open_socket(address + "?page=%00", cookie)
    assert not await open_socket(address, f'{settings.SESSION_COOKIE_NAME}="abcdefgh\\000ijkl"')
