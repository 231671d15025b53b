"""A Celery worker's hints go through one long-lived event loop (config/announce.Publisher), so
the channel layer's connections of that loop serve every hint instead of one each."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from config import announce


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
