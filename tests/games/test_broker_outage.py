"""With the broker down, a move still answers at once (issue 10, defect 4).

The move is stored when its transaction commits; sending the bot's turn to the broker comes
after and happens on the outbox thread, never in the member's request. The outbox keeps the
bot's turn and sends it once the broker answers again (games/outbox.py); a turn never sent
(its process ended) is picked up by the beat task that re-sends stuck bot turns
(test_services).
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.test import Client
from django.urls import reverse

from config.celery import app
from games import engines, services
from games.models import Game
from games.outbox import outbox
from games.tasks import play_bot_turn
from tests.conftest import free_port, make_user
from tests.games.conftest import build_game, first_legal_move, state_of
from tests.test_redis import OwnRedis

pytestmark = [pytest.mark.django_db(transaction=True)]

ENGINE = engines.get("akropolis")


@pytest.fixture
def dead_broker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[list[threading.Thread]]:
    """Celery's broker and result backend at a port where nothing listens (Redis down);
    yields the threads that tried to send a task."""
    port = free_port()
    dead = f"redis://127.0.0.1:{port}/0"
    monkeypatch.setattr(app.conf, "broker_url", dead)
    monkeypatch.setattr(app.conf, "result_backend", dead)
    # Celery keeps its connections, producers and result backend once made: start afresh.
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    monkeypatch.setattr(app, "_backend_cache", None)
    monkeypatch.setattr(app, "_local", threading.local())
    senders: list[threading.Thread] = []
    real = play_bot_turn.apply_async

    def spy(*args: Any, **kwargs: Any) -> Any:
        senders.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(play_bot_turn, "apply_async", spy)
    yield senders
    # The outbox keeps trying until the broker answers: a Redis starts on that port, and what
    # the outbox kept reaches it (nothing is lost), before the test's settings are undone.
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed for this test (apt-get install redis-server)")
    returned = OwnRedis(tmp_path, port)
    returned.start()
    try:
        assert outbox.wait_until_idle(30)
        # The bot's turn, once, on the play queue (config/settings.py CELERY_TASK_ROUTES).
        assert redis.Redis.from_url(dead).llen("play") == 1
    finally:
        returned.stop()


def alices_turn(game: Game) -> bool:
    """Whether the game, read again, waits for alice (seat 0) alone: the bot has played."""
    game.refresh_from_db()
    return ENGINE.to_move(ENGINE.load(game.state)) == [0]


def the_move_that_ends_alices_turn(game: Game) -> dict:
    """Play alice's turn (seat 0) up to its last step, which is returned: a turn of several
    steps is several moves, and only the last hands the table to the bot."""
    while True:
        seat, move = first_legal_move(game)
        assert seat == 0
        after = ENGINE.apply_move(state_of(game), seat, move)
        if ENGINE.to_move(after) == [1]:
            return move
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        game.refresh_from_db()


def test_a_move_that_hands_the_turn_to_a_bot_answers_at_once_with_the_broker_down(
    dead_broker: list[threading.Thread],
) -> None:
    alice = make_user("alice")
    game = build_game(alice, "easy", seed=5)
    move = the_move_that_ends_alices_turn(game)
    version = game.version
    client = Client()
    client.force_login(alice)
    started = time.monotonic()
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"move": json.dumps(move), "expected_version": version},
        headers={"HX-Request": "true"},
    )
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.moves.filter(number=version, seat=0).exists() and game.version == version + 1
    # The bot's turn was handed on, and it is the outbox thread that waits on the broker.
    deadline = time.monotonic() + 10
    while not dead_broker and time.monotonic() < deadline:
        time.sleep(0.05)
    assert dead_broker and all(t is outbox.thread for t in dead_broker)
    assert threading.current_thread() not in dead_broker
    # Generous: the outbox waits on a dead broker for as long as it is away.
    assert elapsed < 5
