"""A review in slices (games/services/reviews.py, REVIEW_SLICE_SECONDS): each slice stores at
least one decision and sends the review to the back of the heavy queue, so a member's hint never
waits behind another member's whole review; the slices together store what one run stores."""

from __future__ import annotations

import datetime
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import engines, services, tasks
from games.models import Game, Hint, Review
from games.outbox import outbox
from games.services import hints, reviews
from tests.conftest import empty_task_queue, make_user, start_celery_worker
from tests.games.conftest import build_game, play_random_moves
from tests.games.test_hints import hint_game

SLUGS = [engine.slug for engine in engines.all()]


def finished_game(slug: str, *members: Any) -> Game:
    engine = engines.get(slug)
    game = play_random_moves(build_game(*members[: max(engine.min_players, 2)], engine=slug))
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.parametrize("slug", SLUGS)
def test_a_review_in_slices_stores_the_decisions_of_one_whole_run(
    slug, alice, bob, carol, sent, settings, django_capture_on_commit_callbacks
) -> None:
    settings.REVIEW_ITERATIONS = 1
    game = finished_game(slug, alice, bob, carol)
    reviews.request_review(game_id=game.pk)
    settings.REVIEW_SLICE_SECONDS = 600
    assert reviews.run_review(game_id=game.pk) is True
    whole = Review.objects.get(game=game).decisions
    assert len(whole) == game.version
    Review.objects.filter(game=game).update(
        status=Review.Status.RUNNING, progress=0, decisions=[], finished_at=None
    )
    sent.clear()

    # No time at all: each slice stores the one decision a slice always stores.
    settings.REVIEW_SLICE_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True):
        assert reviews.run_review(game_id=game.pk) is False
    review = Review.objects.get(game=game)
    assert (review.status, review.progress, len(review.decisions)) == ("running", 1, 1)
    # Sent again, to the back of the heavy queue.
    assert [(task.name, args) for task, args in sent] == [(tasks.review_game.name, (game.pk,))]

    slices = 1
    while True:
        with django_capture_on_commit_callbacks(execute=True):
            finished = reviews.run_review(game_id=game.pk)
        slices += 1
        if finished:
            break
        assert slices < game.version, "a slice stored nothing"
    assert slices == game.version
    # Every slice but the last sent the next one.
    resent = [args for task, args in sent if task.name == tasks.review_game.name]
    assert resent == [(game.pk,)] * (game.version - 1)
    review.refresh_from_db()
    assert review.status == Review.Status.DONE
    assert review.decisions == whole


def test_a_review_between_slices_keeps_its_limits_and_is_rescued_once_its_slice_is_lost(
    alice, bob, sent, settings, django_capture_on_commit_callbacks
) -> None:
    settings.REVIEW_ITERATIONS = 1
    settings.REVIEW_SLICE_SECONDS = 0
    game = finished_game("akropolis", alice, bob)
    reviews.request_review(game_id=game.pk, user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert reviews.run_review(game_id=game.pk) is False
    sent.clear()  # the next slice's task is lost on its way to the broker
    # Between slices the review is running: still the one review alice may have running.
    other = finished_game("babylon", alice, bob)
    with pytest.raises(services.GameError) as caught:
        reviews.request_review(game_id=other.pk, user=alice)
    assert caught.value.code == "review_running"
    # Its slice just stored a decision: the beat's rescue leaves it to the queue...
    with django_capture_on_commit_callbacks(execute=True):
        assert reviews.resume_stale_reviews() == 0
    assert sent == []
    # ... until that slice has been awaited for STALE_AFTER: then it is sent once more.
    Review.objects.filter(game=game).update(
        updated_at=timezone.now() - reviews.STALE_AFTER - datetime.timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert reviews.resume_stale_reviews() == 1
        assert reviews.resume_stale_reviews() == 0
    assert [(task.name, args) for task, args in sent] == [(tasks.review_game.name, (game.pk,))]
    settings.REVIEW_SLICE_SECONDS = 600
    assert reviews.run_review(game_id=game.pk) is True
    review = Review.objects.get(game=game)
    assert [d["number"] for d in review.decisions] == list(range(1, game.version + 1))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_hint_asked_during_a_long_review_is_computed_before_the_review_ends(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    """One heavy process (HEAVY_CONCURRENCY=1) busy with a review: a member's hint asked for
    once it has begun is searched between two of its slices, not after the whole review."""
    alice, bob = make_user("alice-slices"), make_user("bob-slices")
    game = finished_game("akropolis", alice, bob)
    env = {
        **process_env,
        "HEAVY_CONCURRENCY": "1",
        # The site's review depth, so that each decision is a real search.
        "REVIEW_ITERATIONS": "8",
        "REVIEW_SLICE_SECONDS": "0.5",
    }
    empty_task_queue()
    heavy: subprocess.Popen[bytes] | None = None
    try:
        heavy = start_celery_worker(env, tmp_path / "heavy.log", kind="heavy")
        reviews.request_review(game_id=game.pk)
        deadline = time.monotonic() + 120
        while not Review.objects.filter(game=game, progress__gt=0).exists():
            assert time.monotonic() < deadline, "the review did not start"
            time.sleep(0.1)
        playing = hint_game(make_user("carol-slices"))
        hint = hints.request_hint(game_id=playing.pk, user=playing.seats.get(position=0).user)
        assert Review.objects.get(game=game).status == Review.Status.RUNNING
        deadline = time.monotonic() + 600
        while not Review.objects.filter(game=game, status=Review.Status.DONE).exists():
            assert time.monotonic() < deadline, "the review did not finish"
            time.sleep(0.2)
    finally:
        if heavy is not None:
            heavy.kill()  # a slice in hand would hold a warm shutdown
            heavy.wait()
        assert outbox.wait_until_idle(30)
    review = Review.objects.get(game=game)
    hint.refresh_from_db()
    assert hint.status == Hint.Status.READY
    assert review.finished_at is not None and hint.finished_at is not None
    assert hint.finished_at < review.finished_at
    assert [d["number"] for d in review.decisions] == list(range(1, game.version + 1))
