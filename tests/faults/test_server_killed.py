"""A server process (infra/serve.py) killed with SIGKILL while 100 spectator sockets watch.

Proves: with two servers sharing PostgreSQL and Redis and the sockets spread over both, killing
one loses no socket for good: those of the dead server reconnect to the other one (the test's
client sends them there, as a load balancer would), and every one of the 100 then receives the
board of the latest move, so none is left behind on an old board; the sockets of the server
that stayed up were never dropped. The moves are made while the sockets reconnect, so some
boards are missed in between: a page fetches those over HTTP when it sees the gap (principle 7,
tests/e2e/test_server_restart.py); here the next live board must reach every socket.

The servers, sockets and reconnecting client are tools/livestack.py's, as the live
benchmark and the load test use them. It runs in the PostgreSQL and Redis run: several servers
need both (docs/operations.md, "Several servers and workers").
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings

from games import services
from games.models import Game
from tests.conftest import make_user, stop
from tests.games.conftest import build_game, first_legal_move
from tests.test_processes import session_cookie_for
from tests.test_redis import in_thread
from tools import livestack

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SOCKETS = 100
MEMBERS = 10  # spectators, each with SOCKETS // MEMBERS pages open
WAIT = 60.0


def test_the_sockets_of_a_killed_server_reconnect_to_the_other_and_catch_up(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    if not (settings.USING_POSTGRES and settings.REDIS_URL):
        pytest.skip("several servers share PostgreSQL and Redis; the embedded run has one")
    alice, bob = make_user("alice-servers"), make_user("bob-servers")
    game = build_game(alice, bob, seed=13)
    cookies = [session_cookie_for(make_user(f"watcher-{n}")) for n in range(MEMBERS)]
    processes: list[subprocess.Popen[bytes]] = []

    def move() -> int:
        game.refresh_from_db()
        seat, chosen = first_legal_move(game)
        services.play_move(game_id=game.pk, seat=seat, move=chosen, expected_version=game.version)
        return game.version + 1

    async def every_socket_has(watches: list[livestack.Watch], version: int) -> bool:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if all(version in w.arrivals for w in watches):
                return True
            await asyncio.sleep(0.05)
        return False

    async def run(servers: list[str]) -> tuple[list[livestack.Watch], set[int], int]:
        watches = [livestack.Watch(game.pk, servers[n % 2]) for n in range(SOCKETS)]
        tasks = await livestack.open_sockets(
            [(w, cookies[n % MEMBERS], None) for n, w in enumerate(watches)]
        )
        try:
            version = await asyncio.to_thread(in_thread(move))
            assert await every_socket_has(watches, version), "not every socket was live"
            os.kill(processes[0].pid, signal.SIGKILL)
            processes[0].wait(timeout=30)
            moved = {id(w) for w in watches if w.server == servers[0]}
            for watch in watches:
                watch.server = servers[1]
            # Moves go on while the sockets reconnect, until one reaches all of them.
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                version = await asyncio.to_thread(in_thread(move))
                if await every_socket_has(watches, version):
                    break
            return watches, moved, version
        finally:
            await livestack.close_sockets(tasks)

    try:
        servers = livestack.start_servers(2, tmp_path, processes, process_env)
        watches, moved, version = asyncio.run(run(servers))
    except (AssertionError, TimeoutError) as failure:
        logs = "\n".join(p.read_text()[-2000:] for p in sorted(tmp_path.glob("uvicorn-*.log")))
        raise AssertionError(f"{failure!r}; the servers' logs:\n{logs}") from None
    finally:
        for proc in processes:
            stop(proc)

    assert len(moved) == SOCKETS // 2
    assert Game.objects.get(pk=game.pk).version == version
    behind = [n for n, w in enumerate(watches) if version not in w.arrivals]
    assert not behind, f"{len(behind)} of {SOCKETS} sockets never got move {version}: {behind}"
    # Those of the dead server came back; the others were never dropped.
    assert all(w.reconnects >= 1 for w in watches if id(w) in moved)
    assert all(w.reconnects == 0 for w in watches if id(w) not in moved)
