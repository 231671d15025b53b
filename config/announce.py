"""Sending a hint to open pages over the channel layer without holding up a request.

Hints (a move was played, a notification arrived) are sent after a transaction commits, from
whatever code committed it. In a server process that is a request: were Redis slow or paused,
the member would wait for it (a paused Redis held each move 15 s, the socket timeout of the
layer). So in a server process the hint is handed to the server's event loop and the request
answers at once: it is sent after the response, and given up after `TIMEOUT` seconds. Anywhere
else (a Celery worker, a management command, a test) it is sent before the call returns, with
the same limit. Hints are at most once anyway (DESIGN.md principle 7): a page that misses one
catches up when it notices the gap or reconnects.
"""

from __future__ import annotations

import asyncio
import logging
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


def send(layer: Any, group: str, message: dict[str, Any], what: str) -> None:
    """`group_send` a hint; `what` names it in the log if it cannot be sent."""
    try:
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
    try:
        await asyncio.wait_for(layer.group_send(group, message), TIMEOUT)
    except Exception:
        logger.exception("Could not announce %s", what)
