"""The threads a server runs its requests' synchronous code on (infra/request_threads.py): kept
from one request to the next, never shared by two requests at once, and a page still served
whole through them."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator

from infra.request_threads import ReusedThreads


class ThreadApp:
    """An ASGI app whose request runs one piece of synchronous code, thread-sensitive as
    Django's is, and answers with the thread it ran on; `hold` keeps that code waiting."""

    def __init__(self) -> None:
        self.threads: list[int] = []
        self.hold = threading.Event()
        self.hold.set()
        self.started = threading.Event()
        self.entered: list[int] = []  # the threads of the requests whose code has begun

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        def work() -> int:
            self.entered.append(threading.get_ident())
            self.started.set()
            self.hold.wait(10)
            return threading.get_ident()

        thread = await sync_to_async(work)()
        self.threads.append(thread)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(thread).encode()})


async def get(app: Any, path: str = "/") -> dict[str, Any]:
    request = HttpCommunicator(app, "GET", path, headers=[(b"host", b"testserver")])
    return await request.get_response(timeout=10)


async def settled(threads: ReusedThreads, idle: int) -> None:
    """Wait until `idle` executors are back (each comes back from its own thread)."""
    deadline = time.monotonic() + 5
    while len(threads.idle) != idle and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert len(threads.idle) == idle


async def test_requests_one_after_another_run_on_one_kept_thread() -> None:
    app = ThreadApp()
    threads = ReusedThreads(app)
    for _ in range(5):
        response = await get(threads)
        assert response["status"] == 200
        await settled(threads, 1)
    assert len(set(app.threads)) == 1
    assert app.threads[0] != threading.get_ident()  # not the event loop's thread


async def test_requests_at_the_same_time_each_have_a_thread_and_the_extra_ones_end() -> None:
    app = ThreadApp()
    app.hold.clear()
    threads = ReusedThreads(app, keep=1)
    requests = [asyncio.create_task(get(threads)) for _ in range(3)]
    deadline = time.monotonic() + 5
    while len(app.entered) < 3 and time.monotonic() < deadline:  # all three running at once
        await asyncio.sleep(0.01)
    app.hold.set()
    answers = await asyncio.gather(*requests)
    assert [a["status"] for a in answers] == [200, 200, 200]
    assert len(set(app.threads)) == 3  # three at once: three threads
    await settled(threads, 1)  # one kept; the other two were told to end, and do
    deadline = time.monotonic() + 5
    while len(running(app.threads)) > 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert len(running(app.threads)) == 1


def running(idents: list[int]) -> set[int]:
    return set(idents) & {t.ident for t in threading.enumerate()}


async def test_a_request_cancelled_while_its_code_runs_does_not_hold_up_the_next() -> None:
    # The browser went away: the request is cancelled, but its synchronous code runs on to
    # its end. The next request must not wait for it on the same thread.
    app = ThreadApp()
    app.hold.clear()
    threads = ReusedThreads(app)
    first = asyncio.create_task(get(threads))
    await asyncio.to_thread(app.started.wait, 5)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert len(threads.idle) == 0  # its executor is still busy
    app.started.clear()
    second = asyncio.create_task(get(threads))
    await asyncio.to_thread(app.started.wait, 5)
    app.hold.set()
    assert (await second)["status"] == 200
    await settled(threads, 2)  # both back once the first one's code ended
    assert len(set(app.threads)) == 1  # only the second answered; on a thread of its own


@pytest.mark.django_db(transaction=True)
async def test_the_site_serves_its_pages_through_the_kept_threads() -> None:
    from config.asgi import router

    threads = router.application_mapping["http"]
    assert isinstance(threads, ReusedThreads)
    for _ in range(3):
        response = await get(router, "/")
        assert response["status"] == 200
        assert b"<html" in response["body"]
    deadline = time.monotonic() + 5
    while not threads.idle and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert threads.idle
