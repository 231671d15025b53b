"""The thread a server's live hub (games/live.py) reads games and draws boards on, and the reads
waiting for it.

The hub has one thread, with its own database connection kept between reads. A second thread
was measured (docs/benchmarks.md, "2 December 2026, evening"): it overlapped one game's round
trips with another's drawing, but took the interpreter from the request thread, and the move
posts were slower (p50 340 ms against 203 ms, in the load test at 100 games on a busy machine).

Announcements of one game that arrive while its read still waits for the thread join that read
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


class HubThread[Result]:
    """The hub's thread (see the module's docstring). `read_and_draw` runs on it; `hand_back`
    gives its connection back to the pool."""

    def __init__(self, read_and_draw: ReadAndDraw[Result]) -> None:
        self.read_and_draw = read_and_draw
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-hub")
        self.call = SyncToAsync(self._read, thread_sensitive=False, executor=self.executor)
        self.close = SyncToAsync(
            close_old_connections, thread_sensitive=False, executor=self.executor
        )

    def _read(
        self, game_id: int, reading: Reading[Result], drawn_before: Container[BoardKey]
    ) -> Result:
        wanted, bases = reading.begin()
        return self.read_and_draw(game_id, wanted, drawn_before, bases)

    async def run(
        self, game_id: int, reading: Reading[Result], drawn_before: Container[BoardKey]
    ) -> Result:
        """`reading` on the thread; its result is also given to the announcements that join
        it meanwhile."""
        try:
            result = await self.call(game_id, reading, drawn_before)
        except BaseException as exc:
            if not reading.result.done():
                if isinstance(exc, asyncio.CancelledError):
                    reading.result.cancel()
                else:
                    reading.result.set_exception(exc)
                    reading.result.exception()  # retrieved: joiners may be none
            raise
        reading.result.set_result(result)
        return result

    async def hand_back(self) -> None:
        with contextlib.suppress(Exception):
            await self.close()

    def hand_back_later(self) -> None:
        """`hand_back` from outside the event loop (the hub stopped, or its loop ended)."""
        with contextlib.suppress(RuntimeError):  # the interpreter is shutting down
            self.executor.submit(close_old_connections)
