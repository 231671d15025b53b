from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def fresh_cache(settings: Settings, request: pytest.FixtureRequest) -> None:
    """Each test gets an empty cache of its own.

    allauth keeps its rate limits (failed log-ins, password changes) in the cache, and the
    site's cache (files under VAR_DIR, or Redis) outlives the test database: an earlier test
    or run would count against this one. A private in-memory cache is forgotten afterwards,
    where clearing the shared one would also wipe what else lives in Redis.
    """
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }
