"""The site's stack with none of its logic, for `manage.py bench_floor`: a Celery app with one
empty task, configured from the site's settings as the site's app is (the same broker, late
acknowledgement, prefetch, serializer and consumer), and an ASGI app that sends a text it is
given to every socket open on it, served by uvicorn as `infra.serve` serves the site.

    celery -A tools.floor_apps worker -Q floor --pool solo ...
    uvicorn ... tools.floor_apps:sockets_app

Neither imports anything of the site's apps: what they cost is what the stack itself costs.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

from config.celery import SiteCelery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

QUEUE = "floor"
EMPTY_TASK = "floor.empty"

# Not the current app: importing this module (the benchmark's tests do, when they are collected)
# must not make the site's tasks, which the services send by name through `current_app`,
# go to this app and its broker.
celery_app = SiteCelery("floor", set_as_current=False)
celery_app.config_from_object("django.conf:settings", namespace="CELERY")


@celery_app.task(name=EMPTY_TASK, acks_late=True, ignore_result=True)
def empty(game_id: int, seat: int, expected_version: int) -> None:
    """Nothing, with the arguments of a bot's turn (so its message has the same shape)."""


Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_open: set[Send] = set()  # the `send` of every socket open on this process


async def sockets_app(scope: Message, receive: Receive, send: Send) -> None:
    """A socket is accepted and kept open. `POST /send?rounds=K` with a text body sends that
    text K times to every open socket, one socket after the other as a hub does, and answers
    once all are sent."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        _open.add(send)
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            _open.discard(send)
        return
    if scope["type"] != "http":
        return
    body = b""
    while True:
        event = await receive()
        body += event.get("body", b"")
        if not event.get("more_body"):
            break
    query = dict(
        part.split("=", 1) for part in scope["query_string"].decode().split("&") if "=" in part
    )
    text = body.decode()
    for _ in range(int(query.get("rounds", "1"))):
        for socket_send in list(_open):
            await socket_send({"type": "websocket.send", "text": text})
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(len(_open)).encode()})
