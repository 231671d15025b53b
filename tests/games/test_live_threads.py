"""The live hub's thread (games/live_threads.py): announcements of a game whose read still waits
for the thread share that read."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games import live, services
from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import build_game, first_legal_move
from tests.games.test_consumers import connect, play_first_move

pytestmark = [pytest.mark.django_db(transaction=True)]

WAIT = 10.0  # seconds: a board that takes longer than this is not coming


@pytest.fixture(autouse=True)
def close_connections_of_the_sync_thread() -> Iterator[None]:
    yield
    connections.close_all()


@sync_to_async
def a_game() -> tuple[Game, Any]:
    alice, bob = make_user("alice"), make_user("bob")
    return build_game(alice, bob, seed=13), alice


@sync_to_async
def play_next_move(game: Game) -> None:
    game.refresh_from_db()
    seat, move = first_legal_move(game)
    services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)


async def until(condition: Any, what: str) -> None:
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"gave up waiting for {what}")


async def test_announcements_of_a_game_whose_read_waits_share_that_read(monkeypatch) -> None:
    """The hub's thread busy; two moves of one game are announced meanwhile. Once the thread
    is free, the game is read once, and its socket gets the board of the second move: the
    first announcement's board would only be replaced at once."""
    reads: list[int] = []
    read_game = live.read_game

    def counted(game_id: int) -> live.Snapshot:
        reads.append(game_id)
        return read_game(game_id)

    monkeypatch.setattr(live, "read_game", counted)
    game, alice = await a_game()
    socket = await connect(game.pk, alice)
    hub = live.hub()
    free = threading.Event()
    busy = live.hub_thread.executor.submit(free.wait, WAIT)
    try:
        await play_first_move(game)
        await until(lambda: game.pk in hub.readings, "the first announcement's read")
        await play_next_move(game)
        await until(lambda: hub.readings[game.pk].joined == 1, "the second announcement")
    finally:
        free.set()
        busy.result()
    board = await socket.receive_from(timeout=WAIT)
    try:
        assert 'data-version="2"' in board
        assert await socket.receive_nothing(timeout=0.5)
    finally:
        await socket.disconnect()
    assert reads == [game.pk]
