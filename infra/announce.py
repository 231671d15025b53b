"""Sending a hint to open pages over the channel layer without holding up a request.

Hints (a move was played, a notification arrived) are sent after a transaction commits, from
whatever code committed it. In a server process that is a request: were Redis slow or paused,
the member would wait for it (a paused Redis held each move 15 s, the socket timeout of the
layer). So in a server process the hint is handed to the server's event loop and the request
answers at once: it is sent after the response, each try given up after `TIMEOUT` seconds.
Anywhere else (a Celery worker, a management command, a test) it is tried before the call
returns, with the same limit. A Celery worker sends it through one event loop kept on a thread
of its own for the life of the process (`Publisher`): the layer's Redis connections stay open
from one hint to the next, instead of a new loop and connection for each.

A hint that cannot be sent in time (Redis stopped, or paused: a hanging Redis answers nothing
and raises nothing) is kept and tried again `RETRY_SECONDS` after each failed try until the
layer takes it, by the server's loop or the worker's `Publisher`, never by the request or task
that made it. A page whose socket stayed open through a short pause has no gap to notice, and
its server's hub no error to recover from (games/live.py): without the second try a move made
during the pause reached no page until the next move. A later hint to a game replaces a kept
one (each hub reads the game as it is when a hint arrives). A hint may now arrive twice (a try
that timed out may still have reached Redis), which costs a read: no socket is sent a board it
has. Nothing depends on a hint arriving (DESIGN.md principle 7): a process that ends takes what
it kept with it, and a page that misses a hint catches up when it notices the gap or reconnects.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync

from infra import timing
from infra.loops import PerLoop

logger = logging.getLogger(__name__)

TIMEOUT = 5.0  # seconds one try of a hint may take before it is given up
LIMIT = 1_000  # hints waiting at once in a server process; more are dropped (Redis is stuck)
RETRY_SECONDS = 1.0  # between two tries of the hints that could not be sent
KEEP = 1_000  # hints kept for another try in a process; past this the oldest is given up

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

    def send(
        self,
        layer: Any,
        group: str,
        message: dict[str, Any],
        what: str,
        key: str | None = None,
    ) -> None:
        """Try once before returning, as `send` does outside a server (at most `TIMEOUT`
        seconds); a hint not sent by then is kept on this loop and tried again."""
        future = asyncio.run_coroutine_threadsafe(
            _deliver(layer, group, message, what, key, keep=True), self.loop()
        )
        future.result(TIMEOUT + 1.0)


_publisher: Publisher | None = None


def publish_from_own_loop() -> None:
    """This process sends its hints through a `Publisher` (a Celery worker: config/celery.py)."""
    global _publisher
    _publisher = _publisher or Publisher()


def send(
    layer: Any, group: str, message: dict[str, Any], what: str, *, supersedes: bool = False
) -> None:
    """`group_send` a hint; `what` names it in the log if it cannot be sent. `supersedes`: this
    hint makes any earlier one to the same group needless (it says "look again", not what
    changed), so a kept earlier one is dropped rather than sent after it."""
    key = group if supersedes else None
    try:
        if _publisher is not None:
            _publisher.send(layer, group, message, what, key)
        else:
            async_to_sync(_send_or_schedule)(layer, group, message, what, key)
    except Exception:
        logger.exception("Could not announce %s", what)


async def _send_or_schedule(
    layer: Any, group: str, message: dict[str, Any], what: str, key: str | None
) -> None:
    loop = asyncio.get_running_loop()
    if loop not in _server_loops:
        # A loop of this call alone (a test, a command): nothing would be left to try again.
        await _deliver(layer, group, message, what, key, keep=False)
        return
    if len(_pending) >= LIMIT:
        logger.warning("Dropped the announcement of %s: %d are still waiting", what, LIMIT)
        return
    task = loop.create_task(_deliver(layer, group, message, what, key, keep=True))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


async def _deliver(
    layer: Any, group: str, message: dict[str, Any], what: str, key: str | None, *, keep: bool
) -> None:
    """Send a hint within `TIMEOUT` seconds; `key`: the group of a hint that supersedes the
    earlier ones to it, None for one that stands alone. `keep`: one not sent in time is kept
    and tried again (this loop lives on: a server's or a `Publisher`'s)."""
    try:
        await _group_send(layer, group, message)
    except Exception as exc:
        if not keep:
            logger.exception("Could not announce %s", what)
            return
        logger.warning("Could not announce %s yet (%r); trying again", what, exc)
        _kept().add(object() if key is None else key, Hint(layer, group, message, what))
        return
    if key is not None and keep:
        _kept().discard(key)  # a kept earlier hint it supersedes has nothing left to say


async def _group_send(layer: Any, group: str, message: dict[str, Any]) -> None:
    timing.stamp(message, "publish")  # a traced message (games/broadcast.py)
    await asyncio.wait_for(layer.group_send(group, message), TIMEOUT)


@dataclass(frozen=True, eq=False)
class Hint:
    layer: Any
    group: str
    message: dict[str, Any]
    what: str


class Kept:
    """The hints of one event loop that could not be sent yet, oldest first, and the task that
    tries them again until the layer takes them."""

    def __init__(self) -> None:
        self.hints: OrderedDict[Hashable, Hint] = OrderedDict()
        self.task: asyncio.Task[None] | None = None

    def add(self, key: Hashable, hint: Hint) -> None:
        self.hints.pop(key, None)
        self.hints[key] = hint
        while len(self.hints) > KEEP:
            _, dropped = self.hints.popitem(last=False)
            logger.warning("Gave up the announcement of %s: %d others wait", dropped.what, KEEP)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._send_again())

    def discard(self, key: Hashable) -> None:
        self.hints.pop(key, None)

    async def _send_again(self) -> None:
        while self.hints:
            await asyncio.sleep(RETRY_SECONDS)
            # Oldest first; the first that fails waits for the next round with the rest.
            while self.hints:
                key, hint = next(iter(self.hints.items()))
                try:
                    await _group_send(hint.layer, hint.group, hint.message)
                except Exception:
                    break
                if self.hints.get(key) is hint:  # not replaced by a newer one meanwhile
                    del self.hints[key]
                logger.info("Announced %s after all", hint.what)


# The hints kept by the running event loop.
_kept = PerLoop(Kept)
