"""The load command (`python -m tools.load`) runs briefly and prints its figures: members
playing bots by HTTP on two servers and two workers, spectators watching over sockets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def postgres_and_redis_run() -> bool:
    import psycopg
    import redis

    try:
        with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", connect_timeout=2):
            pass
        redis.Redis(host="127.0.0.1", port=6379, socket_timeout=2).ping()
    except (psycopg.Error, redis.RedisError):
        return False
    return True


@pytest.mark.skipif(not postgres_and_redis_run(), reason="needs PostgreSQL and Redis locally")
def test_a_short_load_run_reports_every_figure_and_no_server_error() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tools.load", "--games", "2", "--spectators", "4"]
        + ["--seconds", "12", "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    for heading in (
        "moves/s",
        "POST to screen (ms): p50 ",
        "move POST (ms): p50 ",
        "move POST hop by hop (ms, p50 / p95 / p99):",
        "  render: ",
        "CPU per move by process (ms): ",
        "where a board's time went (ms, from the move's insert to its arrival at a socket):",
        "  publish -> receive: p50 ",
        "bot turn beyond the 0.5 s delay (ms): p50 ",
        "errors by status: ",
        "lost updates: ",
        "reconnects: ",
    ):
        assert heading in out, out
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["games"] == 2
    assert figures["spectators"] == 4
    # Each member plays first and thinks at most 8 s: within 12 s both have posted a move.
    assert figures["member_moves"] >= 2
    # A board reaches a screen after its move was posted, never before.
    for name in ("post_to_screen_ms", "move_post_ms"):
        assert 0 < figures[name]["p50"] <= figures[name]["p99"] <= figures[name]["max"]
    assert figures["server_errors"] == 0
    assert not any(status.startswith("5") for status in figures["errors_by_status"])
    assert isinstance(figures["lost"], int)
    assert isinstance(figures["reconnects"], int)


@pytest.mark.parametrize(("games", "servers"), [(200, 2), (7, 2), (100, 4), (5, 3), (3, 1)])
def test_each_games_sockets_are_on_two_servers_whatever_their_number(
    games: int, servers: int
) -> None:
    from tools.load import member_server, spectator_server

    spectators = 2 * games
    used: dict[int, set[int]] = {game: {member_server(game, servers)} for game in range(games)}
    for spectator in range(spectators):
        used[spectator % games].add(spectator_server(spectator, games, servers))
    assert all(len(places) == min(2, servers) for places in used.values())
    # The games spread evenly: no server holds more than its share of members.
    members = [member_server(game, servers) for game in range(games)]
    assert max(members.count(s) for s in range(servers)) == -(-games // servers)
