"""Work that must not hold up a request: one background thread per process sends it in order.

A member's move is stored when its transaction commits; telling the broker about the next
bot turn comes after, and the broker may be down or hang. That wait belongs to nobody's
request: after commit the services hand the sending to this thread and answer at once.

A job that finds the broker unreachable (it raises kombu's `OperationalError`, as a Celery
task's `apply_async` does once its own few quick retries are spent) is tried again every
`RETRY_SECONDS` until the broker takes it, and the jobs behind it wait their turn: a bot's turn
sent during a Redis outage is sent when Redis answers again, by the process that has it, with
no restart. One warning says the broker is away and one that it took the job. Any other
failure is logged and the job dropped; what a process never sent (it ended, or more than
`LIMIT` jobs waited) is picked up by the beat tasks (`reschedule_stuck_bot_turns`,
`finish_unscored_games`), as when a task is lost.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

# Past this many waiting jobs (the broker has been away for a long time), new ones are dropped:
# every one of them is recovered by the beat tasks anyway.
LIMIT = 10_000
RETRY_SECONDS = 1.0  # between two tries of a job that found the broker unreachable


class Outbox:
    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]]] = queue.Queue(LIMIT)
        self._thread: threading.Thread | None = None
        self._pid = 0

    def submit(self, job: Callable[..., Any], *args: Any) -> bool:
        """Run `job(*args)` on the outbox thread, after the jobs already waiting."""
        self._ensure_thread()
        try:
            self._queue.put_nowait((job, args))
        except queue.Full:
            logger.error("%s is full; dropped %r", self.name, job)
            return False
        return True

    def wait_until_idle(self, timeout: float) -> bool:
        """Wait until every job submitted so far has run (tests, and the end of a process)."""
        done = threading.Event()
        if not self.submit(done.set):
            return False
        return done.wait(timeout)

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    def _ensure_thread(self) -> None:
        # A forked child (a prefork worker) inherits the queue but not the thread.
        if self._thread is not None and self._pid == os.getpid() and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is not None and self._pid == os.getpid() and self._thread.is_alive():
                return
            if self._pid != os.getpid():
                self._queue = queue.Queue(LIMIT)
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            job, args = self._queue.get()
            self._run_until_sent(job, args)

    def _run_until_sent(self, job: Callable[..., Any], args: tuple[Any, ...]) -> None:
        away_since = None
        while True:
            try:
                job(*args)
            except OperationalError as exc:
                if away_since is None:
                    away_since = time.monotonic()
                    what = describe(job, args)
                    logger.warning(
                        "%s: the broker cannot be reached (%s); trying %s again until it can",
                        self.name,
                        exc,
                        what,
                    )
                time.sleep(RETRY_SECONDS)
                continue
            except Exception:
                logger.exception("%s: %r failed", self.name, job)
                return
            if away_since is not None:
                waited = time.monotonic() - away_since
                logger.warning("%s: the broker took %s after %.0f s", self.name, what, waited)
            return


def describe(job: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """A job as the log names it: its function and arguments."""
    name = getattr(job, "__qualname__", None)
    return f"{job.__module__}.{name}{args!r}" if name else f"{job!r}{args!r}"


outbox = Outbox("games-outbox")


@atexit.register
def _drain() -> None:
    # A process that ends normally (a worker's warm shutdown) sends what it has first.
    if outbox.thread is not None and outbox.thread.is_alive():
        outbox.wait_until_idle(5.0)
