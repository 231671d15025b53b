"""The site's channel layers: Redis's, receiving each message in one command; and for the
embedded (no Redis) configuration, one that works across processes.

channels-redis receives a message in four commands: a Lua script that puts back what a
cancelled receive left in a backup queue, the blocking pop, the copy into that backup queue,
and its removal once the message is handed over. A server's hub receives every move's
announcement (games/live.py), and receiving one took 0.5 ms of the server's CPU, 0.17 ms in
one command (docs/benchmarks.md, "The servers, third round"). `RedisChannelLayer`
pops the message and hands it over, with no backup: a receive cancelled between the two (a
socket closing while its receive waits for the process's messages) may lose that one
message, which principle 7 allows (layers deliver at most once; a page that misses a board
catches up).

`EmbeddedChannelLayer`: Channels' in-memory layer lives inside one process, so a bot move
played by a Celery worker would never reach the browsers connected to the ASGI server. This
layer keeps the in-memory layer for everything local and additionally writes every
``group_send`` to a small SQLite file. Each process that has consumers polls that file and
delivers messages written by other processes to its own local groups. Only group messages
cross processes, which is all the site uses: consumers join groups, and services announce
changes with ``group_send``.

Delivery stays at most once, as with every channel layer (DESIGN.md principle 7): a browser that
misses a message notices the gap in move numbers and fetches the board over HTTP.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer

POLL_INTERVAL = 0.1  # seconds between two looks at the relay file
KEEP_SECONDS = 120  # rows older than this are deleted


class EmbeddedChannelLayer(InMemoryChannelLayer):
    def __init__(self, path: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.path = Path(path)
        self.origin = uuid.uuid4().hex
        self._poller: asyncio.Task[None] | None = None
        self._poller_loop: asyncio.AbstractEventLoop | None = None
        self._last_id = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS relay ("
                " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                " origin TEXT NOT NULL, grp TEXT NOT NULL, message TEXT NOT NULL,"
                " created REAL NOT NULL)"
            )

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    # --- writing ------------------------------------------------------------------------------

    def _store(self, group: str, message: dict[str, Any]) -> None:
        now = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT INTO relay (origin, grp, message, created) VALUES (?, ?, ?, ?)",
                (self.origin, group, json.dumps(message), now),
            )
            db.execute("DELETE FROM relay WHERE created < ?", (now - KEEP_SECONDS,))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.to_thread(self._store, group, message)
        await super().group_send(group, message)

    # --- reading ------------------------------------------------------------------------------

    def _fetch(self) -> list[tuple[int, str, str]]:
        with self._connect() as db:
            return db.execute(
                "SELECT id, grp, message FROM relay WHERE id > ? AND origin != ? ORDER BY id",
                (self._last_id, self.origin),
            ).fetchall()

    def _newest_id(self) -> int:
        with self._connect() as db:
            row = db.execute("SELECT COALESCE(MAX(id), 0) FROM relay").fetchone()
            return int(row[0])

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_INTERVAL)
            if not self.groups:
                continue
            for row_id, group, message in await asyncio.to_thread(self._fetch):
                self._last_id = row_id
                await super().group_send(group, json.loads(message))

    def _ensure_poller(self) -> None:
        loop = asyncio.get_running_loop()
        if self._poller is not None and not self._poller.done() and self._poller_loop is loop:
            return
        self._poller_loop = loop
        # Read the starting point before returning, so that nothing sent after this group_add
        # is skipped (one tiny local read).
        self._last_id = self._newest_id()
        self._poller = loop.create_task(self._poll())

    async def group_add(self, group: str, channel: str) -> None:
        await super().group_add(group, channel)
        self._ensure_poller()


class RedisChannelLayer(ChannelsRedisLayer):
    """channels-redis 4.3's layer with one command per message received (the module's
    docstring says why); sending, groups and expiry are channels-redis's own."""

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        popped = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if popped is None else popped[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """Nothing to clean: no backup is kept."""
