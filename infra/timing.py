"""Where a move's time goes, hop by hop (settings.LIVE_TRACE): the tracing of the live path.

Two traces, both off the domain's data when the trace is off:

- **A request's hops**, as a `Server-Timing` header. The ASGI entry (config/asgi.py) stamps
  each HTTP request as it arrives, `ServerTiming` (the outermost middleware) starts the
  request's trace, and the hop boundaries on the way (`span`, used at the edges: the view,
  the row lock, the engine's move, the commit) each end one hop. The answer then carries, in
  order, one `name;dur=ms` entry per hop, each from the end of the hop before it (the first,
  `wait`, from the arrival to the start of the middleware: the hop to the thread that runs
  the site's synchronous code, and the queue behind other requests of the same process), so
  the hops add up to the answer's time. Only names and durations leave the server.
- **A board's hops**, from the commit to the socket's send: a traced announcement carries
  the time each hop began (`traced`, `stamp`), and the board sent ends with them in an HTML
  comment (`trace_comment`). Untraced, the announcement carries no times at all.

With the trace off, `ServerTiming` is not installed and a hop boundary costs one
context-variable read. The load test (`python -m tools.load`) and `manage.py bench_live`
print the hops.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse

# The time (time.perf_counter) an HTTP request reached the ASGI application.
ARRIVED = "trace_arrived"
# Where a traced announcement keeps the times of its hops (seconds since the epoch).
HOPS = "at"

_marks: ContextVar[list[tuple[str, float]] | None] = ContextVar("request_marks", default=None)


def mark(name: str) -> None:
    """The hop `name` of the traced request being answered ends now (no request: nothing)."""
    marks = _marks.get()
    if marks is not None:
        marks.append((name, time.perf_counter()))


@contextmanager
def span(name: str) -> Iterator[None]:
    """The hop `name` ends with this block (as a decorator: with the function). A block that
    raises ends no hop: the trace of a refused move stops where it was refused."""
    yield
    mark(name)


def mark_on_commit(name: str) -> None:
    """The hop `name` ends when the transaction commits (before the other commit hooks run,
    if called before they are registered)."""
    if _marks.get() is not None:
        transaction.on_commit(lambda: mark(name))


def traced(message: dict[str, Any], first_hop: str) -> dict[str, Any]:
    """`message` starting its trace with `first_hop` now, if the live trace is on."""
    if settings.LIVE_TRACE:
        message[HOPS] = {first_hop: time.time()}
    return message


def stamp(message: dict[str, Any], hop: str, at: float | None = None) -> None:
    """The hop `hop` of a traced message begins now (or `at`); an untraced one is left alone."""
    hops = message.get(HOPS)
    if isinstance(hops, dict):
        hops[hop] = time.time() if at is None else at


def trace_comment(message: dict[str, Any], last_hop: str) -> str:
    """`<!--live-trace {...}-->`: when each hop of a traced message began, `last_hop` now;
    empty for an untraced one. Times only: nothing of the game."""
    hops = message.get(HOPS)
    if not isinstance(hops, dict):
        return ""
    began = {name: float(at) for name, at in hops.items()}
    began[last_hop] = time.time()
    return f"<!--live-trace {json.dumps(began)}-->"


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
