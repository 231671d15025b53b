"""Clocks that respect holidays: vacations, and the warning before a clock runs out (the
clocks themselves, as pages read them, are games/clocks.py).

CLOCK_WARNING before the deadline of a seat's clock in a game with a time control its member
is told once per turn (a notification, and an e-mail if they opted in to "my turn" e-mails);
at the deadline the beat's take-over (`seats.take_over_timed_out_seats`) plays the seat with
a bot, and the member may take it back as before.

A member takes at most VACATION_DAYS days of vacation a calendar year (UTC), from now on,
never backwards.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import clocks
from games.clocks import deadline
from games.models import Game, Seat, Vacation
from games.services import notices
from games.services.common import GameError

# --- the warning ------------------------------------------------------------------------------


def warn_running_clocks(*, now: datetime | None = None) -> int:
    """Beat task: tell each member whose clock runs out within CLOCK_WARNING, once per turn.
    Returns how many were told."""
    now = now or timezone.now()
    warning = timedelta(seconds=settings.CLOCK_WARNING)
    due = Seat.objects.filter(
        game__status=Game.Status.RUNNING,
        game__days_per_move__isnull=False,
        clock_started_at__lte=now + warning - timedelta(days=1),
    )
    games = sorted(set(due.values_list("game_id", flat=True)))
    return sum(_warn(game_id, now, warning) for game_id in games)


@transaction.atomic
def _warn(game_id: int, now: datetime, warning: timedelta) -> int:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return 0
    told = 0
    for seat in game.seats.filter(clock_started_at__isnull=False).select_related("user"):
        if seat.is_bot or seat.user is None or seat.clock_warned_for == seat.clock_started_at:
            continue
        ends = deadline(game, seat, now=now)
        if ends is None or not now < ends <= now + warning:
            continue
        notices.tell_clock_running_out(game, seat, ends)
        seat.clock_warned_for = seat.clock_started_at
        seat.save(update_fields=["clock_warned_for"])
        told += 1
    return told


def run_clocks(game: Game, to_move: list[int], now: datetime) -> None:
    """After a change of who is to move: the seats' clocks start and stop (games/clocks.py)."""
    seats = list(game.seats.all())
    changed = clocks.run(seats, [] if game.status != Game.Status.RUNNING else to_move, now)
    if changed:
        Seat.objects.bulk_update(changed, ["clock_started_at"])


# --- vacations --------------------------------------------------------------------------------


def vacation_days_taken(user: User, year: int) -> int:
    """Days of vacation the member took that begin in `year` (UTC)."""
    taken = Vacation.objects.filter(user=user, starts_at__year=year)
    return sum(round((v.ends_at - v.starts_at) / timedelta(days=1)) for v in taken)


def vacation_days_left(user: User, *, now: datetime | None = None) -> int:
    now = now or timezone.now()
    return max(settings.VACATION_DAYS - vacation_days_taken(user, now.year), 0)


@transaction.atomic
def take_vacation(*, user: User, days: Any, now: datetime | None = None) -> Vacation:
    """`days` whole days of vacation from now on (after any vacation already taken that
    runs on past now, so two never overlap), within the year's allowance."""
    now = now or timezone.now()
    # Under the member's lock: two requests at once are counted one by one.
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    if type(days) is not int or days < 1:
        raise GameError("bad_vacation", "A vacation is a whole number of days, at least one.")
    left = vacation_days_left(user, now=now)
    if days > left:
        raise GameError(
            "vacation_allowance",
            f"Only {left} vacation days are left this year.",
            left=left,
            max=settings.VACATION_DAYS,
        )
    current = Vacation.objects.filter(user=user, ends_at__gt=now).order_by("-ends_at").first()
    start = current.ends_at if current is not None else now
    return Vacation.objects.create(user=user, starts_at=start, ends_at=start + timedelta(days=days))
