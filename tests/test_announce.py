"""A Celery worker's hints go through one long-lived event loop (infra/announce.Publisher), so
the channel layer's connections of that loop serve every hint instead of one each."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from infra import announce


class RecordingLayer:
    """A channel layer that notes the loop and thread each `group_send` ran on."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], asyncio.AbstractEventLoop, int]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.sleep(0.05)  # a send that takes a while: `send` still waits for it
        loop = asyncio.get_running_loop()
        self.sent.append((group, message, loop, threading.get_ident()))


def test_a_publisher_sends_every_hint_on_one_loop_of_its_own_before_returning() -> None:
    publisher, layer = announce.Publisher(), RecordingLayer()
    publisher.send(layer, "game-1", {"type": "game.changed", "version": 1}, "move 1")
    assert len(layer.sent) == 1  # sent before `send` returned
    publisher.send(layer, "game-1", {"type": "game.changed", "version": 2}, "move 2")
    assert [(group, message["version"]) for group, message, _, _ in layer.sent] == [
        ("game-1", 1),
        ("game-1", 2),
    ]
    (_, _, first_loop, first_thread), (_, _, second_loop, second_thread) = layer.sent
    assert first_loop is second_loop
    assert first_loop.is_running()  # it outlives the hints, with the layer's connections
    assert first_thread == second_thread != threading.get_ident()


def test_a_traced_hint_is_stamped_with_the_time_it_was_published() -> None:
    publisher, layer = announce.Publisher(), RecordingLayer()
    publisher.send(layer, "game-1", {"type": "game.changed", "at": {"commit": 1.0}}, "move 1")
    publisher.send(layer, "lobby", {"type": "lobby.changed"}, "a change of the lobby")
    traced, untraced = layer.sent[0][1], layer.sent[1][1]
    assert traced["at"]["commit"] == 1.0 < traced["at"]["publish"]
    assert "at" not in untraced


class HangingLayer(RecordingLayer):
    """A channel layer on a Redis that hangs (paused) until `answer` is set: a send meanwhile
    neither arrives nor fails, it waits."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = threading.Event()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        while not self.answer.is_set():
            await asyncio.sleep(0.01)
        await super().group_send(group, message)


def wait_until(condition: Any) -> bool:
    for _ in range(500):
        if condition():
            return True
        threading.Event().wait(0.01)
    return False


def test_a_hint_the_layer_did_not_take_in_time_is_sent_once_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(announce, "TIMEOUT", 0.1)
    monkeypatch.setattr(announce, "RETRY_SECONDS", 0.05)
    publisher, layer = announce.Publisher(), HangingLayer()
    publisher.send(layer, "game-1", {"type": "game.changed", "version": 1}, "move 1")
    assert layer.sent == []  # `send` returned, given up for now
    layer.answer.set()
    assert wait_until(lambda: layer.sent)
    threading.Event().wait(0.2)  # and only once
    assert [(group, message["version"]) for group, message, _, _ in layer.sent] == [("game-1", 1)]


def test_while_the_layer_hangs_a_later_hint_replaces_a_kept_one_that_it_supersedes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's hint says "look again" (each hub reads the game as it is then): of two kept for
    one game only the later is sent. A member's notifications stand alone: each is sent."""
    monkeypatch.setattr(announce, "TIMEOUT", 0.1)
    monkeypatch.setattr(announce, "RETRY_SECONDS", 0.05)
    layer = HangingLayer()
    sends = [
        ("game-1", {"type": "game.changed", "version": 1}, True),
        ("user-7", {"type": "notification.created", "id": 1}, False),
        ("game-1", {"type": "game.changed", "version": 2}, True),
        ("user-7", {"type": "notification.created", "id": 2}, False),
    ]
    monkeypatch.setattr(announce, "_publisher", announce.Publisher())
    for group, message, supersedes in sends:
        announce.send(layer, group, message, f"hint to {group}", supersedes=supersedes)
    layer.answer.set()
    assert wait_until(lambda: len(layer.sent) >= 3)
    threading.Event().wait(0.2)
    assert sorted(
        (group, message.get("version", message.get("id"))) for group, message, _, _ in layer.sent
    ) == [
        ("game-1", 2),
        ("user-7", 1),
        ("user-7", 2),
    ]
