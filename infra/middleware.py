"""Site-wide middleware."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any
from urllib.parse import parse_qsl

from channels.security.websocket import WebsocketDenier
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class MethodNotAllowedPage:
    """Answer a 405 (a view's `require_http_methods`) with a page of the site, not an empty
    body: a member who opens a form's address in the browser learns what to do instead."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response.get("Allow", "")
        return page


NUL = "\x00"


class RefuseNulCharacters:
    """Answer a request with a NUL character in its address, query, form fields or cookies with
    the site's 400 page. No member types one, and PostgreSQL stores and compares no text that
    holds one: the first query to meet it failed, and the member saw a 500.

    It stands after LocaleMiddleware, so the page is in the reader's language, and before
    anything reads the session or the member (a session cookie is such a text too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            return render(request, "400.html", status=400)
        return self.get_response(request)


def has_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    fields = [*request.GET.lists(), *((name, [value]) for name, value in request.COOKIES.items())]
    if request.method == "POST":
        # A body the site cannot parse at all raises here, and gets the 400 page as before.
        fields += request.POST.lists()
    return any(NUL in name or any(NUL in value for value in values) for name, values in fields)


class RefuseNulSockets:
    """The same for a websocket (ASGI, between Channels' cookie and session middleware): a NUL
    in its address, query or cookies refuses the handshake before the session is looked up."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        texts = [scope["path"], *chain(*query), *chain(*scope.get("cookies", {}).items())]
        if any(NUL in text for text in texts):
            return await WebsocketDenier.as_asgi()(scope, receive, send)
        return await self.inner(scope, receive, send)
