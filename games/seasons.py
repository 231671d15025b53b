"""Seasons: the club's year in named stretches of days, and each season's standings per game.

A season counts the rated games finished in it (`rated`, not imported, no hints taken: the
games that move ratings), from its first day's midnight to the midnight after its last day in
the club's time zone. In each game a seat earns place points: with n players, n - 1 for the
first place down to 0 for the last; seats that share a rank share the places they cover and
split their points (two sharing the win of a three-player game cover places 1 and 2 and get
(2 + 1) / 2 = 1.5 each). Only members are listed: a bot's seat takes its place and its points
in the game, but bots are never ranked.

A member's standing in a game: the sum of their place points, the games played, the average
place (the rank they finished on; a shared win is a first place) and their rating at the
season's end (after their last rated game of that game up to then). Members with at least
`SEASON_MIN_GAMES` games are ranked, by points, then by the better average place; equal on
both, they share the place. The others are listed apart, "not yet ranked".

Every standing is counted by the database in one grouped query, whatever the number of games
(tests/games/test_seasons.py counts the queries of each page). An ended season is counted once,
the first time a page asks, and its standings kept (SeasonStanding) with each member's rating
at its end: its games can no longer change, so the pages read those rows. Editing its days, or
a game finished in it being scored late, clears them, and the next page counts them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import (
    Avg,
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    When,
)
from django.utils import timezone

from games import ratings
from games.models import Game, Result, Season, SeasonStanding
from games.stats import Player, game_titles

# How many of the best a season's summary shows (the club page, the seasons index).
TOP = 3


def min_games() -> int:
    return settings.SEASON_MIN_GAMES


def club_zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


def bounds(season: Season) -> tuple[datetime, datetime]:
    """The instants a season runs from (included) and to (excluded)."""
    zone = club_zone()
    start = datetime.combine(season.starts_on, time.min, tzinfo=zone)
    end = datetime.combine(season.ends_on + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def today() -> date:
    return timezone.localtime(timezone.now(), club_zone()).date()


def current_season(on: date | None = None) -> Season | None:
    on = on or today()
    return Season.objects.filter(starts_on__lte=on, ends_on__gte=on).first()


def overlapping(starts_on: date, ends_on: date, *, exclude: int | None = None) -> Season | None:
    """A stored season sharing a day with the given days, if any."""
    others = Season.objects.filter(starts_on__lte=ends_on, ends_on__gte=starts_on)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    return others.order_by("starts_on").first()


class SeasonOverlap(Exception):
    """The season's days overlap a stored season's (`other`)."""

    def __init__(self, other: Season) -> None:
        super().__init__(f"The days overlap the season {other.name}.")
        self.other = other


@transaction.atomic
def save_season(*, season: Season, user: Any) -> Season:
    """Store a new or edited season; refused (SeasonOverlap) when its days overlap another's.

    The form checks the days too, but two organisers may save at the same moment: the check
    here and the save run under a lock on the seasons' table that every save takes, so the
    second waits for the first and sees its season. On PostgreSQL that is a SHARE ROW
    EXCLUSIVE table lock (it conflicts with itself, not with readers); SQLite's transactions
    begin IMMEDIATE (config/settings.py), so they take the database's write lock first.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'LOCK TABLE "{Season._meta.db_table}" IN SHARE ROW EXCLUSIVE MODE')
    other = overlapping(season.starts_on, season.ends_on, exclude=season.pk)
    if other is not None:
        raise SeasonOverlap(other)
    if season.pk is None:
        season.created_by = user
    # Other days count other games: the kept standings are counted again when next asked.
    season.standings_stored = False
    season.save()
    SeasonStanding.objects.filter(season=season).delete()
    return season


def ended(season: Season, on: date | None = None) -> bool:
    return season.ends_on < (on or today())


# --- standings --------------------------------------------------------------------------------


@dataclass
class Standing:
    player: Player
    points: float
    played: int
    average_place: float
    rating: int | None = None
    place: int | None = None  # None: not yet ranked


@dataclass
class Table:
    """One game's standings in one season: the ranked members, best first, and the others."""

    slug: str
    title: str
    ranked: list[Standing] = field(default_factory=list)
    unranked: list[Standing] = field(default_factory=list)

    @property
    def top(self) -> list[Standing]:
        return self.ranked[:TOP]

    @property
    def champions(self) -> list[Standing]:
        return [s for s in self.ranked if s.place == 1]


def counted_results(*seasons: Season) -> Any:
    """Members' results of the rated games finished in any of the seasons."""
    within = Q()
    for season in seasons:
        start, end = bounds(season)
        within |= Q(game__finished_at__gte=start, game__finished_at__lt=end)
    return Result.objects.filter(
        within,
        user__isnull=False,
        game__status=Game.Status.FINISHED,
        game__rated=True,
        game__imported=False,
        game__hints_used=False,
    )


def sharing() -> Subquery:
    """How many seats of the result's game finished on its rank (1 unless places are shared)."""
    same = (
        Result.objects.filter(game_id=OuterRef("game_id"), rank=OuterRef("rank"))
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(same, output_field=IntegerField())


def season_of(seasons: list[Season]) -> Case:
    """The season a result's game finished in, as its id."""
    whens = []
    for season in seasons:
        start, end = bounds(season)
        whens.append(When(game__finished_at__gte=start, game__finished_at__lt=end, then=season.pk))
    return Case(*whens, output_field=IntegerField())


def grouped(seasons: list[Season]) -> list[dict[str, Any]]:
    """Per season, game and member: twice the place points, games played and average place.

    Twice the points, so the sum stays a whole number: a seat on rank r shared by k seats in an
    n-player game gets n - r - (k - 1) / 2, that is (2n - 2r - k + 1) / 2."""
    if not seasons:
        return []
    doubled = 2 * F("game__players") - 2 * F("rank") - sharing() + 1
    return list(
        counted_results(*seasons)
        .annotate(season_id=season_of(seasons))
        .values("season_id", "game__engine_slug", "user_id", "user__username", "user__display_name")
        .order_by()
        .annotate(doubled=Sum(doubled), played=Count("pk"), average=Avg("rank"))
    )


def standing_order(standing: Standing) -> tuple[float, float, str]:
    """More points first; on equal points, the better (lower) average place."""
    return (-standing.points, standing.average_place, standing.player.name.casefold())


def tables_from(rows: list[dict[str, Any]]) -> dict[tuple[int, str], Table]:
    """(season id, game slug) -> that game's table in that season, places given."""
    titles = game_titles()
    tables: dict[tuple[int, str], Table] = {}
    for row in rows:
        slug = row["game__engine_slug"]
        if slug not in titles:
            continue
        key = (row["season_id"], slug)
        if key not in tables:
            tables[key] = Table(slug=slug, title=titles[slug])
        name = row["user__display_name"] or row["user__username"]
        standing = Standing(
            player=Player(row["user_id"], "", name, row["user__username"]),
            points=row["doubled"] / 2,
            played=row["played"],
            average_place=float(row["average"]),
        )
        if row.get("rating") is not None:
            standing.rating = ratings.display(row["rating"])
        if standing.played >= min_games():
            tables[key].ranked.append(standing)
        else:
            tables[key].unranked.append(standing)
    for table in tables.values():
        table.ranked.sort(key=standing_order)
        table.unranked.sort(key=standing_order)
        for index, standing in enumerate(table.ranked):
            before = table.ranked[index - 1] if index else None
            same = before is not None and (before.points, before.average_place) == (
                standing.points,
                standing.average_place,
            )
            standing.place = before.place if same and before else index + 1
    return tables


def in_game_order(tables: dict[str, Table]) -> list[Table]:
    order = list(game_titles())
    return sorted(tables.values(), key=lambda t: order.index(t.slug))


def season_tables(season: Season, *, game: str = "") -> tuple[Table | None, list[Table]]:
    """The table of `game` in the season (of the first game played in it when `game` was not),
    with each listed member's rating at the season's end, and the tables of the other games
    played in it, without: two queries, a third only for members no game of the season rated."""
    kept = ended(season)
    found = tables_from(standing_rows([season]) if kept else grouped([season]))
    tables = in_game_order({slug: table for (_season, slug), table in found.items()})
    chosen = next((t for t in tables if t.slug == game), tables[0] if tables else None)
    if chosen is not None and not kept:
        add_ratings(season, {chosen.slug: chosen})
    return chosen, [t for t in tables if t is not chosen]


def add_ratings(season: Season, tables: dict[str, Table]) -> None:
    """Each listed member's rating after their last rated game of that game up to the season's
    end. Read from the season's own results, so the rows read grow with the season and not
    with the club's history; a member whom no game of the season rated (their seats there
    were left out of the rating) has it from the games before, asked for them alone."""
    listed = [(slug, s) for slug, t in tables.items() for s in [*t.ranked, *t.unranked]]
    members = {(s.player.user_id, slug) for slug, s in listed if s.player.user_id is not None}
    at_end = ratings_at_end(season, members)
    for slug, standing in listed:
        user_id = standing.player.user_id
        value = at_end.get((user_id, slug)) if user_id is not None else None
        standing.rating = ratings.display(value) if value is not None else None


def ratings_at_end(
    season: Season, pairs: set[tuple[int, str]]
) -> dict[tuple[int, str], float | None]:
    """(member id, game slug) -> the raw rating after the member's last rated game of that game
    up to the season's end, for the pairs asked (two queries at most)."""
    start, end = bounds(season)
    slugs = sorted({slug for _user, slug in pairs})
    if not slugs:
        return {}
    rows = (
        Result.objects.filter(
            user__isnull=False,
            rating_after__isnull=False,
            game__engine_slug__in=slugs,
            game__finished_at__gte=start,
            game__finished_at__lt=end,
        )
        .order_by("game__finished_at", "game_id")
        .values_list("user_id", "game__engine_slug", "rating_after")
    )
    at_end = {(user_id, slug): value for user_id, slug, value in rows}  # the last one wins
    missing = {user_id for user_id, slug in pairs if (user_id, slug) not in at_end}
    if missing:
        at_end.update(ratings_before(start, slugs, missing))
    return at_end


def ratings_before(start: datetime, slugs: list[str], members: set[int]) -> dict:
    """(member id, game slug) -> the rating after the member's last rated game of that game
    before `start`: one query, a subquery per member and game."""

    def last_rating(slug: str) -> Subquery:
        last = (
            Result.objects.filter(
                user_id=OuterRef("pk"),
                game__engine_slug=slug,
                rating_after__isnull=False,
                game__finished_at__lt=start,
            )
            .order_by("-game__finished_at", "-game_id")
            .values("rating_after")[:1]
        )
        return Subquery(last, output_field=FloatField())

    columns = {f"at_{index}": last_rating(slug) for index, slug in enumerate(slugs)}
    # Rows of "pk" and the columns above, by name.
    rows: Iterable[Mapping[str, Any]] = (
        get_user_model().objects.filter(pk__in=members).values("pk", **columns)
    )
    return {
        (row["pk"], slug): row[f"at_{index}"]
        for row in rows
        for index, slug in enumerate(slugs)
        if row[f"at_{index}"] is not None
    }


def keep_standings(season: Season) -> None:
    """Count an ended season's standings and keep them, once: under the season's row lock, so
    a late score clearing them waits, and two pages asking at once count it once."""
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        if not locked.standings_stored:
            rows = grouped([locked])
            at_end = ratings_at_end(locked, {(r["user_id"], r["game__engine_slug"]) for r in rows})
            SeasonStanding.objects.filter(season=locked).delete()
            SeasonStanding.objects.bulk_create(
                SeasonStanding(
                    season=locked,
                    engine_slug=row["game__engine_slug"],
                    user_id=row["user_id"],
                    doubled=row["doubled"],
                    played=row["played"],
                    average=float(row["average"]),
                    rating=at_end.get((row["user_id"], row["game__engine_slug"])),
                )
                for row in rows
            )
            Season.objects.filter(pk=locked.pk).update(standings_stored=True)
    season.standings_stored = True


def standing_rows(seasons: list[Season]) -> list[dict[str, Any]]:
    """The ended seasons' kept standings, in grouped()'s shape with the rating (one query, and
    one per season counted for the first time)."""
    for season in seasons:
        if not season.standings_stored:
            keep_standings(season)
    if not seasons:
        return []
    rows = SeasonStanding.objects.filter(season__in=seasons).values(
        "season_id",
        "engine_slug",
        "user_id",
        "user__username",
        "user__display_name",
        "doubled",
        "played",
        "average",
        "rating",
    )
    return [{**row, "game__engine_slug": row["engine_slug"]} for row in rows]


def summaries(seasons: list[Season]) -> dict[int, list[Table]]:
    """Season id -> the tables of each game played in it (for the champions and the top of
    each game): the ended seasons' kept rows in one query, the others counted in one."""
    on = today()
    kept = [season for season in seasons if ended(season, on)]
    counted = [season for season in seasons if not ended(season, on)]
    found = tables_from(standing_rows(kept) + grouped(counted))
    by_season: dict[int, dict[str, Table]] = {season.pk: {} for season in seasons}
    for (season_id, slug), table in found.items():
        by_season[season_id][slug] = table
    return {season_id: in_game_order(tables) for season_id, tables in by_season.items()}


def member_places(user: Any, seasons: list[Season]) -> list[dict[str, Any]]:
    """The seasons a member played in, newest first, with their standing in each game."""
    played = summaries(seasons)
    rows = []
    for season in seasons:
        entries = []
        for table in played[season.pk]:
            mine = next(
                (s for s in [*table.ranked, *table.unranked] if s.player.user_id == user.pk), None
            )
            if mine is not None:
                entries.append({"table": table, "standing": mine, "of": len(table.ranked)})
        if entries:
            rows.append({"season": season, "entries": entries})
    return rows
