"""Tournaments for a seeded club (seed_club): one finished and one running of each format, so a
newcomer finds the tournament pages, the profiles' places and the club page's lists filled.

Their tables are paired as the site pairs them (`services.tournaments.pair_round`: Swiss by
the standings of the rounds before, round robin by its fixed schedule) and played as every
seeded game is (tools/seeding.py: the random bot for members, the greedy bot for the bot seats
that complete tables), then stored with the rounds and tables that lead to them. A finished
tournament is closed by the beat's own `finish_tournament`, which keeps the final places; a
running one has played its first round, and its next rounds are due in the days to come, when
the beat starts them with real games.

Their games are taken out of seed_club's `--games` and finish after the club's other games, so
ratings still follow the finishing order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from accounts.models import User
from games import engines
from games.models import Game, Tournament, TournamentEntry, TournamentRound, TournamentTable
from games.services import tournaments
from tools import seeding

Format = Tournament.Format


@dataclass(frozen=True)
class Design:
    name: str
    pick: int  # which of the games that seat table_size (in the registry's order)
    format: str
    table_size: int
    members: int
    rounds: int  # Swiss only: round robin plays table_size + 1
    played: int  # rounds played; fewer than all: the tournament is running

    @property
    def slug(self) -> str:
        fitting = [
            e.slug for e in engines.all() if e.min_players <= self.table_size <= e.max_players
        ]
        return fitting[self.pick % len(fitting)]

    @property
    def round_count(self) -> int:
        return tournaments.round_count(self.format, self.table_size, self.rounds)

    @property
    def games(self) -> int:
        """Games its played rounds take: every member seated once a round, bots completing."""
        return self.played * -(-self.members // self.table_size)


DESIGNS = [
    Design("Autumn Swiss cup", 0, Format.SWISS, 3, 5, 2, 2),
    Design("Round robin league", 1, Format.ROUND_ROBIN, 2, 4, 0, 3),
    Design("Winter Swiss open", 2, Format.SWISS, 3, 5, 3, 1),
    Design("Round robin cup", 0, Format.ROUND_ROBIN, 2, 4, 0, 1),
]
# seed_club seeds tournaments when --games leaves this many for the rest, and enough members.
MIN_GAMES = 40
MIN_MEMBERS = max(d.members for d in DESIGNS) + 1


def games_needed(designs: list[Design] = DESIGNS) -> int:
    return sum(d.games for d in designs)


def wanted(games: int, members: int) -> bool:
    return games >= MIN_GAMES and members >= MIN_MEMBERS


def seed(
    club: list[User],
    book: seeding.RatingBook,
    *,
    seed: int,
    since: datetime,
    now: datetime,
    designs: list[Design] = DESIGNS,
) -> tuple[int, int]:
    """Store the tournaments of `designs`; their games finish in turn between `since` (the
    club's last game) and `now`. Returns (games stored, moves stored)."""
    rng = random.Random(seed)
    total = games_needed(designs)
    span = max((now - since).total_seconds(), float(total)) / 86_400
    written = moves = 0
    for design in designs:
        picked = rng.sample(range(1, len(club)), design.members)  # club[0] organises
        tournament = Tournament.objects.create(
            name=design.name,
            organiser=club[0],
            engine_slug=design.slug,
            format=design.format,
            table_size=design.table_size,
            capacity=16,
            bot_level=seeding.BOT_LEVEL,
            status=Tournament.Status.RUNNING,
        )
        entries = [
            TournamentEntry.objects.create(
                tournament=tournament,
                user=club[index],
                status=TournamentEntry.Status.REGISTERED,
                first_round=1,
            )
            for index in picked
        ]
        tournament.order = [e.pk for e in entries]
        tournament.save(update_fields=["order"])
        member_of = {e.pk: club.index(e.user) for e in entries}
        for number in range(1, design.round_count + 1):
            if number > design.played:
                # Due in the days to come: the beat starts it at its time.
                TournamentRound.objects.create(
                    tournament=tournament,
                    number=number,
                    starts_at=now + timedelta(days=number - design.played),
                )
                continue
            round_ = TournamentRound.objects.create(
                tournament=tournament, number=number, starts_at=now
            )
            tables = tournaments.pair_round(tournament, number, entries)
            for table_number, seats in enumerate(tables, start=1):
                spec = seeding.GameSpec(
                    number=written,
                    slug=design.slug,
                    seed=rng.getrandbits(62),
                    members=tuple(member_of[s] if s else None for s in seats),
                    rated=True,
                )
                played = seeding.play_game(spec)
                [game] = seeding.write([played], club, book, games=total, end=now, days=span)
                written += 1
                moves += len(played.moves)
                TournamentTable.objects.create(
                    round=round_, number=table_number, entries=seats, game=game
                )
            first = Game.objects.filter(tournament_table__round=round_).order_by("started_at")
            started = first.values_list("started_at", flat=True)[0]
            assert started is not None  # every game written above has started
            round_.starts_at = started
            round_.status = TournamentRound.Status.FINISHED
            round_.save(update_fields=["starts_at", "status"])
        tournaments.finish_tournament(tournament_id=tournament.pk)
    return written, moves


def bench_designs(count: int) -> list[Design]:
    """`count` tournaments of club size for bench_club: Swiss of 16 members at tables of four
    over 4 rounds and round robins of 8 members at tables of two (two groups), every other one
    still running."""
    shapes = [
        Design("", 0, Format.SWISS, 4, 16, 4, 4),
        Design("", 1, Format.ROUND_ROBIN, 2, 8, 0, 3),
        Design("", 0, Format.SWISS, 4, 16, 4, 2),
        Design("", 1, Format.ROUND_ROBIN, 2, 8, 0, 1),
    ]
    return [replace(shapes[n % len(shapes)], name=f"Bench {n + 1}") for n in range(count)]
