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

The standings are counted once, the first time a page asks, and kept (SeasonStanding) with
each member's place and rating at the season's end; each game of the season scored later adds
itself to them (games/season_standings.py). The pages read those rows: the index the
champions', the club page the top of each game, a season's page one game's table, a profile
the member's own; each in a fixed number of queries, whatever the number of games
(tests/games/test_seasons.py counts them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from games import ratings
from games import season_standings as kept
from games.models import Season, SeasonStanding
from games.season_standings import bounds as bounds  # read from here by the pages and seeding
from games.season_standings import club_zone as club_zone
from games.season_standings import min_games as min_games
from games.stats import Player, game_titles

# How many of the best a season's summary shows (the club page).
TOP = 3


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
    season.save()
    # Other days count other games.
    kept.forget_season(season)
    return season


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


ROW_FIELDS = (
    "season_id",
    "engine_slug",
    "user_id",
    "user__username",
    "user__display_name",
    "doubled",
    "played",
    "rank_sum",
    "rating",
    "place",
)


def standing_order(standing: Standing) -> tuple[float, float, str]:
    """More points first; on equal points, the better (lower) average place."""
    return (-standing.points, standing.average_place, standing.player.name.casefold())


def standing_of(row: dict[str, Any]) -> Standing:
    name = row["user__display_name"] or row["user__username"]
    rating = row["rating"]
    return Standing(
        player=Player(row["user_id"], "", name, row["user__username"]),
        points=row["doubled"] / 2,
        played=row["played"],
        average_place=kept.average_place(row["rank_sum"], row["played"]),
        rating=ratings.display(rating) if rating is not None else None,
        place=row["place"],
    )


def tables_from(
    played: list[tuple[int, str]], rows: list[dict[str, Any]]
) -> dict[tuple[int, str], Table]:
    """(season id, game slug) -> that game's table in that season, for the games `played`
    in each season, with the kept `rows` read for it (all of them, or the leaders alone)."""
    titles = game_titles()
    tables = {
        (season_id, slug): Table(slug=slug, title=titles[slug])
        for season_id, slug in played
        if slug in titles
    }
    for row in rows:
        table = tables.get((row["season_id"], row["engine_slug"]))
        if table is None:
            continue
        standing = standing_of(row)
        (table.ranked if standing.place is not None else table.unranked).append(standing)
    for table in tables.values():
        table.ranked.sort(key=lambda s: (s.place, *standing_order(s)))
        table.unranked.sort(key=standing_order)
    return tables


def in_game_order(tables: dict[str, Table]) -> list[Table]:
    order = list(game_titles())
    return sorted(tables.values(), key=lambda t: order.index(t.slug))


def games_played(seasons: list[Season]) -> list[tuple[int, str]]:
    """(season id, game slug) of each game played in the seasons (one query)."""
    return list(
        SeasonStanding.objects.filter(season__in=seasons)
        .order_by()
        .values_list("season_id", "engine_slug")
        .distinct()
    )


def season_tables(season: Season, *, game: str = "") -> tuple[Table | None, list[Table]]:
    """The table of `game` in the season (of the first game played in it when `game` was not),
    every listed member with their rating at the season's end, and the other games played in
    it (their tables empty, for the links): two queries from the kept standings."""
    kept.ensure_kept([season])
    tables = in_game_order(
        {slug: table for (_id, slug), table in tables_from(games_played([season]), []).items()}
    )
    chosen = next((t for t in tables if t.slug == game), tables[0] if tables else None)
    if chosen is None:
        return None, []
    rows = SeasonStanding.objects.filter(season=season, engine_slug=chosen.slug)
    found = tables_from([(season.pk, chosen.slug)], list(rows.values(*ROW_FIELDS)))
    return found[(season.pk, chosen.slug)], [t for t in tables if t is not chosen]


def summaries(seasons: list[Season], *, leaders: int = 1) -> dict[int, list[Table]]:
    """Season id -> the tables of each game played in it, each with its ranked members down
    to place `leaders` (1: the champions; TOP: the top of each game): two queries from the
    kept standings, and the leaders' rows alone are read."""
    kept.ensure_kept(seasons)
    if not seasons:
        return {}
    rows = SeasonStanding.objects.filter(season__in=seasons, place__lte=leaders)
    found = tables_from(games_played(seasons), list(rows.values(*ROW_FIELDS)))
    by_season: dict[int, dict[str, Table]] = {season.pk: {} for season in seasons}
    for (season_id, slug), table in found.items():
        by_season[season_id][slug] = table
    return {season_id: in_game_order(tables) for season_id, tables in by_season.items()}


def member_places(user: Any, seasons: list[Season]) -> list[dict[str, Any]]:
    """The seasons a member played in, newest first, with their standing in each game and how
    many are ranked in it: the member's kept rows and a count (two queries)."""
    kept.ensure_kept(seasons)
    mine = list(SeasonStanding.objects.filter(user=user, season__in=seasons).values(*ROW_FIELDS))
    if not mine:
        return []
    ranked = (
        SeasonStanding.objects.filter(
            season__in={row["season_id"] for row in mine},
            engine_slug__in={row["engine_slug"] for row in mine},
            place__isnull=False,
        )
        .order_by()
        .values("season_id", "engine_slug")
        .annotate(n=Count("pk"))
    )
    of = {(row["season_id"], row["engine_slug"]): row["n"] for row in ranked}
    tables = tables_from([(row["season_id"], row["engine_slug"]) for row in mine], mine)
    rows = []
    for season in seasons:
        entries = [
            {"table": table, "standing": [*table.ranked, *table.unranked][0], "of": of.get(key, 0)}
            for key, table in tables.items()
            if key[0] == season.pk
        ]
        if entries:
            order = list(game_titles())
            entries.sort(key=lambda entry: order.index(entry["table"].slug))
            rows.append({"season": season, "entries": entries})
    return rows
