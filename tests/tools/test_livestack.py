"""Where the machine's CPU went while the benchmarks measured (tools/livestack.py):
each kind of process's core-seconds per move."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from infra import serve
from tools import livestack
from tools.livestack import CpuSample

BURN = 4_000_000  # squares summed by a child process: about half a second of CPU


def test_processes_are_told_apart_by_their_command_line() -> None:
    kind = livestack.process_kind
    assert kind("/work/.venv/bin/python -m infra.serve --port 8001", 1) == "ASGI servers"
    assert kind("/work/.venv/bin/uvicorn --host 127.0.0.1 config.asgi:application", 1) == (
        "ASGI servers"
    )
    assert kind("/work/.venv/bin/celery -A config worker -n load1", 1) == "Celery workers"
    assert kind("postgres: 15/main: postgres club_load 127.0.0.1(40512) idle", 1) == "PostgreSQL"
    assert kind("redis-server 127.0.0.1:6379", 1) == "Redis"
    assert kind("python -m tools.arena babylon", 1) == "other"
    assert kind("python -m tools.load --games 2", os.getpid()) == "this command"


def test_the_cpu_line_splits_the_time_per_move_by_kind_of_process() -> None:
    before = CpuSample(10.0, 40.0, 1.0, {"ASGI servers": 10.0, "PostgreSQL": 5.0})
    after = CpuSample(14.0, 60.0, 1.5, {"ASGI servers": 12.0, "PostgreSQL": 6.0, "Redis": 0.5})
    line = livestack.cpu_line(before, after, 100).splitlines()
    # 4 busy core-seconds of 20, 0.5 of them the command's own: 3.5 s / 100 moves = 35 ms.
    assert line[0].startswith("CPU while measuring: 4 of 20 core-seconds busy (20%)")
    assert line[0].endswith("35 ms per move")
    # 2 s, 1 s and 0.5 s over 100 moves, the largest first.
    assert line[1] == "CPU per move by process (ms): ASGI servers 20.0, PostgreSQL 10.0, Redis 5.0"


def test_this_process_is_found_among_the_machines() -> None:
    spent = sum(i * i for i in range(300_000))  # some CPU of its own
    assert spent > 0
    kinds = livestack.process_cpu()
    assert kinds["this command"] > 0


def test_every_server_the_benchmark_offers_is_installed() -> None:
    """`bench_live --asgi` starts each server as a program of its own (daphne is no app of
    the site's): each must be there to compare them again."""
    for kind in serve.KINDS:
        assert Path(serve.argv("127.0.0.1", 8000, kind)[0]).is_file(), kind


def test_only_the_benchmarks_own_servers_workers_and_backends_count_as_theirs() -> None:
    found = {
        10: (1, "/venv/bin/python -m infra.serve --port 8001", 1.0),  # started by the benchmark
        11: (1, "/venv/bin/python -m infra.workers supervise [...]", 1.0),  # the benchmark's
        12: (11, "/venv/bin/celery -A config worker -Q play -n play1@%h", 1.0),  # its process
        20: (1, "/venv/bin/celery -A config worker -Q play", 1.0),  # another session's
        30: (1, "postgres: 15/main: postgres club_bench 127.0.0.1(52076) idle", 1.0),
        31: (1, "postgres: 15/main: postgres club_other 127.0.0.1(52080) COMMIT", 1.0),
        32: (1, "postgres: 15/main: background writer", 1.0),  # serves every database
    }
    mine = livestack.Mine(pids=frozenset({10, 11}), database="club_bench")
    theirs = {
        pid
        for pid, (_, command, _) in found.items()
        if livestack.is_mine(pid, livestack.process_kind(command, pid), command, found, mine)
    }
    assert theirs == {10, 11, 12, 30, 32}
    # The play worker's supervisor is counted with its processes.
    assert livestack.process_kind(found[11][1], 11) == "Celery workers"


def test_a_worker_process_that_ended_keeps_its_cpu_in_the_count() -> None:
    """The play worker renews its processes and the heavy one recycles its children while a
    benchmark measures: their CPU stays counted once they end (with their parent, which
    collected them), or the workers' share of a long run would drop to nothing."""
    supervisor = (
        "import subprocess, sys, time; "
        f"subprocess.run([sys.executable, '-c', 'sum(i * i for i in range({BURN}))']); "
        "print('ended', flush=True); time.sleep(60)"
    )
    # The extra word gives the command line a worker's name (`process_kind`).
    proc = subprocess.Popen(
        [sys.executable, "-c", supervisor, "infra.workers"], stdout=subprocess.PIPE
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"ended\n"
        mine = livestack.Mine(pids=frozenset({proc.pid}), database="none")
        started = time.process_time()
        assert sum(i * i for i in range(BURN)) > 0  # the child's work, here, for its CPU
        child_alone = time.process_time() - started
        workers = livestack.process_cpu(mine)["Celery workers"]
        # The supervisor's own start is small beside the work its child did before it ended.
        assert workers >= 0.7 * child_alone
    finally:
        proc.kill()
        proc.wait()


def test_a_board_missed_for_a_move_made_at_once_is_told_apart_from_one_lost() -> None:
    # Game 1: boards 5 and 6 committed 10 ms apart (two offers at once), then 7 four seconds
    # later, then 8. The socket got 6 (its read found both offers), then 8 only.
    committed = {(1, 5): 100.0, (1, 6): 100.01, (1, 7): 104.0, (1, 8): 108.0}
    watch = livestack.Watch(game_id=1, server="a", connected_at=50.0)
    watch.arrivals = {6: 100.03, 8: 108.02}
    other = livestack.Watch(game_id=2, server="b", connected_at=50.0)  # another game's socket
    latencies, expected, lost, superseded = livestack.arrivals_of(
        [watch, other], committed, committed
    )
    assert expected == 4 and lost == 2
    # 5 had the board of 6 in its place; 7 had none: 8 came four seconds after it.
    assert superseded == 1
    assert sorted(round(ms) for ms in latencies) == [20, 20]


def trace(commit: float) -> dict[str, float]:
    """A board's trace whose announcement committed at `commit`, each later hop 1 ms on."""
    return {hop: commit + n / 1000 for n, hop in enumerate(livestack.HOPS)}


def test_a_board_read_for_an_earlier_moves_announcement_counts_from_that_moves_insert() -> None:
    # Move 3 was inserted at 100.000 and committed 5 ms later; its announcement waited in the
    # hub's queue until move 4 (inserted at 102.000) was made, so the board the socket got
    # shows 4 but carries 3's trace. Move 5's board carries its own trace.
    committed = {(1, 3): 100.0, (1, 4): 102.0, (1, 5): 110.0}
    watch = livestack.Watch(game_id=1, server="a", connected_at=50.0)
    watch.traces = {4: trace(100.005), 5: trace(110.008)}
    watch.arrivals = {4: 102.1, 5: 110.02}
    lines = livestack.hop_lines([watch], committed)
    first = next(line for line in lines if line.startswith("  insert -> commit:"))
    # 5 ms (move 3's) and 8 ms (move 5's): never the -1,995 ms of 4's insert after 3's commit.
    assert first == "  insert -> commit: p50 5.0, p95 8.0, p99 8.0"
    # Each board's arrival counts from its own send: 4's board 2.09 s after it, 5's 7 ms.
    arrival = next(line for line in lines if line.startswith("  send -> arrival:"))
    assert arrival == "  send -> arrival: p50 7.0, p95 2090.0, p99 2090.0"
