"""A club's worth of finished games, for trying the pages and measuring them (seed_club).

Every game is a real game: the engine deals it from its seed, each move is chosen by the
random bot (the members' seats) or the greedy bot (the "normal" bot seats), and its moves
go through the one move path's writer: `services.moves.log_entry` checks each with the
engine and makes its row of the log (summary, whether it could be taken back...), and
`services.moves.settle` puts the final state on the game, as `record_move` does on the site.
The results are ranked by `final_ranks`, and the ratings updated game by game in the order
the games finished (`games.ratings.rate`). Only the writing differs: rows go to the database
in bulk, many games per transaction, so `audit_games` accepts every game, and the log is the
one `play_move` would have kept (tests/tools/test_seed_club.py).

Games are played in worker processes (`play_game` needs no database); the parent writes them
in the order they were planned, so ratings follow the finishing dates. The club's seasons are
the calendar quarters of the last games (`ensure_seasons`), so the season pages show them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, cast

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import bots, deals, engines, ratings, season_standings
from games.models import Game, Move, Rating, Result, Season, Seat
from games.seasons import club_zone, overlapping
from games.services.moves import log_entry, settle
from games.services.results import final_ranks

MEMBER_PREFIX = "member"
BOT_LEVEL = "normal"  # the level the greedy bot plays on the site (games/bots: normal)
# A player drawn for a seat is a member this often (the rest are normal bots), and a game is
# marked unrated (a friendly game) this often.
UNRATED_SHARE = 0.03
MAX_MOVES = 5_000


@dataclass(frozen=True)
class GameSpec:
    """One game to play: who sits where (a member's index, or None for a bot seat)."""

    number: int
    slug: str
    seed: int
    members: tuple[int | None, ...]
    rated: bool


@dataclass
class Played:
    spec: GameSpec
    moves: list[Move]  # the log's rows, made by the move path; their game is not set yet
    final: Any  # the engine state at the end
    totals: list[int]
    breakdown: list[dict]
    ranks: dict[int, int]


@dataclass
class RatingBook:
    """Every participant's (mu, sigma, games played) while games are written, in memory."""

    slug_rows: dict[tuple[str, int | None, str], Rating] = field(default_factory=dict)
    changed: set[tuple[str, int | None, str]] = field(default_factory=set)

    @classmethod
    def load(cls) -> RatingBook:
        book = cls()
        for row in Rating.objects.order_by("-pk"):  # the oldest duplicate wins (ratings.py)
            book.slug_rows[(row.engine_slug, row.user_id, row.bot_level)] = row
        return book

    def rate(self, slug: str, results: list[Result]) -> None:
        rated = ratings.rated_keys(results)
        if not rated:
            return
        rows = []
        for _, (user_id, bot_level) in rated:
            key = (slug, user_id, bot_level)
            if key not in self.slug_rows:
                self.slug_rows[key] = Rating(
                    engine_slug=slug,
                    user_id=user_id,
                    bot_level=bot_level,
                    mu=ratings.MODEL.mu,
                    sigma=ratings.MODEL.sigma,
                )
            rows.append(self.slug_rows[key])
            self.changed.add(key)
        after = ratings.rate([(row.mu, row.sigma) for row in rows], [r.rank for r, _ in rated])
        for (result, _), row, (mu, sigma) in zip(rated, rows, after, strict=True):
            result.rating_before = row.ordinal
            row.mu, row.sigma = mu, sigma
            row.games_played += 1
            result.rating_after = row.ordinal

    def save(self) -> None:
        """Write the ratings the games since the last save changed."""
        rows = [self.slug_rows[key] for key in self.changed]
        self.changed.clear()
        Rating.objects.bulk_update(
            [r for r in rows if r.pk], ["mu", "sigma", "games_played"], batch_size=500
        )
        Rating.objects.bulk_create([r for r in rows if not r.pk], batch_size=500)


def joining_times(specs: list[GameSpec], count: int, *, end: datetime, days: int) -> list[datetime]:
    """When each of `count` members joined: spread evenly over the `days` days up to `end`
    (member001 first), and at least a day before the member's first planned game."""
    joined = [end - timedelta(days=days) * (count - k) / count for k in range(count)]
    for spec in specs:
        first = finishing_time(spec.number, len(specs), end=end, days=days) - timedelta(days=1)
        for member in spec.members:
            if member is not None and first < joined[member]:
                joined[member] = first
    return joined


def ensure_members(count: int, joined: list[datetime] | None = None) -> list[User]:
    """`count` members named member001, member002...; the ones already there are kept.
    They share one password hash (hashing is slow on purpose) and a confirmed address; a new
    member joined at `joined[index]` (by default now)."""
    from allauth.account.models import EmailAddress

    names = [f"{MEMBER_PREFIX}{n:03d}" for n in range(1, count + 1)]
    existing = {u.username: u for u in User.objects.filter(username__in=names)}
    password = make_password(None)  # unusable: a seeded member signs in only by a reset
    new = [
        User(
            username=name,
            email=f"{name}@example.com",
            display_name=f"Member {name.removeprefix(MEMBER_PREFIX)}",
            password=password,
            date_joined=joined[k] if joined else timezone.now(),
        )
        for k, name in enumerate(names)
        if name not in existing
    ]
    User.objects.bulk_create(new, batch_size=500)
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    EmailAddress.objects.bulk_create(
        [
            EmailAddress(user=users[u.username], email=u.email, verified=True, primary=True)
            for u in new
        ],
        batch_size=500,
    )
    return [users[name] for name in names]


def plan(games: int, members: int, *, seed: int, bot_share: float) -> list[GameSpec]:
    """Which game each is and who sits where. Members are drawn with weights 1/(k + 2), so a
    few members play many games (the "busy member" of the benchmark) and most play some."""
    rng = random.Random(seed)
    slugs = [engine.slug for engine in engines.all()]
    weights = [1 / (k + 2) for k in range(members)]
    specs = []
    for number in range(games):
        slug = slugs[number % len(slugs)]
        engine = engines.get(slug)
        players = rng.randint(engine.min_players, engine.max_players)
        seats: list[int | None] = []
        for _ in range(players):
            taken = {s for s in seats if s is not None}
            if rng.random() < bot_share or len(taken) >= members:
                seats.append(None)
                continue
            while (pick := rng.choices(range(members), weights)[0]) in taken:
                pass
            seats.append(pick)
        if all(s is None for s in seats):  # a club game has at least one member at the table
            seats[0] = rng.choices(range(members), weights)[0]
        specs.append(
            GameSpec(
                number=number,
                slug=slug,
                seed=rng.getrandbits(62),
                members=tuple(seats),
                rated=rng.random() >= UNRATED_SHARE,
            )
        )
    return specs


def play_game(spec: GameSpec) -> Played:
    """Play the game to its end (no database). The random bot picks uniformly among the legal
    moves (as games/bots/random_bot.py does; legal moves never depend on what a seat cannot
    see, so the true state gives the same list as its determinization); a bot seat moves as
    the greedy bot, from its own view."""
    engine = engines.get(spec.slug)
    players = len(spec.members)
    state = engine.new_game(players, spec.seed, {})
    rng = random.Random(spec.seed)
    seen = engine.view(state, None)
    moves = []
    for number in range(MAX_MOVES):
        if engine.is_over(state):
            break
        seat = rng.choice(engine.to_move(state))
        by_bot = spec.members[seat] is None
        if by_bot:
            move = bots.choose_move(
                engine, engine.view(state, seat), seat, BOT_LEVEL, seed=spec.seed + number
            )
        else:
            move = dict(rng.choice(engine.legal_moves(state, seat)))
        entry = log_entry(
            spec.slug, engine, state, seat, move, number=number, by_bot=by_bot, seen_before=seen
        )
        moves.append(entry.row)
        state, seen = entry.after, entry.seen_after
    else:
        raise RuntimeError(f"{spec.slug} seed {spec.seed} did not end in {MAX_MOVES} moves")
    scores = engine.scores(state)
    return Played(
        spec=spec,
        moves=moves,
        final=state,
        totals=[int(t) for t in scores["totals"]],
        breakdown=[dict(b) for b in scores["breakdown"]],
        ranks=final_ranks(scores, set()),
    )


def insert_moves(rows: list[Move], now: datetime) -> None:
    """The move log in bulk, bypassing the ORM's per-object work (a club's log is about a
    million rows): PostgreSQL's COPY, or one prepared INSERT run for every row elsewhere.
    Each column of the rows the move path made is written as the ORM writes it; all of
    them were written `now`."""
    stamp = Move._meta.get_field("created_at")
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key and f != stamp]
    # Every concrete field has a column (django-stubs types it `str | None` for the others).
    columns = ", ".join(cast(str, f.column) for f in [*fields, stamp])
    written = stamp.get_db_prep_save(now, connection)  # prepared once: it is every row's
    values = [
        [*(f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields), written]
        for row in rows
    ]
    table = Move._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for value in values:
                    copy.write_row(value)
        else:
            marks = ", ".join(["%s"] * (len(fields) + 1))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)


def analyze() -> None:
    """Refresh the planner's statistics of the tables seeding fills. A bulk load leaves them
    unknown until autovacuum comes by (never, where it is off), and PostgreSQL then plans
    the pages' joins for a few hundred rows: the history and the profiles ran twice as slow
    on 10,000 seeded games. VACUUM also clears the rows the updates left behind; it cannot
    run inside a transaction, so a caller's transaction gets ANALYZE alone."""
    tables = [m._meta.db_table for m in (User, Game, Seat, Move, Result, Rating)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
            cursor.execute(f"{command} {', '.join(tables)}")
        else:
            for table in tables:
                cursor.execute(f"ANALYZE {table}")


# Seasons seed_club adds: the quarter of the last game and the ones before it.
SEASON_QUARTERS = 5


def quarters(day: date, count: int) -> list[tuple[str, date, date]]:
    """The calendar quarter holding `day` and the `count - 1` before it, oldest first, each as
    (name, first day, last day): ("2026 Q4", 1 October 2026, 31 December 2026)."""
    found = []
    year, quarter = day.year, (day.month - 1) // 3
    for _ in range(count):
        first = date(year, 3 * quarter + 1, 1)
        following = date(year + 1, 1, 1) if quarter == 3 else date(year, 3 * quarter + 4, 1)
        found.append((f"{year} Q{quarter + 1}", first, following - timedelta(days=1)))
        year, quarter = (year - 1, 3) if quarter == 0 else (year, quarter - 1)
    return list(reversed(found))


def ensure_seasons(end: datetime, count: int = SEASON_QUARTERS) -> list[Season]:
    """The club's seasons as quarters up to the one of `end` (in the club's time zone); a
    quarter that would overlap a season already there is left out."""
    made = []
    for name, first, last in quarters(timezone.localtime(end, club_zone()).date(), count):
        if overlapping(first, last) is None:
            made.append(Season.objects.create(name=name, starts_on=first, ends_on=last))
    return made


def finishing_time(number: int, games: int, *, end: datetime, days: float) -> datetime:
    """Games finish evenly over the last `days` days up to `end`, in the order planned."""
    return end - timedelta(days=days) * (1 - (number + 1) / games)


@transaction.atomic
def write(
    batch: list[Played],
    members: list[User],
    book: RatingBook,
    *,
    games: int,
    end: datetime,
    days: float,
) -> list[Game]:
    """Store a batch of played games: games, seats, the move log, results and ratings."""
    now = timezone.now()
    rows = []
    for played in batch:
        spec = played.spec
        finished = finishing_time(spec.number, games, end=end, days=days)
        rows.append(
            Game(
                engine_slug=spec.slug,
                options={},
                seed=spec.seed,
                **deals.committed(spec.seed),
                players=len(spec.members),
                created_by=members[next(m for m in spec.members if m is not None)],
                started_at=finished - timedelta(minutes=20 + len(played.moves) // 4),
                rated=spec.rated,
            )
        )
        # The state, the move count and the end, as the move path leaves them after the last move.
        settle(
            rows[-1], engines.get(spec.slug), played.final, version=len(played.moves), now=finished
        )
    Game.objects.bulk_create(rows)
    # created_at and updated_at are stamped "now" by bulk_create; the game happened earlier.
    Game.objects.filter(pk__in=[g.pk for g in rows]).update(
        created_at=F("started_at"), updated_at=F("finished_at")
    )
    seats, moves, results = [], [], []
    for game, played in zip(rows, batch, strict=True):
        for position, member in enumerate(played.spec.members):
            user = members[member] if member is not None else None
            seats.append(
                Seat(
                    game=game,
                    position=position,
                    user=user,
                    bot_level="" if user else BOT_LEVEL,
                )
            )
        for move in played.moves:
            move.game_id = game.pk
        moves.extend(played.moves)
        table = [
            Result(
                game=game,
                seat=position,
                user=members[member] if member is not None else None,
                bot_level="" if member is not None else BOT_LEVEL,
                score=played.totals[position],
                breakdown=played.breakdown[position],
                rank=played.ranks[position],
            )
            for position, member in enumerate(played.spec.members)
        ]
        if game.rated:
            book.rate(game.engine_slug, table)
        results.extend(table)
    Seat.objects.bulk_create(seats, batch_size=2000)
    insert_moves(moves, now)
    Result.objects.bulk_create(results, batch_size=2000)
    book.save()  # in the same transaction as the results that moved them
    season_standings.forget_standings()  # written past the end of each game
    return rows
