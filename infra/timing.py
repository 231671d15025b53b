"""Where a request's time goes, hop by hop, as a `Server-Timing` header (settings.LIVE_TRACE).

With the trace on, the ASGI entry (config/asgi.py) stamps each HTTP request as it arrives,
`ServerTiming` (the outermost middleware) starts a list of marks, and code on the way calls
`mark(name)` as each hop ends. The answer then carries, in order, one `name;dur=ms` entry per
hop: the time from the mark before it (the first, `wait`, from the arrival to the start of
the middleware: the hop to the thread that runs the site's synchronous code, and the queue
behind other requests of the same process). Only names and durations leave the server.

With the trace off, `ServerTiming` is not installed and `mark` costs one context-variable
read. The load test (`python -m tools.load`) prints the hops of the move posts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse

# The time (time.perf_counter) an HTTP request reached the ASGI application.
ARRIVED = "trace_arrived"

_marks: ContextVar[list[tuple[str, float]] | None] = ContextVar("request_marks", default=None)


def mark(name: str) -> None:
    """The hop `name` of the traced request being answered ends now (no request: nothing)."""
    marks = _marks.get()
    if marks is not None:
        marks.append((name, time.perf_counter()))


def mark_on_commit(name: str) -> None:
    """The hop `name` ends when the transaction commits (before the other commit hooks run,
    if called before they are registered)."""
    if _marks.get() is not None:
        transaction.on_commit(lambda: mark(name))


def header(marks: list[tuple[str, float]]) -> str:
    """`a;dur=1.20, b;dur=0.35`: each mark's time since the one before, in milliseconds."""
    return ", ".join(
        f"{name};dur={(at - before) * 1000:.2f}"
        for (_, before), (name, at) in zip(marks, marks[1:], strict=False)
    )


class ServerTiming:
    """Times the request's hops (`mark`) and sends them as the `Server-Timing` header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        scope: dict[str, Any] = getattr(request, "scope", {})
        marks = [("arrival", scope.get(ARRIVED, started)), ("wait", started)]
        token = _marks.set(marks)
        try:
            response = self.get_response(request)
            mark("answer")
        finally:
            _marks.reset(token)
        response["Server-Timing"] = header(marks)
        return response

    def process_view(self, request: HttpRequest, *args: Any) -> None:
        # Everything before the view: session, user, language, CSRF.
        mark("middleware")
