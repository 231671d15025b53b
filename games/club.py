"""What the club page shows a signed-in member: games running now to watch, games waiting for
players, the latest results, this week's games, the newest members, the game nights to come
the current season's best of each game,
and the running and last finished tournaments. A fixed number of queries whatever the number of
games (each list is cut short)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from accounts.models import User
from games import seasons, selectors, stats, tournament_results
from games.models import PRACTICE_OPTION, Game, GameNight, Result, Seat

LIST_LENGTH = 8


def week_start(now: datetime) -> datetime:
    """Monday 00:00 of this week in the active time zone (the member's)."""
    local = timezone.localtime(now)
    monday = local - timedelta(days=local.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0)


def _seats() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))


def running_games(user: Any) -> list[Game]:
    """The games being played, each with `my_seat`, and for the member's own games whose
    turn it is (`to_move_seats`, `my_turn`): the page offers "Your turn" or says whom the
    game waits for, where another's game offers "Watch"."""
    games = list(
        Game.objects.filter(status=Game.Status.RUNNING, imported=False)
        .prefetch_related(_seats())
        .order_by("-updated_at", "-pk")[:LIST_LENGTH]
    )
    for game in games:
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        game.my_seat = seat if seat is not None and not seat.resigned else None  # type: ignore[attr-defined]
        game.to_move_seats = selectors.seats_to_move(game) if game.my_seat else []  # type: ignore[attr-defined]
        game.my_turn = any(  # type: ignore[attr-defined]
            s.user_id == user.pk and not s.is_bot
            for s in game.to_move_seats  # type: ignore[attr-defined]
        )
    return games


def latest_results() -> list[Game]:
    """Finished games, newest first, each with `winners`: the seats ranked first."""
    games = list(
        Game.objects.filter(status=Game.Status.FINISHED, imported=False)
        .exclude(finished_at=None)
        .exclude(options__has_key=PRACTICE_OPTION)
        .prefetch_related(
            _seats(),
            Prefetch("results", queryset=Result.objects.defer("breakdown").order_by("seat")),
        )
        # The list never draws the board: the cached state is the largest column by far.
        .defer("state")
        .order_by("-finished_at", "-pk")[:LIST_LENGTH]
    )
    for game in games:
        first = {r.seat for r in game.results.all() if r.rank == 1}
        game.winners = [s for s in game.seats.all() if s.position in first]  # type: ignore[attr-defined]
    return games


def games_this_week(now: datetime) -> dict[str, Any]:
    """How many games finished since Monday, in all and per game. An imported game was
    replayed from a file, not played here, and is not counted; nor is a practice game, the
    rest of a reviewed game replayed against bots."""
    rows = (
        Game.objects.filter(
            status=Game.Status.FINISHED, imported=False, finished_at__gte=week_start(now)
        )
        .exclude(options__has_key=PRACTICE_OPTION)
        .values("engine_slug")
        .annotate(count=Count("pk"))
        .order_by("-count", "engine_slug")
    )
    per_game = [(row["engine_slug"], row["count"]) for row in rows]
    return {"total": sum(count for _slug, count in per_game), "per_game": per_game}


def upcoming_nights(user: Any, now: datetime) -> list[GameNight]:
    """Scheduled nights the member may see: open to the club, hosted, invited to or joined."""
    mine = Q(host=user) | Q(invited=user) | Q(players_joined__user=user)
    ids = (
        GameNight.objects.filter(status=GameNight.Status.SCHEDULED, starts_at__gt=now)
        .filter(Q(open_to_club=True) | mine)
        .values_list("pk", flat=True)
        .distinct()
    )
    return list(
        GameNight.objects.filter(pk__in=ids)
        .select_related("host")
        .annotate(joined=Count("players_joined"))
        .order_by("starts_at", "pk")[:LIST_LENGTH]
    )


def current_season() -> dict[str, Any] | None:
    """The season running today, with each game's top of its standings (three queries)."""
    season = seasons.current_season()
    if season is None:
        return None
    tables = seasons.summaries([season], leaders=seasons.TOP)[season.pk]
    return {
        "season": season,
        "tables": tables,
        "ranked": any(table.ranked for table in tables),
        "min_games": seasons.min_games(),
    }


def club_context(user: Any, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    return {
        "season": current_season(),
        "tournaments": tournament_results.club_tournaments(),
        "running": running_games(user),
        "waiting": selectors.open_games(user=user)[:LIST_LENGTH],
        "results": latest_results(),
        "week": games_this_week(now),
        "members": list(User.objects.filter(is_active=True).order_by("-date_joined", "-pk")[:6]),
        "nights": upcoming_nights(user, now),
        "tops": stats.top_of_every_game(),
    }
