"""A tournament's and a game night's open pages hear their own changes only: each listens on a
socket of its own object (`/ws/tournaments/<id>/`, `/ws/nights/<id>/`), so a game opened, a
seat taken or another tournament's entry makes none of them fetch its live part."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections

from games import services
from games.routing import websocket_urlpatterns
from games.services import tournaments
from tests.conftest import make_user
from tests.games.conftest import waiting_game
from tests.games.test_nights import schedule
from tests.games.test_tournaments import create, organiser

pytestmark = [pytest.mark.django_db(transaction=True)]

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
async def close_connections_of_the_sync_thread() -> Any:
    yield
    await sync_to_async(connections.close_all)()


async def listening(path: str, user: Any) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(APP, path)
    socket.scope["user"] = user
    assert (await socket.connect())[0]
    return socket


async def test_a_tournament_page_hears_its_own_entries_and_nothing_else_of_the_club() -> None:
    @sync_to_async
    def setup() -> tuple[Any, ...]:
        olga = organiser()
        spring, autumn = create(olga), create(olga, name="Autumn cup")
        return olga, spring, autumn, make_user("alice"), make_user("bob"), make_user("carol")

    olga, spring, autumn, alice, bob, carol = await setup()
    socket = await listening(f"/ws/tournaments/{spring.pk}/", carol)
    try:
        # Another tournament's entry, a game opened and a seat taken in the lobby: no hint.
        await sync_to_async(tournaments.register)(tournament_id=autumn.pk, user=alice)
        game = await sync_to_async(waiting_game)(alice, players=3)
        await sync_to_async(services.join_seat)(game_id=game.pk, user=bob)
        assert await socket.receive_nothing(timeout=0.5)
        # An entry into this tournament arrives.
        await sync_to_async(tournaments.register)(tournament_id=spring.pk, user=bob)
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
        await sync_to_async(tournaments.withdraw)(tournament_id=spring.pk, user=bob)
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()


async def test_a_tournament_page_hears_its_cancel() -> None:
    @sync_to_async
    def setup() -> tuple[Any, ...]:
        olga = organiser()
        return olga, create(olga), make_user("carol")

    olga, spring, carol = await setup()
    socket = await listening(f"/ws/tournaments/{spring.pk}/", carol)
    try:
        await sync_to_async(services.tournament_events.cancel_tournament)(
            tournament_id=spring.pk, user=olga
        )
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()


async def test_a_night_page_hears_its_own_joins_and_nothing_else_of_the_club() -> None:
    @sync_to_async
    def setup() -> tuple[Any, ...]:
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        return alice, bob, carol, schedule(alice), schedule(carol)

    alice, bob, carol, ours, theirs = await setup()
    socket = await listening(f"/ws/nights/{ours.pk}/", alice)
    try:
        # Another night's join, a game opened in the lobby: no hint.
        await sync_to_async(services.join_night)(night_id=theirs.pk, user=bob)
        await sync_to_async(waiting_game)(carol, players=3)
        assert await socket.receive_nothing(timeout=0.5)
        # A join and a leave of this night arrive.
        await sync_to_async(services.join_night)(night_id=ours.pk, user=bob)
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
        await sync_to_async(services.leave_night)(night_id=ours.pk, user=bob)
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/tournaments/1/", "/ws/nights/1/"])
async def test_the_tournament_and_night_sockets_are_for_members_only(path: str) -> None:
    socket = WebsocketCommunicator(APP, path)
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    assert not connected
