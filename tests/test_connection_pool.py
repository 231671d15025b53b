"""PostgreSQL connections under ASGI: each server process holds at most DB_POOL_SIZE of them,
however many requests it answers at once (config/settings.py, docs/operations.md "Several servers
and workers").

Under daphne (the site's server then) every request ran in a thread of its own; with persistent
connections each of those threads kept one open, and three servers and a worker ran PostgreSQL out
of its 100. The count is read from PostgreSQL itself (pg_stat_activity), by the application name the
servers connect with (libpq's PGAPPNAME).
"""

from __future__ import annotations

import os
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.conftest import make_user, start_server, stop
from tests.test_processes import session_cookie_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SERVERS = 3
POOL_SIZE = 2
AT_ONCE_PER_SERVER = 10
REQUESTS_PER_SERVER = 60
# The most connections the servers may hold together: one pool of POOL_SIZE per server.
LIMIT = SERVERS * POOL_SIZE


@pytest.fixture
def pooled_servers(process_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[list[str], str]]:
    """SERVERS ASGI server processes with a pool of POOL_SIZE each; their addresses and the
    application name their connections carry."""
    if not settings.USING_POSTGRES:
        pytest.skip("connection pooling is a PostgreSQL setting (DATABASE_URL)")
    app_name = f"club-pool-test-{os.getpid()}"
    env = {**process_env, "DB_POOL_SIZE": str(POOL_SIZE), "PGAPPNAME": app_name}
    procs, addresses = [], []
    try:
        for index in range(SERVERS):
            proc, address = start_server(env, tmp_path / f"server-{index}.log")
            procs.append(proc)
            addresses.append(address)
        yield addresses, app_name
    finally:
        for proc in procs:
            stop(proc)


def connection_info() -> str:
    db = settings.DATABASES["default"]
    return psycopg.conninfo.make_conninfo(
        host=db["HOST"] or "", port=str(db["PORT"] or ""), user=db["USER"], dbname=db["NAME"]
    )


class Sampler(threading.Thread):
    """Counts the servers' connections in pg_stat_activity, every few milliseconds."""

    def __init__(self, app_name: str) -> None:
        super().__init__(daemon=True)
        self.app_name = app_name
        self.counts: list[int] = []
        self.done = threading.Event()

    def count(self, db: psycopg.Connection) -> int:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            (self.app_name,),
        ).fetchone()
        return int(row[0]) if row else 0

    def run(self) -> None:
        with psycopg.connect(connection_info(), autocommit=True) as db:
            while not self.done.is_set():
                self.counts.append(self.count(db))
                time.sleep(0.005)
            self.counts.append(self.count(db))


def test_many_servers_worth_of_concurrent_requests_stay_within_the_pools(
    pooled_servers: tuple[list[str], str],
) -> None:
    addresses, app_name = pooled_servers
    member = make_user("pool-member")
    cookie = session_cookie_for(member)

    def get(address: str, path: str) -> int:
        request = urllib.request.Request(f"http://{address}{path}", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            return int(response.status)

    paths = ["/games/", "/", "/members/me/", "/games/history/"]
    jobs = [
        (address, paths[n % len(paths)])
        for n in range(REQUESTS_PER_SERVER)
        for address in addresses
    ]
    sampler = Sampler(app_name)
    sampler.start()
    try:
        with ThreadPoolExecutor(SERVERS * AT_ONCE_PER_SERVER) as pool:
            statuses = list(pool.map(lambda job: get(*job), jobs))
    finally:
        sampler.done.set()
        sampler.join(30)

    assert statuses == [200] * len(jobs)
    # The servers did use the database: each holds at least one connection...
    assert sampler.counts[-1] >= SERVERS
    # ...and never more than its pool, with 10 requests at a time on each.
    assert max(sampler.counts) <= LIMIT, max(sampler.counts)
