"""The hub sends a socket the changes of a move (games/board_patches.py) only when the board it
sent last is their base; a socket that joined late, or whose last board the hub no longer
keeps, gets the whole board (DESIGN.md principle 7)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games import board_patches, live
from tests.games.test_consumers import connect, play_first_move, two_member_game

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
async def close_connections_of_the_sync_thread() -> Any:
    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture
def changes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Every change made, by its base; the message names its base."""
    made: list[tuple[int, str]] = []

    def named(old: str, new: str, *, base: tuple[int, str]) -> str:
        made.append(base)
        return f"changes from {base[0]}"

    monkeypatch.setattr(board_patches, "board_patch", named)
    return made


async def test_a_socket_one_revision_behind_gets_only_the_changes(changes) -> None:
    game, alice, bob, carol = await two_member_game()
    sockets = [await connect(game.pk, user) for user in (alice, bob, carol)]
    try:
        await play_first_move(game)
        for socket in sockets:
            assert 'id="game-board"' in await socket.receive_from(timeout=10)
        await play_first_move(game)
        for socket in sockets:
            assert await socket.receive_from(timeout=10) == "changes from 1"
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_a_socket_that_joined_late_gets_the_whole_board(changes) -> None:
    game, alice, bob, carol = await two_member_game()
    early = await connect(game.pk, alice)
    try:
        await play_first_move(game)
        assert 'data-version="1"' in await early.receive_from(timeout=10)
        late = await connect(game.pk, carol)
        try:
            await play_first_move(game)
            assert await early.receive_from(timeout=10) == "changes from 1"
            board = await late.receive_from(timeout=10)
            assert 'id="game-board"' in board and 'data-version="2"' in board
        finally:
            await late.disconnect()
    finally:
        await early.disconnect()


async def test_a_socket_whose_last_board_is_no_longer_kept_gets_the_whole_board(changes) -> None:
    game, alice, *_ = await two_member_game()
    socket = await connect(game.pk, alice)
    try:
        await play_first_move(game)
        assert 'data-version="1"' in await socket.receive_from(timeout=10)
        live.hub().boards.clear()
        await play_first_move(game)
        board = await socket.receive_from(timeout=10)
        assert 'id="game-board"' in board and 'data-version="2"' in board
        assert changes == []
    finally:
        await socket.disconnect()


async def test_changes_are_made_between_boards_of_the_same_seat_only(changes, monkeypatch) -> None:
    """Each change is made from a board the socket's own viewpoint was sent, never another's."""
    game, alice, bob, carol = await two_member_game()
    sockets = {0: await connect(game.pk, alice), 1: await connect(game.pk, bob)}
    try:
        await play_first_move(game)
        for socket in sockets.values():
            await socket.receive_from(timeout=10)
        drawn = dict(live.hub().boards.boards)
        bases_seen: list[Any] = []
        original = live.changes_from

        def spy(bases: Any, keys: Any, new: Any) -> Any:
            found = original(bases, keys, new)
            bases_seen.extend(found)
            return found

        monkeypatch.setattr(live, "changes_from", spy)
        await play_first_move(game)
        for socket in sockets.values():
            assert await socket.receive_from(timeout=10) == "changes from 1"
        assert bases_seen
        for base, key in bases_seen:
            assert base in drawn and base[3:] == key[3:]
    finally:
        for socket in sockets.values():
            await socket.disconnect()
