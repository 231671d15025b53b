"""The threads a server runs its HTTP requests' synchronous code on, kept from one request to
the next.

Django answers each request inside asgiref's `ThreadSensitiveContext`: the request's
synchronous code (middleware, view, templates) runs on one thread of its own, in order. Left to
itself, the context makes a new single-thread executor for every request and, once it is
answered, starts another thread to join that one: two threads begun and ended per request. In
the 200-game load test that was 2.5 % of a server's CPU in `Thread.start` alone, besides the
executors' set-up (docs/benchmarks.md). `ReusedThreads` lends each request an idle executor of
its own instead, given to the context (asgiref's `executor=`), so Django's context inside finds
one set and keeps to it; the executor comes back once the request is answered.

An executor is lent again only once its thread has finished everything the last request gave
it: a request cancelled (the browser went away) while its synchronous code still ran hands its
executor back busy, and the next request must not queue behind that code. What each request
keeps per thread is unchanged: Django hands the database connection back at the request's end
(`request_finished`), and the language and the rest live in the request's own context
variables, which asgiref carries into the thread.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

Scope = MutableMapping[str, Any]
ASGIApp = Callable[..., Awaitable[None]]

# Idle executors kept for the next requests; a busier moment's extra ones end when they are
# given back. (A server answers a few requests at once: the rest wait for a core anyway.)
KEEP_IDLE = 16


class ReusedThreads:
    """ASGI middleware: each HTTP request's synchronous code runs on a kept thread."""

    def __init__(self, app: ASGIApp, keep: int = KEEP_IDLE) -> None:
        self.app = app
        self.keep = keep
        # Appended from the executors' own threads (deque's append and pop are atomic).
        self.idle: deque[ThreadPoolExecutor] = deque()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        executor = self._lend()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            self._give_back(executor)

    def _lend(self) -> ThreadPoolExecutor:
        try:
            return self.idle.pop()
        except IndexError:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        # Idle once this runs: the executor's one thread takes its work in order.
        def idle_now(_: Future[None]) -> None:
            if len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)

        executor.submit(_nothing).add_done_callback(idle_now)


def _nothing() -> None:
    return None
