"""Fixtures shared with tests/test_redis.py: a Redis of the test's own and a daphne on it."""

from __future__ import annotations

from tests.test_redis import own_redis, redis_site  # noqa: F401 (fixtures)
