"""The hard bot's review of a finished game (the hint is in games/services/hints.py).

DESIGN.md principle 9: each decision is judged from the deciding seat's own view at that
moment (games/bots/advice.py). A review is stored once per game (`Review`): a second request
finds it, and a review whose worker died resumes from the last decision it stored.
"""

from __future__ import annotations

import datetime
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import broadcast
from games.bots import advice
from games.models import Game, Review
from games.rendering import seat_name
from games.services.common import (
    GameError,
    after_commit,
    engine_for,
    first_state_of,
    locked,
    task_named,
)

# A running review that has stored nothing for this long lost its worker (a task delivered
# again resumes it anyway): a new request sends it once more. A review between two slices
# stored its last decision as it sent the next slice, so it looks stale only once that slice
# has waited this long in the heavy queue (some 60 slices of others ahead of it); sent twice,
# it still stores each decision once (its two copies take turns until it is done).
STALE_AFTER = datetime.timedelta(minutes=5)
# The window of REVIEWS_PER_DAY: the 24 hours before a request.
DAY = datetime.timedelta(hours=24)


def review_iterations() -> int:
    """Search iterations per decision (settings.REVIEW_ITERATIONS)."""
    return max(1, int(getattr(settings, "REVIEW_ITERATIONS", advice.DEFAULT_ITERATIONS)))


def review_slice_seconds() -> float:
    """How long one call of `run_review` searches before it hands the heavy worker on
    (settings.REVIEW_SLICE_SECONDS)."""
    return max(0.0, float(settings.REVIEW_SLICE_SECONDS))


def resume_stale_reviews() -> int:
    """Send again the reviews whose worker stopped storing decisions (it died, and its task
    was not delivered again); run by beat with the other rescues."""
    stale = Review.objects.filter(
        status=Review.Status.RUNNING, updated_at__lt=timezone.now() - STALE_AFTER
    )
    ids = list(stale.values_list("game_id", flat=True))
    for game_id in ids:
        with transaction.atomic():
            Review.objects.filter(game_id=game_id).update(updated_at=timezone.now())
            after_commit(task_named("review_game"), game_id)
    return len(ids)


def request_review(*, game_id: int, user: User | None = None) -> Review:
    """Start the review of a finished game, or return the one that exists.

    A review that exists (done or running) is anyone's to read and counts against no one. A
    new one counts against `user` (None: the site itself asks, e.g. a script): a member has
    one running at a time and starts at most REVIEWS_PER_DAY in 24 hours; past either, the
    request is refused and changes nothing."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.FINISHED:
            raise GameError("review_not_finished", "Only a finished game can be reviewed.")
        if user is not None and not Review.objects.filter(game=game).exists():
            check_review_allowance(user)
        review, created = Review.objects.get_or_create(
            game=game,
            defaults={
                "total": game.version,
                "iterations": review_iterations(),
                "requested_by": user,
            },
        )
        stale = review.status == Review.Status.RUNNING and (
            review.updated_at < timezone.now() - STALE_AFTER
        )
        if created or stale:
            if stale:
                review.save(update_fields=["updated_at"])
            after_commit(task_named("review_game"), game.pk)
    return review


def check_review_allowance(user: User) -> None:
    """Raise GameError when `user` may not start another review now. The member's row is
    locked until the transaction ends, so two requests at once are counted one after the
    other."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    mine = Review.objects.filter(requested_by=user)
    if mine.filter(status=Review.Status.RUNNING).exists():
        raise GameError("review_running", "The member's review of another game is running.")
    most = settings.REVIEWS_PER_DAY
    if mine.filter(created_at__gte=timezone.now() - DAY).count() >= most:
        raise GameError("review_limit", f"At most {most} reviews in 24 hours.", max=most)


def run_review(*, game_id: int) -> bool:
    """Review the decisions not yet stored, for one slice; True when this call finished the
    review.

    Past REVIEW_SLICE_SECONDS, once it has stored at least one decision, a call sends the
    review's task again, to the back of the heavy queue, and returns False: a hint asked for
    meanwhile is searched before the review's next slice. Each decision is stored in its own
    transaction, and only if no other worker stored it first, so two deliveries of the task
    (a worker killed and its task sent again) finish the review once."""
    review = Review.objects.select_related("game").filter(game_id=game_id).first()
    if review is None or review.status == Review.Status.DONE:
        return False
    game = review.game
    engine = engine_for(game.engine_slug)
    state = first_state_of(game, engine)
    deadline = time.monotonic() + review_slice_seconds()
    stored = 0
    for move in game.moves.order_by("number")[: review.total]:
        if move.number >= review.progress:
            if stored and time.monotonic() >= deadline:
                # Its last decision stamped the review, so the beat's rescue leaves it alone
                # while this slice waits its turn (STALE_AFTER).
                after_commit(task_named("review_game"), game.pk)
                return False
            found = advice.review_move(
                engine, state, move.seat, move.payload, iterations=review.iterations
            )
            entry = {
                "number": move.number + 1,
                "seat": move.seat,
                "move": move.payload,
                **found.as_dict(),
                "mark": advice.mark(engine, found.cost),
            }
            if not _store(review.pk, move.number, entry):
                return False
            # Open game pages show the progress: their board is sent again.
            broadcast.notify_game_changed(game.pk, game.revision)
            review.progress = move.number + 1
            stored += 1
        state = engine.apply_move(state, move.seat, move.payload)
    with transaction.atomic():
        row = Review.objects.select_for_update().get(pk=review.pk)
        if row.status == Review.Status.DONE:
            return False
        row.status = Review.Status.DONE
        row.finished_at = timezone.now()
        row.save(update_fields=["status", "finished_at", "updated_at"])
    broadcast.notify_game_changed(game.pk, game.revision)
    return True


def _store(review_id: int, number: int, entry: dict[str, Any]) -> bool:
    with transaction.atomic():
        row = Review.objects.select_for_update().get(pk=review_id)
        if row.progress != number:
            return False  # another worker stored this decision first
        row.decisions = [*row.decisions, entry]
        row.progress = number + 1
        row.save(update_fields=["decisions", "progress", "updated_at"])
    return True


def review_data(review: Review | None) -> dict[str, Any]:
    """The review as open data (`/games/<id>/review.json`): which game, who played each
    seat, how it was searched and when, then every decision once it is done."""
    if review is None:
        return {"status": "none"}
    game = review.game
    data: dict[str, Any] = {
        "game": game.pk,
        "engine": game.engine_slug,
        "players": [seat_player(seat) for seat in sorted(game.seats.all(), key=_position)],
        "status": review.status,
        "progress": review.progress,
        "total": review.total,
        "iterations": review.iterations,
        "reviewed_at": review.finished_at.isoformat() if review.finished_at else None,
        "note": (
            "Values are the hard bot's estimates of the final score difference (own score "
            "minus the best other), from the deciding seat's view, after the stated number of "
            "search iterations per decision; a decision's best is valued by the same search as "
            "the move made, so its cost (best_value - value) is never negative; a random draw "
            "can make a good decision look bad."
        ),
    }
    if review.status == Review.Status.DONE:
        data["decisions"] = [
            {key: entry[key] for key in DECISION_KEYS} for entry in review.decisions
        ]
    return data


def _position(seat: Any) -> int:
    return int(seat.position)


def seat_player(seat: Any) -> dict[str, Any]:
    """Who played a seat, as data: its name on the pages, the member's username (None for a
    bot or an imported name) and the bot level that played it (None for a member's own
    play; a member's seat a bot took over keeps both)."""
    member = seat.user.username if seat.user_id is not None and not seat.label else None
    level = seat.bot_level or None
    if seat.user_id is not None and not seat.bot_took_over:
        level = None
    return {"seat": seat.position, "name": seat_name(seat), "member": member, "bot": level}


DECISION_KEYS = ("number", "seat", "move", "best", "value", "best_value", "cost", "iterations")


def seat_summaries(review: Review, players: int) -> list[dict[str, Any]]:
    """Per seat: the estimated points lost in all, and the three costliest decisions."""
    summaries = []
    for seat in range(players):
        own = [d for d in review.decisions if d["seat"] == seat]
        costly = sorted((d for d in own if d["cost"] > 0), key=lambda d: (-d["cost"], d["number"]))
        summaries.append(
            {
                "seat": seat,
                "lost": round(sum(d["cost"] for d in own), 1),
                "costliest": costly[:3],
            }
        )
    return summaries
