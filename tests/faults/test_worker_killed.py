"""A Celery worker killed with SIGKILL in the middle of a bot's turn: the turn is played exactly
once after a new worker starts. And one killed while it keeps a bot's turn until the bot's delay
has passed: the next worker plays that turn when it is due.

Proves: the bot's move, written but not committed when the worker died, leaves nothing behind
(the game is still at that move number and the log has no such move); a worker that starts
sends every bot turn a game waits for again (config/celery.py), so the new worker plays the
turn with no wait for the beat's rescue (a minute or two) or for Redis's visibility timeout
(an hour);
and the turn is played once: the game is back at the member's turn with one bot move in the
log for it, and nothing later plays a second one.

Without the resend the turn is lost on both brokers: the filesystem broker deleted the message
when the killed worker took it, and Redis keeps it aside, unacknowledged, for an hour. The
kill lands mid-turn by construction: the first worker stops its bot turns inside their
transaction (tests/faults/stalling_worker.py) and the test waits for it to say so. It runs in
both runs: on a Redis of the test's own in the Redis run (the message the killed worker leaves
unacknowledged must not come back an hour later into another run's queue), and on the
filesystem broker in the embedded run.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from django.conf import settings
from pytest_django.fixtures import Settings

from games import services
from games.models import Move
from games.outbox import outbox
from tests.conftest import (
    empty_task_queue,
    kill_worker,
    make_user,
    start_celery_worker,
    stop,
    wait_for,
)
from tests.games.conftest import build_game
from tests.games.test_broker_outage import alices_turn, the_move_that_ends_alices_turn

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WAIT = 60.0


@pytest.fixture
def worker_env(process_env: dict[str, str], request: pytest.FixtureRequest) -> dict[str, str]:
    """The workers' environment: on the Redis run, with the broker (and this process's tasks)
    on a Redis of the test's own."""
    if not settings.REDIS_URL:
        empty_task_queue()
        return process_env
    own = request.getfixturevalue("broker")
    return {**process_env, "REDIS_URL": own.url, "CHANNELS_PREFIX": "club-faults-worker"}


def test_a_bot_turn_cut_by_a_killed_worker_is_played_once_by_the_next_worker(
    worker_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    settings.BOT_MOVE_DELAY = 0
    log, marker = tmp_path / "workers.log", tmp_path / "stalled-at"
    stalling = start_celery_worker(
        {**worker_env, "STALL_MARKER": str(marker)},
        log,
        [sys.executable, "-m", "tests.faults.stalling_worker"],
    )
    try:
        alice = make_user("alice-killed-worker")
        game = build_game(alice, "easy", seed=5)
        move = the_move_that_ends_alices_turn(game)
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        game.refresh_from_db()
        turn = game.version  # the bot's move will be number `turn`
        wait_for(marker.exists, "the bot turn did not start", log, WAIT)
        assert marker.read_text() == str(turn)
        # The move is written inside the worker's transaction, not committed.
        assert not Move.objects.filter(game=game, number=turn).exists()
        os.kill(stalling.pid, signal.SIGKILL)
        stalling.wait(timeout=30)
        until_the_broker_let_go(worker_env, log)
    finally:
        stop(stalling)

    game.refresh_from_db()
    assert game.version == turn  # nothing of the cut turn is left
    worker = start_celery_worker(worker_env, log)
    try:
        wait_for(lambda: alices_turn(game), "the bot did not play its turn", log, WAIT)
        played = game.version
        # Whatever the broker still holds for that turn has been run by now: a ping goes
        # through the same queue, behind it.
        from config.celery import app

        app.send_task("accounts.tasks.ping").get(timeout=WAIT)
    finally:
        stop(worker)
        assert outbox.wait_until_idle(30)

    game.refresh_from_db()
    assert game.version == played
    log_of_game = list(game.moves.order_by("number").values_list("number", "seat", "by_bot"))
    assert [number for number, _, _ in log_of_game] == list(range(played))
    # The bot's turn: its moves since `turn`, each by the bot, and then the member's turn.
    assert all(seat == 1 and by_bot for _, seat, by_bot in log_of_game[turn:])
    assert played > turn


def until_the_broker_let_go(env: dict[str, str], log: Path) -> None:
    """On the Redis run, wait until Redis has dropped the killed worker's connections. A
    process killed while it waits for a message (BRPOP) stays among Redis's blocked clients
    until Redis reads the end of its connection, and a message pushed before then can be
    handed to the dead connection and lost: once it was the next worker's readiness ping."""
    if not settings.REDIS_URL:
        return
    import redis

    broker = redis.Redis.from_url(env["REDIS_URL"])
    wait_for(
        lambda: broker.info("clients")["blocked_clients"] == 0,
        "Redis did not drop the killed worker's connections",
        log,
        WAIT,
    )


def queue_is_empty(env: dict[str, str]) -> bool:
    """No message waits on the broker's play queue: a worker has taken each one."""
    if settings.REDIS_URL:
        import redis

        return redis.Redis.from_url(env["REDIS_URL"]).llen(settings.PLAY_QUEUE) == 0
    queue = settings.CELERY_FS_DIR / "queue"
    return not any(path.is_file() for path in queue.iterdir())


def test_a_bot_turn_a_killed_worker_kept_for_later_is_played_when_due_by_the_next_worker(
    worker_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    """The bot waits `BOT_MOVE_DELAY` before its turn: its task travels with a countdown, and
    the worker that takes it keeps it in memory until then. Killed meanwhile, it takes the
    turn with it (no beat runs here to rescue it); the next worker sends it again for the
    time it is due, neither at once nor a minute late."""
    delay = 8.0
    settings.BOT_MOVE_DELAY = delay
    env = {**worker_env, "BOT_MOVE_DELAY": str(delay)}
    log = tmp_path / "workers.log"
    first = start_celery_worker(env, log)
    try:
        alice = make_user("alice-waiting-bot")
        game = build_game(alice, "easy", seed=5)
        move = the_move_that_ends_alices_turn(game)
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        assert outbox.wait_until_idle(30)
        game.refresh_from_db()
        turn, began = game.version, game.turn_started_at
        wait_for(lambda: queue_is_empty(env), "the worker did not take the bot's turn", log, WAIT)
        kill_worker(first)
        until_the_broker_let_go(env, log)
    finally:
        stop(first)

    second = start_celery_worker(env, log)
    try:
        wait_for(lambda: alices_turn(game), "the bot did not play its turn", log, WAIT)
    finally:
        stop(second)
        assert outbox.wait_until_idle(30)
    bot_moves = list(game.moves.filter(number__gte=turn).order_by("number"))
    assert bot_moves and all(m.seat == 1 and m.by_bot for m in bot_moves)
    played_after = (bot_moves[0].created_at - began).total_seconds()
    # When due (the countdown is counted from the turn's start), and long before the beat's
    # rescue would have sent it (a minute after it was due).
    assert delay - 0.5 <= played_after < delay + 30
