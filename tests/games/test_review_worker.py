"""A review in a real Celery worker that is killed halfway: it resumes and finishes once."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from games.models import Game, Review
from games.services import reviews
from tests.conftest import start_celery_worker, stop
from tests.games.conftest import build_game, play_random_moves


def wait_for(condition, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail("timed out")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_review_survives_its_worker_being_killed(
    celery_workers: dict[str, subprocess.Popen[bytes]],
    process_env: dict[str, str],
    tmp_path: Path,
    alice,
    bob,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = play_random_moves(build_game(alice, bob, seed=9))
    assert game.status == Game.Status.FINISHED
    reviews.request_review(game_id=game.pk)
    wait_for(lambda: Review.objects.filter(game=game, progress__gte=3).exists())
    # Reviews run on the heavy worker (infra/workers.py).
    heavy = celery_workers["heavy"]
    os.kill(heavy.pid, signal.SIGKILL)
    heavy.wait(timeout=30)
    cut = Review.objects.get(game=game)
    assert cut.status == "running"
    assert 3 <= cut.progress < game.version
    # A new worker; the beat's rescue sends the review again once it stopped moving.
    second = start_celery_worker(process_env, tmp_path / "second-worker.log", kind="heavy")
    try:
        monkeypatch.setattr(reviews, "STALE_AFTER", datetime.timedelta(0))
        assert reviews.resume_stale_reviews() == 1
        wait_for(lambda: Review.objects.filter(game=game, status="done").exists())
    finally:
        stop(second)
    review = Review.objects.get(game=game)
    assert [d["number"] for d in review.decisions] == list(range(1, game.version + 1))
    assert review.progress == review.total == game.version
    # What the first worker stored was kept, not computed again.
    assert review.decisions[: cut.progress] == cut.decisions
