"""A season's standings, kept (SeasonStanding): counted once from the results, then brought up
to date by each of its games as it is scored, so the pages read a few rows.

`grouped` is the count itself: the database sums the place points, games and ranks of every
member in one grouped query over the season's results (games/seasons.py says what counts). The
first page that asks for a season's standings counts them so and keeps them (`keep_standings`),
each member's place and rating at the season's end with them. From then on the transaction
that scores a game of the season adds the game to the kept rows of its members and places the
game's table again (`count_finished_game`): the kept rows always equal a new count, which
tests/games/test_season_standings.py checks.

What a game's end does not see makes the season count again when next asked: its days edited
(games/seasons.save_season), results written in bulk (seeding, `forget_standings`), or another
minimum of games (settings.SEASON_MIN_GAMES, kept with the rows). So does any delete that takes
counted rows away, in its own transaction (`watch_deletes`, connected at start-up): a result
(alone, or with its game) makes the season its game finished in count again, and reads again the
deleted seat's member's ratings at the end of the kept seasons after it; a member makes every
season they have a row in count again (their results stay, as a seat no member holds).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import (
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
from django.db.models.signals import post_delete, pre_delete

from games.models import Game, Result, Season, SeasonStanding


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


def club_day(instant: datetime) -> date:
    return instant.astimezone(club_zone()).date()


def counts_in_seasons(game: Game) -> bool:
    """The rated games count (not imported, no hints taken: the games that move ratings)."""
    return game.rated and not game.imported and not game.hints_used


# --- the count ---------------------------------------------------------------------------------


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


def doubled_points(players: int, rank: int, shared_by: int) -> int:
    """Twice the place points of a seat on `rank`, shared by `shared_by` seats, in a game of
    `players`: the shared places r .. r + k - 1 earn (n - r) + ... + (n - r - k + 1), split k
    ways, that is n - r - (k - 1) / 2; twice that keeps the sums whole."""
    return 2 * players - 2 * rank - shared_by + 1


def grouped(seasons: list[Season]) -> list[dict[str, Any]]:
    """Per season, game and member: twice the place points, games played and the sum of the
    ranks finished on (one query)."""
    if not seasons:
        return []
    doubled = 2 * F("game__players") - 2 * F("rank") - sharing() + 1
    return list(
        counted_results(*seasons)
        .annotate(season_id=season_of(seasons))
        .values("season_id", "game__engine_slug", "user_id")
        .order_by()
        .annotate(doubled=Sum(doubled), played=Count("pk"), rank_sum=Sum("rank"))
    )


def average_place(rank_sum: int, played: int) -> float:
    return rank_sum / played


def place_rows(rows: list[SeasonStanding], minimum: int) -> None:
    """Set the place of each row of one game's table: members with at least `minimum` games
    are ranked by points, then by the better (lower) average place; equal on both, they share
    the place. The others have none (not yet ranked)."""
    ranked = sorted(
        (row for row in rows if row.played >= minimum),
        key=lambda row: (-row.doubled, average_place(row.rank_sum, row.played)),
    )
    for row in rows:
        if row.played < minimum:
            row.place = None
    before: tuple[int, float] | None = None
    place = 0
    for index, row in enumerate(ranked):
        key = (row.doubled, average_place(row.rank_sum, row.played))
        if key != before:
            place, before = index + 1, key
        row.place = place


def ratings_at_end(
    season: Season, pairs: set[tuple[int, str]], *, only_these: bool = False
) -> dict[tuple[int, str], float]:
    """(member id, game slug) -> the raw rating after the member's last rated game of that game
    up to the season's end, for the pairs asked (two queries at most). Read from the season's
    own results (of the pairs' members alone with `only_these`); a member whom no game of the
    season rated (their seats there were left out of the rating) has it from the games before."""
    start, end = bounds(season)
    slugs = sorted({slug for _user, slug in pairs})
    if not slugs:
        return {}
    rows = Result.objects.filter(
        user__isnull=False,
        rating_after__isnull=False,
        game__engine_slug__in=slugs,
        game__finished_at__gte=start,
        game__finished_at__lt=end,
    )
    if only_these:
        rows = rows.filter(user_id__in={user_id for user_id, _slug in pairs})
    found = rows.order_by("game__finished_at", "game_id").values_list(
        "user_id", "game__engine_slug", "rating_after"
    )
    # The last one wins (rated results only: none is None).
    at_end = {(user_id, slug): value for user_id, slug, value in found if value is not None}
    missing = {user_id for user_id, slug in pairs if (user_id, slug) not in at_end}
    if missing:
        at_end.update(ratings_before(start, slugs, missing))
    return {pair: value for pair, value in at_end.items() if pair in pairs}


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


def recount(season: Season) -> list[SeasonStanding]:
    """The season's standings counted anew from its results, placed (not saved)."""
    rows = grouped([season])
    at_end = ratings_at_end(season, {(r["user_id"], r["game__engine_slug"]) for r in rows})
    standings = [
        SeasonStanding(
            season=season,
            engine_slug=row["game__engine_slug"],
            user_id=row["user_id"],
            doubled=row["doubled"],
            played=row["played"],
            rank_sum=row["rank_sum"],
            rating=at_end.get((row["user_id"], row["game__engine_slug"])),
        )
        for row in rows
    ]
    by_game: dict[str, list[SeasonStanding]] = defaultdict(list)
    for standing in standings:
        by_game[standing.engine_slug].append(standing)
    for table in by_game.values():
        place_rows(table, min_games())
    return standings


# --- keeping -----------------------------------------------------------------------------------


def is_kept(season: Season) -> bool:
    return season.standings_stored and season.standings_min_games == min_games()


def keep_standings(season: Season) -> None:
    """Count a season's standings and keep them, once: under the season's row lock, so a game
    of it being scored waits (or finds them kept and adds itself), and two pages asking at
    once count it once."""
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        if not is_kept(locked):
            standings = recount(locked)
            SeasonStanding.objects.filter(season=locked).delete()
            SeasonStanding.objects.bulk_create(standings, batch_size=1000)
            Season.objects.filter(pk=locked.pk).update(
                standings_stored=True, standings_min_games=min_games()
            )
    # `season` is left as it was read: a page reads its season afresh, and a season held
    # longer (a test, a command) asks again under the lock rather than trust an old flag.


def ensure_kept(seasons: Iterable[Season]) -> None:
    for season in seasons:
        if not is_kept(season):
            keep_standings(season)


def forget_standings() -> None:
    """Results were written past `count_finished_game`, in bulk (seeding): every season's kept
    standings are counted again when next asked."""
    ids = list(Season.objects.filter(standings_stored=True).values_list("pk", flat=True))
    if ids:
        SeasonStanding.objects.filter(season_id__in=ids).delete()
        Season.objects.filter(pk__in=ids).update(standings_stored=False)


def forget_season(season: Season) -> None:
    """The season's days changed: its kept standings are counted again when next asked."""
    season.standings_stored = False
    Season.objects.filter(pk=season.pk).update(standings_stored=False)
    SeasonStanding.objects.filter(season=season).delete()


def count_finished_game(game: Game, results: list[Result]) -> None:
    """Add a game just scored to the kept standings of the season it finished in, in the
    transaction that stores its results: its members' points, games, ranks and ratings, then
    the places of that game's table. A game scored late (its end-of-game task lost) is added
    the same way, and the members' ratings at the end of the kept seasons after it are read
    again (one of them may come from before those seasons). One query when no kept season
    holds the game's day or a later one."""
    if not counts_in_seasons(game) or game.finished_at is None:
        return
    members = {result.user_id for result in results if result.user_id is not None}
    if not members:
        return
    day = club_day(game.finished_at)
    # Locked last, after the game and the ratings, so two games scored at once cannot deadlock.
    # Every season from the game's day on is locked, kept or not: one being counted now
    # (keep_standings) is then read as it commits, kept, and the game is added to it.
    kept = [
        season
        for season in Season.objects.select_for_update()
        .filter(ends_on__gte=day)
        .order_by("starts_on")
        if is_kept(season)
    ]
    for season in kept:
        if season.starts_on <= day:
            add_game(season, game, results)
    later = [season for season in kept if season.starts_on > day]
    if later:
        refresh_ratings(later, game.engine_slug, members)


def add_game(season: Season, game: Game, results: list[Result]) -> None:
    slug = game.engine_slug
    shared = Counter(result.rank for result in results)
    ids = {result.user_id for result in results if result.user_id is not None}
    rows = {
        row.user_id: row
        for row in SeasonStanding.objects.filter(season=season, engine_slug=slug, user_id__in=ids)
    }
    new = []
    for result in results:
        if result.user_id is None:
            continue  # bots take their places and points in the game, but are never listed
        row = rows.get(result.user_id)
        if row is None:
            row = SeasonStanding(
                season=season,
                engine_slug=slug,
                user_id=result.user_id,
                doubled=0,
                played=0,
                rank_sum=0,
            )
            rows[result.user_id] = row
            new.append(row)
        row.doubled += doubled_points(game.players, result.rank, shared[result.rank])
        row.played += 1
        row.rank_sum += result.rank
    at_end = ratings_at_end(season, {(user_id, slug) for user_id in ids}, only_these=True)
    for user_id, row in rows.items():
        row.rating = at_end.get((user_id, slug))
    stored = [row for row in rows.values() if row.pk is not None]
    SeasonStanding.objects.bulk_create(new)
    if stored:
        SeasonStanding.objects.bulk_update(stored, ["doubled", "played", "rank_sum", "rating"])
    place_table(season, slug)


def place_table(season: Season, slug: str) -> None:
    """Place one game's table of the season again, writing only the places that moved."""
    table = list(
        SeasonStanding.objects.filter(season=season, engine_slug=slug).only(
            "pk", "doubled", "played", "rank_sum", "place"
        )
    )
    was = {row.pk: row.place for row in table}
    place_rows(table, min_games())
    moved = [row for row in table if row.place != was[row.pk]]
    if moved:
        SeasonStanding.objects.bulk_update(moved, ["place"], batch_size=500)


def refresh_ratings(seasons: list[Season], slug: str, members: set[int]) -> None:
    """Read again the ratings at the end of the kept seasons for the members' rows of `slug`."""
    rows = SeasonStanding.objects.filter(season__in=seasons, engine_slug=slug, user_id__in=members)
    changed = []
    by_season: dict[int, list[SeasonStanding]] = defaultdict(list)
    for row in rows:
        by_season[row.season_id].append(row)
    for season in seasons:
        found = by_season.get(season.pk, [])
        if not found:
            continue
        at_end = ratings_at_end(season, {(row.user_id, slug) for row in found}, only_these=True)
        for row in found:
            rating = at_end.get((row.user_id, slug))
            if rating != row.rating:
                row.rating = rating
                changed.append(row)
    if changed:
        SeasonStanding.objects.bulk_update(changed, ["rating"])


# --- deletes -----------------------------------------------------------------------------------


def forget_deleted_result(result: Result) -> None:
    """A result was deleted (alone, or with its game, whose row is still there): the season
    its game finished in counts again when next asked, and the kept seasons after it read
    again the member's rating at their end (it may have come from this game). Every season
    from the game's day on is locked, kept or not, as `count_finished_game` locks them: one
    being counted now is then read as it commits, kept, and forgotten."""
    found = Game.objects.filter(pk=result.game_id).values_list("finished_at", "engine_slug").first()
    if found is None:
        return
    finished_at, slug = found
    if finished_at is None:
        return  # never finished: in no season
    day = club_day(finished_at)
    locked = list(Season.objects.select_for_update().filter(ends_on__gte=day).order_by("starts_on"))
    for season in locked:
        if season.starts_on <= day and season.standings_stored:
            forget_season(season)
    later = [season for season in locked if season.starts_on > day and is_kept(season)]
    if later and result.user_id is not None:
        refresh_ratings(later, slug, {result.user_id})


def forget_deleted_member(user_id: int) -> None:
    """A member is being deleted: every season they have a kept row in counts again when next
    asked, so the places below theirs close up. All seasons are locked (a club has a few), so
    one being counted now is read as it commits, with the member's rows."""
    locked = list(Season.objects.select_for_update().order_by("starts_on"))
    theirs = set(SeasonStanding.objects.filter(user_id=user_id).values_list("season_id", flat=True))
    for season in locked:
        if season.pk in theirs:
            forget_season(season)


def result_deleted(sender: Any, instance: Result, **kwargs: Any) -> None:
    forget_deleted_result(instance)


def member_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget_deleted_member(instance.pk)


def watch_deletes() -> None:
    """Connect the deletes above. A result's is sent after its row is gone (a game's results
    go before the game's row), a member's before their rows go with them."""
    post_delete.connect(result_deleted, sender=Result, dispatch_uid="season-result-deleted")
    pre_delete.connect(
        member_deleting, sender=settings.AUTH_USER_MODEL, dispatch_uid="season-member-deleting"
    )
