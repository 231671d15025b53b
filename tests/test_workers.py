"""Issue 37: the play worker is a supervisor of solo Celery workers (infra/workers.py). It keeps
its processes running, a process that holds too much memory after a task is replaced by a
fresh one while the bots play on, and the processes end with the supervisor."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings

from games import services
from games.outbox import outbox
from tests.conftest import make_user, start_celery_worker, stop, wait_for
from tests.games.conftest import build_game
from tests.games.test_broker_outage import alices_turn, the_move_that_ends_alices_turn
from tools.evening import children

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc"),
]

WAIT = 120.0


def test_a_play_process_over_its_memory_limit_is_replaced_and_the_bot_plays_on(
    process_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    """With a limit every process passes after its first task, each play process shuts down
    warm after a task and the supervisor starts a fresh one; the bot's turn, sent with its
    countdown, is still played, by whichever process holds it when it is due."""
    delay = 2.0
    settings.BOT_MOVE_DELAY = delay
    env = {**process_env, "BOT_MOVE_DELAY": str(delay)}
    env |= {"PLAY_PROCESSES": "1", "PLAY_MAX_MEMORY_PER_CHILD": "1"}
    log = tmp_path / "workers.log"
    supervisor = start_celery_worker(env, log)
    try:
        first = children(supervisor.pid)
        wait_for(
            lambda: children(supervisor.pid) not in ([], first),
            "no fresh process replaced the first",
            log,
            WAIT,
        )
        alice = make_user("alice-recycled")
        game = build_game(alice, "easy", seed=5)
        move = the_move_that_ends_alices_turn(game)
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        game.refresh_from_db()
        turn = game.version
        wait_for(lambda: alices_turn(game), "the bot did not play its turn", log, WAIT)
        assert supervisor.poll() is None
    finally:
        stop(supervisor)
        assert outbox.wait_until_idle(30)
    assert supervisor.returncode == 0
    bot_moves = list(game.moves.filter(number__gte=turn))
    assert bot_moves and all(m.seat == 1 and m.by_bot for m in bot_moves)
    text = log.read_text()
    assert "it stops for a fresh one" in text
    assert "play process 1" in text and "starting it again" in text


def test_the_supervisor_starts_a_killed_process_again_and_its_processes_end_with_it(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    from config.celery import app

    log = tmp_path / "workers.log"
    supervisor = start_celery_worker({**process_env, "PLAY_PROCESSES": "2"}, log)
    try:
        wait_for(lambda: len(children(supervisor.pid)) == 2, "two play processes", log, WAIT)
        killed, kept = children(supervisor.pid)
        os.kill(killed, signal.SIGKILL)
        wait_for(
            lambda: len(children(supervisor.pid)) == 2 and killed not in children(supervisor.pid),
            "the killed process was not started again",
            log,
            WAIT,
        )
        fresh = next(pid for pid in children(supervisor.pid) if pid != kept)
        assert app.send_task("accounts.tasks.ping", queue="play").get(timeout=60) == "pong"
        os.kill(supervisor.pid, signal.SIGKILL)
        supervisor.wait(timeout=30)
        wait_for(
            lambda: not any(Path(f"/proc/{pid}").exists() for pid in (kept, fresh)),
            "the play processes outlived their supervisor",
            log,
            WAIT,
        )
    finally:
        stop(supervisor)


def test_a_stopped_supervisor_stops_its_processes_warm(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    log = tmp_path / "workers.log"
    supervisor: subprocess.Popen[bytes] = start_celery_worker(process_env, log)
    processes = children(supervisor.pid)
    assert processes
    # Each has set up its shutdown (a process still starting would simply end).
    wait_for(lambda: log.read_text().count(" ready.") == len(processes), "all ready", log, WAIT)
    supervisor.terminate()
    assert supervisor.wait(timeout=60) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in processes)
    assert log.read_text().count("Warm shutdown") >= len(processes)


def shared_dirty_kib(pid: int) -> int:
    """Memory `pid` writes to that another process holds too: a fork's pages of its parent."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Shared_Dirty:"):
            return int(line.split()[1])
    raise AssertionError(f"no Shared_Dirty for process {pid}")


def test_the_play_processes_share_the_site_the_supervisor_imported(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    """Forked from the supervisor's import of the site, each process shares its pages, as a
    prefork pool's processes share their worker's; processes that each started Python anew
    would share none of them (only the files they map)."""
    log = tmp_path / "workers.log"
    supervisor = start_celery_worker({**process_env, "PLAY_PROCESSES": "2"}, log)
    try:
        wait_for(
            lambda: log.read_text().count(" ready.") == 2, "two play processes ready", log, WAIT
        )
        processes = children(supervisor.pid)
        assert len(processes) == 2
        for pid in processes:
            assert shared_dirty_kib(pid) > 10 * 1024
    finally:
        stop(supervisor)
