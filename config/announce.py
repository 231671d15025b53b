"""Sending a hint to open pages over the channel layer without holding up a request.

Hints (a move was played, a notification arrived) are sent after a transaction commits, from
whatever code committed it. In a server process that is a request: were Redis slow or paused,
the member would wait for it (a paused Redis held each move 15 s, the socket timeout of the
layer). So in a server process the hint is handed to the server's event loop and the request
answers at once: it is sent after the response, and given up after `TIMEOUT` seconds. Anywhere
else (a Celery worker, a management command, a test) it is sent before the call returns, with
the same limit. A Celery worker sends it through one event loop kept on a thread of its own for
the life of the process (`Publisher`): the layer's Redis connections stay open from one hint to
the next, instead of a new loop and connection for each. Hints are at most once anyway
(DESIGN.md principle 7): a page that misses one catches up when it notices the gap or reconnects.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import weakref
from typing import Any

from asgiref.sync import async_to_sync

logger = logging.getLogger(__name__)

TIMEOUT = 5.0  # seconds a hint may take before it is given up
LIMIT = 1_000  # hints waiting at once in a server process; more are dropped (Redis is stuck)

_server_loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_pending: set[asyncio.Task[None]] = set()


def serve_from_running_loop() -> None:
    """The running loop is a server's (config/asgi.py): hints sent to it may outlive a request."""
    _server_loops.add(asyncio.get_running_loop())


class Publisher:
    """An event loop running on a thread of its own, made on first use in each process (a
    forked worker child makes its own): hints sent through it reuse the layer's connections."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            alive = self._thread is not None and self._thread.is_alive()
            if self._loop is None or self._pid != os.getpid() or not alive:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="announce-publisher", daemon=True
                )
                self._thread.start()
                self._pid = os.getpid()
            return self._loop

    def send(self, layer: Any, group: str, message: dict[str, Any], what: str) -> None:
        """Send before returning, as `send` does outside a server; `_deliver` gives up after
        `TIMEOUT` seconds and logs why."""
        future = asyncio.run_coroutine_threadsafe(
            _deliver(layer, group, message, what), self.loop()
        )
        future.result(TIMEOUT + 1.0)


_publisher: Publisher | None = None


def publish_from_own_loop() -> None:
    """This process sends its hints through a `Publisher` (a Celery worker: config/celery.py)."""
    global _publisher
    _publisher = _publisher or Publisher()


def send(layer: Any, group: str, message: dict[str, Any], what: str) -> None:
    """`group_send` a hint; `what` names it in the log if it cannot be sent."""
    try:
        if _publisher is not None:
            _publisher.send(layer, group, message, what)
        else:
            async_to_sync(_send_or_schedule)(layer, group, message, what)
    except Exception:
        logger.exception("Could not announce %s", what)


async def _send_or_schedule(layer: Any, group: str, message: dict[str, Any], what: str) -> None:
    loop = asyncio.get_running_loop()
    if loop not in _server_loops:
        await _deliver(layer, group, message, what)
        return
    if len(_pending) >= LIMIT:
        logger.warning("Dropped the announcement of %s: %d are still waiting", what, LIMIT)
        return
    task = loop.create_task(_deliver(layer, group, message, what))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


async def _deliver(layer: Any, group: str, message: dict[str, Any], what: str) -> None:
    if isinstance(message.get("at"), dict):
        message["at"]["publish"] = time.time()  # a traced message (games/broadcast.py)
    try:
        await asyncio.wait_for(layer.group_send(group, message), TIMEOUT)
    except Exception:
        logger.exception("Could not announce %s", what)
