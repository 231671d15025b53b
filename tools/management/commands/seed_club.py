"""Fill the club with members and finished games: `manage.py seed_club --games 10000`."""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import django
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from tqdm import tqdm

from tools import seeding, seeding_tournaments

BATCH = 100


class Command(BaseCommand):
    help = (
        "Create members and finished games of every game, played by the random and greedy "
        "bots and stored with their move logs, results and ratings, and the seasons of the "
        "last five quarters (tools/seeding.py); with --games 40 or more, one finished and one "
        "running tournament of each format, whose tables are part of the games "
        "(tools/seeding_tournaments.py)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1000, help="finished games to add")
        parser.add_argument("--members", type=int, default=150, help="members (member001...)")
        parser.add_argument("--seed", type=int, default=1, help="makes the club reproducible")
        parser.add_argument(
            "--bot-share",
            type=float,
            default=0.01,
            help="share of seats given to the normal bot (the greedy bot plays them)",
        )
        parser.add_argument("--days", type=int, default=365, help="games finish over these days")
        parser.add_argument(
            "--jobs", type=int, default=2, help="processes that play the games (one per core)"
        )

    def played_games(self, specs: list[seeding.GameSpec], jobs: int) -> Iterator[seeding.Played]:
        """The games played in order, by `jobs` spawned processes (they need no database; a
        fork would copy the locks of the parent's threads) or, with one job, right here."""
        if jobs == 1:
            yield from map(seeding.play_game, specs)
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=django.setup) as pool:
            yield from pool.map(seeding.play_game, specs, chunksize=4)

    def handle(self, *args: Any, **options: Any) -> None:
        games, members, jobs = options["games"], options["members"], options["jobs"]
        if games < 1 or members < 1 or jobs < 1:
            raise CommandError("--games, --members and --jobs must be at least 1.")
        if not 0 <= options["bot_share"] < 1:
            raise CommandError("--bot-share is a share of the seats, from 0 to below 1.")
        started = time.perf_counter()
        # The tournaments' tables are games of the --games asked for, played after the others.
        with_tournaments = seeding_tournaments.wanted(games, members)
        reserved = seeding_tournaments.games_needed() if with_tournaments else 0
        specs = seeding.plan(
            games - reserved, members, seed=options["seed"], bot_share=options["bot_share"]
        )
        end = timezone.now()
        # Members joined over the same days as the games, each before their first game, so
        # the club page's newest members and the profiles' "member since" look like a club's.
        joined = seeding.joining_times(specs, members, end=end, days=options["days"])
        club = seeding.ensure_members(members, joined)
        book = seeding.RatingBook.load()
        moves = 0
        stored = 0
        with tqdm(total=games - reserved, unit="game", desc="seed_club", file=sys.stderr) as bar:
            batch: list[seeding.Played] = []

            def write() -> None:
                nonlocal batch, stored, moves
                planned = games - reserved
                seeding.write(batch, club, book, games=planned, end=end, days=options["days"])
                stored += len(batch)
                moves += sum(len(played.moves) for played in batch)
                bar.update(len(batch))
                batch = []

            for played in self.played_games(specs, jobs):
                batch.append(played)
                if len(batch) == BATCH:
                    write()
            # The last batch is partial whenever --games is not a multiple of BATCH. (A
            # played game's spec came back from another process: a copy, never `specs[-1]`.)
            if batch:
                write()
        if with_tournaments:
            added, tournament_moves = seeding_tournaments.seed(
                club, book, seed=options["seed"], since=end, now=timezone.now()
            )
            stored += added
            moves += tournament_moves
        seasons = seeding.ensure_seasons(end)
        seeding.analyze()
        seconds = time.perf_counter() - started
        note = f"; {len(seeding_tournaments.DESIGNS)} tournaments" if with_tournaments else ""
        # What was stored, counted as it was written, not what was asked for.
        self.stdout.write(
            self.style.SUCCESS(
                f"{stored} games ({moves} moves) for {members} members in {seconds:.0f} s; "
                f"{len(seasons)} seasons added{note}."
            )
        )
