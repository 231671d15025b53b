"""The live hub's threads (games/live_threads.py): announcements of a game whose read still waits
for a thread share that read, and one game's slow board does not hold up another game's."""

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
def two_games() -> tuple[Game, Game, Any, Any]:
    alice, bob = make_user("alice"), make_user("bob")
    carol, dora = make_user("carol"), make_user("dora")
    return build_game(alice, bob, seed=13), build_game(carol, dora, seed=14), alice, carol


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
    """Every hub thread busy; two moves of one game are announced meanwhile. Once the threads
    are free, the game is read once, and its socket gets the board of the second move: the
    first announcement's board would only be replaced at once."""
    reads: list[int] = []
    read_game = live.read_game

    def counted(game_id: int) -> live.Snapshot:
        reads.append(game_id)
        return read_game(game_id)

    monkeypatch.setattr(live, "read_game", counted)
    game, _, alice, _ = await two_games()
    socket = await connect(game.pk, alice)
    hub = live.hub()
    free = threading.Event()
    busy = [executor.submit(free.wait, WAIT) for executor in live.hub_threads.executors]
    try:
        await play_first_move(game)
        await until(lambda: game.pk in hub.readings, "the first announcement's read")
        await play_next_move(game)
        await until(lambda: hub.readings[game.pk].joined == 1, "the second announcement")
    finally:
        free.set()
        for future in busy:
            future.result()
    board = await socket.receive_from(timeout=WAIT)
    try:
        assert 'data-version="2"' in board
        assert await socket.receive_nothing(timeout=0.5)
    finally:
        await socket.disconnect()
    assert reads == [game.pk]


async def test_a_slow_board_of_one_game_does_not_hold_up_another_games(monkeypatch) -> None:
    """Game A's board takes long to draw; a move of game B made meanwhile reaches B's socket
    before A's drawing ends, and A's board still comes once it does."""
    draw = live.render_board
    game_a, game_b, alice, carol = await two_games()
    drawing_a, a_may_end = threading.Event(), threading.Event()

    def slow_for_a(game: Game, position: int | None, language: str, recent: Any = None) -> str:
        if game.pk == game_a.pk:
            drawing_a.set()
            a_may_end.wait(WAIT)
        return draw(game, position, language, recent)

    monkeypatch.setattr(live, "render_board", slow_for_a)
    socket_a, socket_b = await connect(game_a.pk, alice), await connect(game_b.pk, carol)
    try:
        await play_first_move(game_a)
        await until(drawing_a.is_set, "game A's drawing")
        await play_first_move(game_b)
        try:
            board_b = await socket_b.receive_from(timeout=WAIT)
            a_still_drawing = not a_may_end.is_set()
        finally:
            a_may_end.set()
        assert 'data-version="1"' in board_b
        assert a_still_drawing
        assert 'data-version="1"' in await socket_a.receive_from(timeout=WAIT)
    finally:
        a_may_end.set()
        await socket_a.disconnect()
        await socket_b.disconnect()
