"""The Redis cache, and what the site does while Redis cannot be reached.

The cache holds allauth's rate limits (failed log-ins, sign-ups, password resets). A Redis outage
must not turn every sign-in into an error page, nor switch the limits off: while Redis is
unreachable each process counts in a cache of its own memory instead, so the limits still hold
per server process, and Redis is tried again after `RETRY_AFTER` seconds. Counts made during the
outage stay in that process; nothing else in the cache needs to survive one.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_AFTER = 30.0  # seconds spent on the local cache before Redis is tried again
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class RedisCacheWithFallback(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        shared = ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION")
        self.fallback = LocMemCache(
            f"redis-fallback:{server}", {k: params[k] for k in shared if k in params}
        )
        self.down_until = 0.0

    def _either(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self.down_until:
            try:
                return getattr(RedisCache, method)(self, *args, **kwargs)
            except UNREACHABLE as exc:
                logger.warning(
                    "Redis cache unreachable (%s); this process uses its own memory for %d s",
                    exc,
                    RETRY_AFTER,
                )
                self.down_until = time.monotonic() + RETRY_AFTER
        return getattr(self.fallback, method)(*args, **kwargs)

    # Every operation the Redis backend implements itself; the rest of Django's cache API
    # (decr, get_or_set, the async variants...) is built on these.
    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")
