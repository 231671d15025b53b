"""Celery tasks: thin wrappers around `games.services` (STYLE.md, tasks are interfaces).

Late acknowledgement (settings) means a task whose worker dies is delivered again; the
services make a second delivery harmless (a bot turn checks the move number it expects,
the end of a game is stored once).

The tasks stand above the services: the services send a task by its registered name
(`services.common.task_named`), never by importing this module.

No one waits for these tasks' results, so none is stored (`ignore_result`, also given by the
outbox that sends them by name: `services.common.publish`): a process that sends one then needs
the broker alone. With the result store on Redis, each send subscribed
to the task's result first; with Redis stopped for some 20 s that subscription gave up,
logged that "the Celery application must be restarted", and the task was not sent.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import services
from games.services import hints, reviews


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2, ignore_result=True)
def play_bot_turn(self, game_id: int, seat: int, expected_version: int) -> bool:
    try:
        return services.play_bot_turn(game_id=game_id, seat=seat, expected_version=expected_version)
    except OperationalError as exc:  # a locked or briefly unreachable database
        raise self.retry(exc=exc) from exc


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2, ignore_result=True)
def finish_game(self, game_id: int) -> int:
    try:
        return len(services.finish_game(game_id=game_id))
    except OperationalError as exc:
        raise self.retry(exc=exc) from exc


@shared_task(ignore_result=True)
def take_over_timed_out_seats() -> int:
    # The clocks' warnings come with the same beat: both read the running games' clocks.
    return services.take_over_timed_out_seats() + services.warn_running_clocks()


@shared_task(ignore_result=True)
def fill_open_seats_with_bots() -> int:
    return services.fill_open_seats_with_bots()


@shared_task(ignore_result=True)
def reschedule_stuck_bot_turns() -> int:
    rescued = services.reschedule_stuck_bot_turns() + services.finish_unscored_games()
    return rescued + reviews.resume_stale_reviews() + hints.resend_lost_hints()


@shared_task(ignore_result=True)
def resend_overdue_work() -> int:
    """Sent by each worker as it starts (config/celery.py): every bot turn a game waits for is
    sent again, to be played when it is due, and every end of game not yet scored. A worker
    that was killed took the tasks it held with it (the filesystem broker had deleted them;
    Redis keeps them aside for its visibility timeout, an hour); a copy of a task still held
    by a live worker does nothing."""
    return services.resend_bot_turns() + services.finish_unscored_games()


@shared_task(ignore_result=True)
def run_game_nights() -> dict[str, int]:
    return services.run_game_nights()


@shared_task(ignore_result=True)
def run_tournaments() -> dict[str, int]:
    return services.run_tournaments()


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2, ignore_result=True)
def review_game(self, game_id: int) -> bool:
    """One slice of the review of a finished game, which sends the next (services.run_review);
    a second delivery resumes it."""
    try:
        return reviews.run_review(game_id=game_id)
    except OperationalError as exc:
        raise self.retry(exc=exc) from exc


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def compute_hint(self, hint_id: int) -> bool:
    """A member's hint, searched on the heavy worker (services.hints); a second delivery of a
    stored hint does nothing."""
    try:
        return hints.compute_hint(hint_id=hint_id)
    except OperationalError as exc:
        raise self.retry(exc=exc) from exc
