"""What the stored results say: a member's history, profile and head-to-head, and the standings.

Read-only, from `Result` and `Rating` rows. Each function runs a fixed number of queries,
however many games the club has played (tests/games/test_stats_queries.py), and the rows it
reads for one page are bounded: the history reads one page, a chart its last points, a
breakdown its last games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, Exists, F, Max, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from games import boards, catalog, ratings
from games.models import PRACTICE_OPTION, Game, Rating, Result, Seat
from games.rating_chart import rating_chart
from games.rendering import BOT_LABELS

# A leaderboard lists a member or bot level after this many rated games of that game.
MIN_RATED_GAMES = 5
# The rating chart shows the last this many rated games; the breakdown averages the last
# this many games.
CHART_POINTS = 50
BREAKDOWN_GAMES = 20
HISTORY_PAGE_SIZE = 20


@dataclass(frozen=True)
class Player:
    """A participant as the statistics see one: a member, or a bot level."""

    user_id: int | None
    bot_level: str
    name: str
    username: str = ""

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def key(self) -> str:
        """The history's opponent filter value: "u:<username>" or "b:<level>"."""
        return f"u:{self.username}" if self.user_id is not None else f"b:{self.bot_level}"


def player_of(result: Result) -> Player:
    if result.user_id is not None:
        user = result.user
        return Player(result.user_id, "", user.name if user else "", user.username if user else "")
    return Player(None, result.bot_level, str(BOT_LABELS.get(result.bot_level, result.bot_level)))


def game_titles() -> dict[str, str]:
    """Slug -> title in the reader's language, for every game the site can play."""
    return {info.slug: info.title for info in catalog.games() if info.playable}


def category_label(slug: str, key: str) -> str:
    board = boards.get(slug)
    label = board.CATEGORIES.get(key, (None, ""))[0] if board is not None else None
    return str(label) if label is not None else key.replace("_", " ").capitalize()


# --- history ----------------------------------------------------------------------------------


def finished_games(
    user: Any, *, engine_slug: str = "", outcome: str = "", opponent: str = ""
) -> QuerySet[Game]:
    """The finished games the member sat in, newest first, narrowed by the history's filters:
    a game, "won" (rank 1, shared victories included) or "lost", and an opponent key
    (`Player.key`). Unknown filter values narrow nothing.

    Read from the seats, so a game whose results are not stored yet (its end-of-game task
    still to run) is listed too; only the result filters need the results.
    """
    games = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
    if engine_slug in game_titles():
        games = games.filter(engine_slug=engine_slug)
    # Each filter() call joins the related rows afresh: "my result won" and "an opponent's
    # seat" are conditions on different rows.
    if outcome == "won":
        games = games.filter(results__user=user, results__rank=1)
    elif outcome == "lost":
        games = games.filter(results__user=user, results__rank__gt=1)
    # The opponent as a condition on the game (EXISTS), not a join: a game where two bots of
    # the level sat would come back once per bot.
    kind, _, value = opponent.partition(":")
    if kind == "u" and value:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user__username=value)))
    elif kind == "b" and value in BOT_LABELS:
        bots = Seat.objects.filter(game=OuterRef("pk"), bot_level=value, user__isnull=True)
        games = games.filter(Exists(bots))
    # A page never draws the board: the cached state is the largest column by far.
    return games.defer("state").order_by("-finished_at", "-pk")


def history_rows(user: Any, games: list[Game]) -> list[dict[str, Any]]:
    """One row per game of a history page: the game, its date, the opponents, my rank and
    score, the winners, and whether it was rated (with my rating change). Two queries."""
    ids = [game.pk for game in games]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).select_related("user").order_by("position"):
        seats[seat.game_id].append(seat)
    results: dict[int, list[Result]] = defaultdict(list)
    for result in Result.objects.filter(game_id__in=ids).select_related("user").order_by("seat"):
        results[result.game_id].append(result)
    titles = game_titles()
    rows = []
    for game in games:
        mine = next((s for s in seats[game.pk] if s.user_id == user.pk), None)
        table = results[game.pk]
        my_result = next((r for r in table if mine and r.seat == mine.position), None)
        change = None
        if my_result is not None and my_result.rating_after is not None:
            before = ratings.display(my_result.rating_before or 0.0)
            change = ratings.display(my_result.rating_after) - before
        rows.append(
            {
                "game": game,
                "title": titles.get(game.engine_slug, game.engine_slug),
                "date": game.finished_at,
                "opponents": [player_of_seat(s) for s in seats[game.pk] if s is not mine],
                "winners": [player_of(r) for r in table if r.rank == 1],
                "rank": my_result.rank if my_result else None,
                "players": game.players,
                "score": my_result.score if my_result else None,
                "won": my_result is not None and my_result.rank == 1,
                "rated": game.rated and not game.imported and not game.hints_used,
                "rating_change": change,
            }
        )
    return rows


def player_of_seat(seat: Seat) -> Player:
    if seat.user is not None:
        return Player(seat.user_id, "", seat.user.name, seat.user.username)
    level = seat.bot_level
    return Player(None, level, str(BOT_LABELS.get(level, level)))


def my_finished_game_ids(user: Any) -> QuerySet[Result, Any]:
    """The ids of the finished games the member has a result in, as a subquery."""
    return Result.objects.filter(user=user, game__status=Game.Status.FINISHED).values("game_id")


def members_by_id(ids: set[int]) -> dict[int, Any]:
    users = get_user_model().objects.filter(pk__in=ids).only("username", "display_name")
    return {u.pk: u for u in users}


def opponents_of(user: Any) -> list[Player]:
    """Everyone the member has finished a game against, members by name, then bot levels."""
    pairs = set(
        Result.objects.filter(game_id__in=my_finished_game_ids(user))
        .exclude(user=user)
        .values_list("user_id", "bot_level")
        .order_by()  # Result's default ordering would join the games into the DISTINCT
        .distinct()
    )
    members = members_by_id({uid for uid, _ in pairs if uid is not None})
    players = {
        Player(uid, "", members[uid].name, members[uid].username)
        for uid, _ in pairs
        if uid in members
    }
    players |= {
        Player(None, level, str(BOT_LABELS[level]))
        for uid, level in pairs
        if uid is None and level in BOT_LABELS
    }
    return sorted(players, key=lambda p: (p.is_bot, p.name.casefold(), p.key))


# --- profile ----------------------------------------------------------------------------------


@dataclass
class GameStats:
    slug: str
    title: str
    played: int
    wins: int
    average: float
    best: int
    rating: int | None = None
    rated_games: int = 0
    ranked: bool = False
    chart: dict[str, Any] | None = None
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    breakdown_games: int = 0


def profile_stats(user: Any) -> list[GameStats]:
    """Per game the member has finished: games played, wins, average and best score, the
    current rating with its chart, and the average breakdown over the last games. Practice
    games (begun from a reviewed position, against bots) count in none of them."""
    titles = game_titles()
    totals = (
        Result.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .exclude(game__options__has_key=PRACTICE_OPTION)
        .values("game__engine_slug")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=Q(rank=1)),
            average=Avg("score"),
            best=Max("score"),
        )
    )
    stats = {
        row["game__engine_slug"]: GameStats(
            slug=row["game__engine_slug"],
            title=titles[row["game__engine_slug"]],
            played=row["played"],
            wins=row["wins"],
            average=round(float(row["average"]), 1),
            best=row["best"],
        )
        for row in totals
        if row["game__engine_slug"] in titles
    }
    for rating in Rating.objects.filter(user=user, engine_slug__in=list(stats)):
        entry = stats[rating.engine_slug]
        entry.rating = ratings.display(rating.ordinal)
        entry.rated_games = rating.games_played
        entry.ranked = rating.games_played >= MIN_RATED_GAMES
    for slug, points in rating_points(user, list(stats)).items():
        stats[slug].chart = rating_chart(points)
    for entry in stats.values():
        entry.breakdown, entry.breakdown_games = average_breakdown(user, entry.slug)
    order = list(titles)
    return sorted(stats.values(), key=lambda s: order.index(s.slug))


def rating_points(user: Any, slugs: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The member's rating after each of their last rated games, oldest first, per game."""
    rows = (
        Result.objects.filter(user=user, rating_after__isnull=False, game__engine_slug__in=slugs)
        .order_by("-game__finished_at", "-game_id")
        .values_list(
            "game__engine_slug",
            "game_id",
            "game__finished_at",
            "rating_after",
            "rating_before",
            "rank",
            "game__players",
        )
    )
    points: dict[str, list[dict[str, Any]]] = defaultdict(list)
    # Read newest first until every game has its points; a game of which the member has
    # played only a few lets the query run to the end of their rated games.
    for slug, game_id, finished_at, after, before, place, players in rows.iterator(chunk_size=500):
        if len(points[slug]) < CHART_POINTS:
            assert after is not None  # the query's: rated games only
            points[slug].append(
                {
                    "game_id": game_id,
                    "date": finished_at,
                    "rating": ratings.display(after),
                    "before": ratings.display(before or 0.0),
                    "place": place,
                    "players": players,
                }
            )
        elif all(len(points[s]) >= CHART_POINTS for s in slugs):
            break
    return {slug: list(reversed(found)) for slug, found in points.items() if found}


def average_breakdown(user: Any, slug: str) -> tuple[list[dict[str, Any]], int]:
    """The member's average points per scoring category over their last games of `slug`."""
    last = list(
        Result.objects.filter(user=user, game__engine_slug=slug, game__status=Game.Status.FINISHED)
        .exclude(game__options__has_key=PRACTICE_OPTION)
        .order_by("-game__finished_at", "-game_id")
        .values_list("breakdown", flat=True)[:BREAKDOWN_GAMES]
    )
    keys: list[str] = []
    for parts in last:
        keys.extend(k for k in parts if k not in keys)
    if not last:
        return [], 0
    rows = []
    for key in keys:
        average = sum(parts.get(key, 0) for parts in last) / len(last)
        rows.append({"key": key, "label": category_label(slug, key), "average": round(average, 1)})
    return rows, len(last)


def head_to_head(user: Any) -> list[dict[str, Any]]:
    """Against each member and bot level the member has finished games with: games together,
    and how often the member finished ahead, behind, or level (the same rank).

    Counted by the database in one grouped query: each row is another seat's result, joined
    to the member's own result of the same game (`game__results`, reused by the annotations).
    """
    mine = "game__results__rank"
    rows = (
        Result.objects.filter(game__results__user=user, game__status=Game.Status.FINISHED)
        .exclude(user=user)
        .exclude(game__options__has_key=PRACTICE_OPTION)
        .values("user_id", "bot_level")
        .order_by()
        .annotate(
            games=Count("pk"),
            ahead=Count("pk", filter=Q(**{f"{mine}__lt": F("rank")})),
            behind=Count("pk", filter=Q(**{f"{mine}__gt": F("rank")})),
            level=Count("pk", filter=Q(**{mine: F("rank")})),
        )
    )
    found = list(rows)
    members = members_by_id({row["user_id"] for row in found if row["user_id"] is not None})
    table: list[dict[str, Any]] = []
    for row in found:
        user_id, bot_level = row["user_id"], row["bot_level"]
        if user_id is not None and user_id in members:
            who = Player(user_id, "", members[user_id].name, members[user_id].username)
        elif user_id is None and bot_level in BOT_LABELS:
            who = Player(None, bot_level, str(BOT_LABELS[bot_level]))
        else:
            continue  # an imported game's seat, or a seat that was never filled
        table.append(
            {
                "player": who,
                "games": row["games"],
                "ahead": row["ahead"],
                "behind": row["behind"],
                "level": row["level"],
            }
        )
    table.sort(key=lambda row: (-row["games"], row["player"].is_bot, row["player"].name.casefold()))
    return table


# --- standings --------------------------------------------------------------------------------


def best_first(ratings: QuerySet[Rating]) -> QuerySet[Rating]:
    """The ratings that make a leaderboard (MIN_RATED_GAMES rated games or more), best first.

    Two first games of a bot level at once may leave it a second row (with no member the
    unique constraint cannot stop it); every later game rates the oldest (games/ratings.py),
    so the oldest is the level's rating and the others are left out, wherever they stand."""
    older_twin = Rating.objects.filter(
        engine_slug=OuterRef("engine_slug"),
        user__isnull=True,
        bot_level=OuterRef("bot_level"),
        pk__lt=OuterRef("pk"),
    )
    return (
        ratings.filter(games_played__gte=MIN_RATED_GAMES)
        .exclude(Q(user__isnull=True) & Exists(older_twin))
        .select_related("user")
        .annotate(score=F("mu") - 3 * F("sigma"))
        .order_by("-score", "pk")
    )


def leaderboard(engine_slug: str, head: int | None = None) -> list[dict[str, Any]]:
    """Members and bot levels with at least MIN_RATED_GAMES rated games of the game, best
    first. Equal displayed ratings share a place (1, 1, 3: standard competition ranking).

    With `head`, the first `head` rows of that table, read from the top of the ratings alone:
    they come best first and the displayed number never rises down the list, so a row's place
    and whether it is tied need only the rows above it and the next one."""
    rows = best_first(Rating.objects.filter(engine_slug=engine_slug))
    board = board_of(rows if head is None else in_slices(rows, head + 4), head)
    return board if head is None else board[:head]


def board_of(rows: Iterable[Rating], head: int | None = None) -> list[dict[str, Any]]:
    """The leaderboard of the ratings given best first (with `head`, read up to the row after
    the head), each row with its place and whether it is tied."""
    board: list[dict[str, Any]] = []
    for rating in rows:
        if rating.user is None:
            if rating.bot_level not in BOT_LABELS:
                continue  # a level the site no longer has
            who = Player(None, rating.bot_level, str(BOT_LABELS[rating.bot_level]))
        else:
            who = Player(rating.user_id, "", rating.user.name, rating.user.username)
        board.append(
            {"player": who, "rating": ratings.display(rating.ordinal), "games": rating.games_played}
        )
        if head is not None and len(board) > head:
            break  # the row after the head, read for whether the last one is tied
    board.sort(key=lambda row: -row["rating"])  # stable: equal numbers keep the pk order
    place = 0
    for index, row in enumerate(board):
        if index == 0 or row["rating"] != board[index - 1]["rating"]:
            place = index + 1
        row["place"] = place
        row["tied"] = False
    for index, row in enumerate(board):
        neighbours = board[max(index - 1, 0) : index + 2]
        row["tied"] = sum(1 for other in neighbours if other["place"] == row["place"]) > 1
    return board


def in_slices(rows: QuerySet[Rating], size: int) -> Iterator[Rating]:
    """The rows, read `size` at a time as they are wanted."""
    start = 0
    while True:
        found = list(rows[start : start + size])
        yield from found
        if len(found) < size:
            return
        start += size


def top_of_every_game(count: int = 5) -> list[dict[str, Any]]:
    """The first `count` rows of each game's standings (the club page and the standings'
    index), in the catalogue's order: the first rows of every game in one query (a few more
    than `count`, for bot levels the site no longer has and the tie after the last), and a
    game's own query only where those were not enough."""
    titles = game_titles()
    wanted = count + 4
    nth = Window(
        RowNumber(),
        partition_by=F("engine_slug"),
        order_by=[(F("mu") - 3 * F("sigma")).desc(), F("pk").asc()],
    )
    heads = best_first(Rating.objects.filter(engine_slug__in=list(titles))).annotate(nth=nth)
    found: dict[str, list[Rating]] = defaultdict(list)
    for rating in heads.filter(nth__lte=wanted):
        found[rating.engine_slug].append(rating)
    tops = []
    for slug, title in titles.items():
        board = board_of(found[slug])
        if len(found[slug]) == wanted and len(board) <= count:
            board = leaderboard(slug, head=count)  # skipped rows left too few: read on
        tops.append({"slug": slug, "title": title, "board": board[:count]})
    return tops
