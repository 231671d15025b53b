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
import logging
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer

logger = logging.getLogger(__name__)

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


# A group's message added to each of its channels (channels-redis 4.3's script, with the drop of
# each channel's expired messages that channels-redis sends before it in a pipeline of its own).
GROUP_SEND = """
    local over_capacity = 0
    local oldest = ARGV[#ARGV - 2]
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i = 1, #KEYS do
        redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""


class RedisChannelLayer(ChannelsRedisLayer):
    """channels-redis 4.3's layer with one command per message received, and a group's message
    sent in two round trips rather than four (the module's docstring says why); groups and
    expiry are channels-redis's own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Sent by its digest (EVALSHA), loaded once per Redis, not sent whole with each message.
        self._group_send_script: Any = None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """channels-redis's `group_send` in two round trips: the group's expired members dropped
        and the others read in one pipeline, then one script per Redis that drops each
        channel's expired messages and adds the message to each channel with room for it
        (channels-redis sends those four steps one round trip each)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        pipe = connection.pipeline(transaction=False)
        pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
        pipe.zrange(key, 0, -1)
        _, members = await pipe.execute()
        channel_names = [member.decode("utf8") for member in members]
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channel_names, message
        )
        if self._group_send_script is None:
            self._group_send_script = connection.register_script(GROUP_SEND)
        for index, channel_keys in by_connection.items():
            now = time.time()
            args = [messages[channel_key] for channel_key in channel_keys]
            args += [capacities[channel_key] for channel_key in channel_keys]
            args += [int(now) - int(self.expiry), now, self.expiry]
            over_capacity = await self._group_send_script(
                keys=channel_keys, args=args, client=self.connection(index)
            )
            if over_capacity > 0:
                logger.info(
                    "%s of %s channels over capacity in group %s",
                    over_capacity,
                    len(channel_names),
                    group,
                )

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        popped = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if popped is None else popped[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """Nothing to clean: no backup is kept."""
