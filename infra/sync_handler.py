"""Django's ASGI handler with a request's middleware and view run as one synchronous call.

Django under ASGI builds its middleware chain for the event loop. Every middleware of the site
is synchronous or both (none is async only), so Django runs the chain on a thread, but the
view's end of it stays asynchronous: from the chain's thread the request goes back to the
event loop (`async_to_sync`) to resolve the address, then to the thread again for the CSRF
check's `process_view`, back, to the thread for the view, and back. On a busy server each
return to the loop waits behind every socket and announcement it serves: in the load test the
middleware hop of a move post took 1.1 s at p99 while its own work was a few milliseconds.

Here the chain is built for synchronous use, as under WSGI, ending in Django's synchronous
`_get_response`, and the whole of it runs in one hop to the request's thread. What Django does
around it stays its own: reading the body, the `request_started` signal, sending the answer
and closing it. A view written `async def` would still be served (Django runs it through
`async_to_sync` then); the site has none.
"""

from __future__ import annotations

from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = await sync_to_async(self.get_response)(request)
        return response


def application() -> Any:
    """`django.core.asgi.get_asgi_application` with this handler."""
    django.setup(set_prefix=False)
    return OneHopASGIHandler()
