"""ASGI entry point: Django for HTTP, Channels for websockets (served as infra/serve.py says)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from infra import sync_handler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The middleware and the view in one hop to the request's thread (infra/sync_handler.py).
django_asgi_app = sync_handler.application()

from channels.auth import AuthMiddleware  # noqa: E402  (needs the app registry)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from infra import announce, memory, timing  # noqa: E402
from infra.middleware import RefuseNulSockets  # noqa: E402
from infra.request_threads import ReusedThreads  # noqa: E402

router = ProtocolTypeRouter(
    {
        # Each request's synchronous code on a thread kept between requests (infra/request_threads).
        "http": ReusedThreads(django_asgi_app),
        # Channels' AuthMiddlewareStack, with NUL refused before the session is read.
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(
                RefuseNulSockets(
                    SessionMiddleware(AuthMiddleware(URLRouter(websocket_urlpatterns)))
                )
            )
        ),
    }
)

sys.setswitchinterval(settings.SERVER_SWITCH_INTERVAL)

# Memory freed during a busy spell goes back to the system in the quiet after it; SIGUSR2 asks
# for a report of what the server holds where MEMORY_REPORT is set (infra/memory.py).
memory.hand_back_when_quiet(settings.SERVER_QUIET_SECONDS)
memory.report_on_signal()
# What the server made while starting lives as long as it does: no collection walks it again.
memory.freeze_held()


async def application(scope: dict, receive: Any, send: Any) -> None:
    # Hints announced while a request is answered are sent after it, on this loop.
    announce.serve_from_running_loop()
    if settings.LIVE_TRACE and scope["type"] == "http":
        scope[timing.ARRIVED] = time.perf_counter()
    await router(scope, receive, send)
