"""kombu's Redis transport, with one Redis client per channel instead of one per command.

kombu 5.7's Redis channel makes a new `redis.Redis` client (with its table of response
callbacks) for every command it sends outside its consumer's poll: each message published
(LPUSH), each message taken (its place among the unacknowledged: ZADD and HSET), each
acknowledgement (ZREM and HDEL). A play worker's bot turn does all three, and a client took
about 60 µs of CPU to make under the benchmark's load (docs/benchmarks.md, "CPU per move
(issue 37)", sixth round). The client holds no connection of its own: each command takes one
from the channel's connection pool and gives it back, so one client serves every command of
the channel, from any thread. A channel that drops its pool (a lost broker: kombu disconnects
and forgets it) gets a client of the new pool with it.

config/celery.py names this transport for `redis://` and `rediss://` broker URLs.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _kept_client: Any = None  # the client of `_kept_pool`, made on first use
    _kept_pool: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:  # the consumer's own client (BRPOP), which kombu already keeps
            return super()._create_client(asynchronous=True)
        pool = self.pool
        if self._kept_client is None or self._kept_pool is not pool:
            self._kept_client = super()._create_client()
            self._kept_pool = pool
        return self._kept_client


class Transport(redis.Transport):
    Channel = Channel
