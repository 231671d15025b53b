"""Fixtures shared with tests/test_redis.py (a Redis of the test's own and an ASGI server on it) and
tests/games/test_worker_outage.py (this process's Celery tasks sent to that Redis)."""

from __future__ import annotations

from tests.games.test_worker_outage import broker  # noqa: F401 (fixtures)
from tests.test_redis import own_redis, redis_site  # noqa: F401
