"""A real Celery worker rides out a Redis outage while it holds a bot's turn waiting for its
countdown, and plays that turn once Redis is back, without a restart (infra/celery_consumer.py).

The test runs its own redis-server on a free port (the shared one is never stopped), restarted
empty as a Redis without persistence comes back: the turn can only come from the worker.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings

from config.celery import app
from games.models import Game
from games.outbox import outbox
from tests.conftest import make_user, start_celery_worker, stop
from tests.games.conftest import build_game
from tests.games.test_broker_outage import the_move_that_ends_alices_turn
from tests.test_redis import OwnRedis, own_redis  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Long enough for Redis to be stopped while the worker holds the turn, short for the test.
COUNTDOWN = 12.0


@pytest.fixture
def broker(own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch) -> Iterator[OwnRedis]:  # noqa: F811
    """This process sends its tasks to the test's Redis."""
    monkeypatch.setattr(app.conf, "broker_url", own_redis.url)
    monkeypatch.setattr(app.conf, "result_backend", own_redis.url)
    # Celery keeps its connections, producers and result backend once made: start afresh.
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    monkeypatch.setattr(app, "_backend_cache", None)
    monkeypatch.setattr(app, "_local", threading.local())
    yield own_redis
    assert outbox.wait_until_idle(60)


@pytest.fixture
def worker_on_own_redis(
    broker: OwnRedis, process_env: dict[str, str], tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    log = tmp_path / "worker.log"
    env = {**process_env, "REDIS_URL": broker.url, "CHANNELS_PREFIX": "club-worker-outage"}
    proc = start_celery_worker(env, log)
    yield proc, log
    stop(proc)


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_the_worker_outlives_a_redis_outage_and_then_plays_the_bot_turn_it_held(
    worker_on_own_redis: tuple[subprocess.Popen[bytes], Path],
    broker: OwnRedis,
    settings: Settings,
) -> None:
    from games import services

    worker, log = worker_on_own_redis
    settings.BOT_MOVE_DELAY = COUNTDOWN
    alice = make_user("alice-outage")
    game = build_game(alice, "easy", seed=5)
    move = the_move_that_ends_alices_turn(game)
    services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
    version = Game.objects.get(pk=game.pk).version

    # The worker has the bot's turn in hand, waiting for its countdown...
    assert wait_for(lambda: "games.tasks.play_bot_turn[" in log.read_text(), 20), log.read_text()
    # ...when Redis goes away, for a few seconds.
    broker.stop()
    time.sleep(4)
    assert worker.poll() is None, log.read_text()[-3000:]
    broker.start()  # empty: a Redis without persistence keeps nothing

    # The bot plays, with no restart of the worker.
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version > version, 60), log.read_text()[
        -3000:
    ]
    assert worker.poll() is None
    assert "Unrecoverable error" not in log.read_text()
