"""The clocks of games played over days, as the pages read them: a time control per game,
vacations that pause a member's clocks in every game (games/services/clocks.py writes them).

Each seat has a clock of its own, per turn: it starts when the seat comes to move
(`Seat.clock_started_at`) and stops when the seat has no move left in that turn, however many
steps the turn takes. In a simultaneous phase (secret offers) each seat choosing has its own
clock, and another seat's choice does not touch it. A seat that is to move again straight after
its own step (a turn of several steps) keeps the clock it has. The seat has the game's
`days_per_move` days for a turn (the site's TURN_TIMEOUT when the game has no time control).
Time its member spends on vacation (a `Vacation` of theirs) does not count, in every game: the
deadline moves on by each moment of vacation since the clock started, so while a member is
away the time they have left stands still.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.models import Game, Seat, TournamentTable, Vacation

MAX_DAYS_PER_MOVE = 30


def move_limit(game: Game) -> timedelta:
    """The time a seat has for a move in this game."""
    if game.days_per_move:
        return timedelta(days=game.days_per_move)
    return timedelta(seconds=settings.TURN_TIMEOUT)


def shortest_limit() -> timedelta:
    """No game's seat times out sooner than this after its wait began."""
    return min(timedelta(seconds=settings.TURN_TIMEOUT), timedelta(days=1))


def paused(vacations: Iterable[Vacation], start: datetime, end: datetime) -> timedelta:
    """How much of the time from `start` to `end` fell in the vacations."""
    total = timedelta(0)
    for vacation in vacations:
        low, high = max(vacation.starts_at, start), min(vacation.ends_at, end)
        if high > low:
            total += high - low
    return total


def vacations_of(user_id: int | None, start: datetime, end: datetime) -> list[Vacation]:
    if user_id is None:
        return []
    return list(Vacation.objects.filter(user_id=user_id, ends_at__gt=start, starts_at__lt=end))


def run(seats: Iterable[Seat], to_move: Iterable[int], now: datetime) -> list[Seat]:
    """Start the clock of each seat that came to move, stop those of the seats with no move
    left; the seats that still move keep theirs. Returns the seats changed (unsaved).

    A seat no member holds (a bot's from the start: once a game runs, no member joins it) has
    no clock: nothing reads it (only members time out, are warned or see their time left), and
    a game of bots then writes no clock at all as it plays."""
    moving = set(to_move)
    changed = []
    for seat in seats:
        has_clock = seat.position in moving and seat.user_id is not None
        if has_clock and seat.clock_started_at is None:
            seat.clock_started_at = now
        elif not has_clock and seat.clock_started_at is not None:
            seat.clock_started_at = None
        else:
            continue
        changed.append(seat)
    return changed


def deadline(game: Game, seat: Seat, *, now: datetime) -> datetime | None:
    """When the clock of `seat` runs out, as it stands at `now` (None: the seat is not to
    move). While its member is away it moves on with the time."""
    start = seat.clock_started_at
    if start is None or game.status != Game.Status.RUNNING:
        return None
    away = paused(vacations_of(seat.user_id, start, now), start, now)
    return start + move_limit(game) + away


def past_round_deadline(game: Game, now: datetime) -> bool:
    """True when the game is a table of an async tournament round whose deadline has passed:
    bots play its members' seats to the end, for good (games/services/tournament_events.py)."""
    return TournamentTable.objects.filter(game=game, round__deadline__lte=now).exists()


def on_vacation(user_id: int | None, now: datetime) -> bool:
    if user_id is None:
        return False
    return Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).exists()


def timed_out(game: Game, now: datetime) -> list[Any]:
    """The members' seats whose clocks ran out (not bots, not resigned)."""
    out = []
    for seat in game.seats.filter(clock_started_at__isnull=False).select_related("user"):
        if seat.is_bot or seat.user is None:
            continue
        ends = deadline(game, seat, now=now)
        if ends is not None and ends <= now:
            out.append(seat)
    return out


def clock_rows(game: Game, names: list[str], now: datetime) -> list[dict[str, Any]]:
    """What the board shows of the clocks of the members it waits for: the time left (whole
    hours) and whether the member is on vacation. Only for a game with a time control."""
    if not game.days_per_move or game.status != Game.Status.RUNNING or game.state is None:
        return []
    rows = []
    for seat in game.seats.all():
        if seat.clock_started_at is None or seat.is_bot or seat.user_id is None:
            continue
        ends = deadline(game, seat, now=now)
        if ends is None:
            continue
        hours = max(int((ends - now).total_seconds() // 3600), 0)
        rows.append(
            {
                "name": names[seat.position],
                "days": hours // 24,
                "hours": hours % 24,
                "away": on_vacation(seat.user_id, now),
            }
        )
    return rows
