"""The threads a server's live hub (games/live.py) reads games and draws boards on, and the reads
waiting for them.

A hub has `HUB_THREADS` threads, each with its own database connection kept between reads. A
read goes to the thread with the fewest reads waiting, so one game's database round trips
overlap another game's drawing (the drawing holds the interpreter; a round trip does not), and a
slow board holds up only its own thread.

Announcements of one game that arrive while its read still waits for a thread join that read
(`Reading.join`): the read takes place later than all of them, so it finds the newest move and
serves them all with one read and one drawing of each view. Under a burst this keeps the queue
at one read a game, where it grew by one read an announcement, each finding the same board.
A read that has begun is never joined: an announcement after it may be of a move it did not see.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Container, Mapping
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.db import close_old_connections

from games.live_patches import BoardKey

# Two threads: a board is drawn in a few milliseconds of the interpreter's time and a read
# waits a round trip or two on PostgreSQL, so a second thread fills those waits; more would
# only take turns at the interpreter, and each keeps a connection of the pool (DB_POOL_SIZE).
HUB_THREADS = 2

View = tuple[int, str]  # member id, language


class Reading[Result]:
    """One game's read and drawing, from the announcement that asked for it until a thread
    begins it, and its result for every announcement that joined it."""

    def __init__(self, wanted: set[View], bases: Mapping[BoardKey, str]) -> None:
        self.wanted = set(wanted)
        self.bases = dict(bases)
        self.began = False
        self.lock = threading.Lock()
        self.result: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self.joined = 0

    def join(self, wanted: set[View], bases: Mapping[BoardKey, str]) -> bool:
        """Add the views and bases of a later announcement of the game; False when the read has
        begun (the caller reads again)."""
        with self.lock:
            if self.began:
                return False
            self.wanted |= wanted
            self.bases.update(bases)
            self.joined += 1
            return True

    def begin(self) -> tuple[set[View], dict[BoardKey, str]]:
        """In the thread: what to read and draw, as it stands when the read begins."""
        with self.lock:
            self.began = True
            return set(self.wanted), dict(self.bases)


type ReadAndDraw[Result] = Callable[
    [int, set[View], Container[BoardKey], Mapping[BoardKey, str]], Result
]


class HubThreads[Result]:
    """The hub's threads (see the module's docstring). `read_and_draw` runs on them;
    `hand_back` gives each thread's connection back to the pool."""

    def __init__(self, read_and_draw: ReadAndDraw[Result], count: int = HUB_THREADS) -> None:
        self.read_and_draw = read_and_draw
        self.executors = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"live-hub-{n}")
            for n in range(count)
        ]
        self.waiting = [0] * count
        self.calls = [
            SyncToAsync(self._read, thread_sensitive=False, executor=executor)
            for executor in self.executors
        ]
        self.hand_backs = [
            SyncToAsync(close_old_connections, thread_sensitive=False, executor=executor)
            for executor in self.executors
        ]

    def _read(
        self, game_id: int, reading: Reading[Result], drawn_before: Container[BoardKey]
    ) -> Result:
        wanted, bases = reading.begin()
        return self.read_and_draw(game_id, wanted, drawn_before, bases)

    async def run(
        self, game_id: int, reading: Reading[Result], drawn_before: Container[BoardKey]
    ) -> Result:
        """`reading` on the least busy thread; its result is also given to the announcements
        that join it meanwhile."""
        n = min(range(len(self.executors)), key=self.waiting.__getitem__)
        self.waiting[n] += 1
        try:
            result = await self.calls[n](game_id, reading, drawn_before)
        except BaseException as exc:
            if not reading.result.done():
                if isinstance(exc, asyncio.CancelledError):
                    reading.result.cancel()
                else:
                    reading.result.set_exception(exc)
                    reading.result.exception()  # retrieved: joiners may be none
            raise
        finally:
            self.waiting[n] -= 1
        reading.result.set_result(result)
        return result

    async def hand_back(self) -> None:
        for hand_back in self.hand_backs:
            with contextlib.suppress(Exception):
                await hand_back()

    def hand_back_later(self) -> None:
        """`hand_back` from outside the event loop (the hub stopped, or its loop ended)."""
        for executor in self.executors:
            with contextlib.suppress(RuntimeError):  # the interpreter is shutting down
                executor.submit(close_old_connections)
