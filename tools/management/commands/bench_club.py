"""Time the club's pages on the data in the database: `manage.py bench_club`.

Each page is asked for `--requests` times (after one request that warms the caches) through
Django's test client in this process, so the figures are the server's own time for the page,
with no network or browser. Run `seed_club` first (or give `--seed-games`). Tournaments of a
club's size are added first until there are `--tournaments` (tools/seeding_tournaments.py).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.models import Count, Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import seasons, stats
from games.models import Game, Season, Tournament
from tools import seeding, seeding_tournaments


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with `share` of the values at or below."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[int(rank) - 1]


class Command(BaseCommand):
    help = (
        "Median and p95 times of the history, a busy member's profile, each leaderboard, /, "
        "the seasons, the current season's page and the largest finished and running tournaments."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=50, help="requests per page")
        parser.add_argument("--member", default="", help="whose pages (default: the busiest)")
        parser.add_argument(
            "--seed-games", type=int, default=0, help="run seed_club with this many games first"
        )
        parser.add_argument(
            "--tournaments", type=int, default=20, help="add tournaments up to this many first"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["requests"] < 1:
            raise CommandError("--requests must be at least 1.")
        self.stdout.write(f"load average at the start: {self.load()}")
        if options["seed_games"]:
            started = time.perf_counter()
            call_command("seed_club", games=options["seed_games"])
            self.stdout.write(f"seed_club: {time.perf_counter() - started:.0f} s")
        self.add_tournaments(options["tournaments"])
        member = self.member(options["member"])
        games = Game.objects.filter(status=Game.Status.FINISHED).count()
        played = member.results.count()
        self.stdout.write(f"{games} finished games; {member.username} has played {played}.")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(member)
        pages = [
            ("history", reverse("games:history")),
            ("profile", reverse("accounts:member", args=[member.username])),
            *[
                (f"leaderboard {slug}", reverse("games:leaderboard", args=[slug]))
                for slug in stats.game_titles()
            ],
            ("club page /", "/"),
            ("seasons", reverse("games:seasons")),
        ]
        season = seasons.current_season() or Season.objects.first()
        if season is not None:  # the running season, else the latest
            pages.append((f"season {season.name}", reverse("games:season", args=[season.pk])))
        pages.append(("tournaments", reverse("games:tournaments")))
        for status in (Tournament.Status.FINISHED, Tournament.Status.RUNNING):
            largest = (
                Tournament.objects.filter(status=status)
                .annotate(tables=Count("rounds__tables"))
                .order_by("-tables", "pk")
                .first()
            )
            if largest is not None:
                pages.append((f"tournament ({status})", largest.get_absolute_url()))
        self.stdout.write(f"{'page':<28} {'median':>9} {'p95':>9} {'queries':>8}")
        for name, url in pages:
            self.bench(client, name, url, options["requests"])
        self.stdout.write(f"load average at the end: {self.load()}")

    def add_tournaments(self, wanted: int) -> None:
        missing = wanted - Tournament.objects.count()
        club = list(User.objects.filter(username__startswith=seeding.MEMBER_PREFIX).order_by("pk"))
        if missing <= 0 or len(club) <= 16:
            return
        started = time.perf_counter()
        since = Game.objects.aggregate(last=Max("finished_at"))["last"] or timezone.now()
        designs = seeding_tournaments.bench_designs(missing)
        added, _moves = seeding_tournaments.seed(
            club,
            seeding.RatingBook.load(),
            seed=wanted,
            since=since,
            now=timezone.now(),
            designs=designs,
        )
        seeding.analyze()
        seconds = time.perf_counter() - started
        self.stdout.write(f"{missing} tournaments added ({added} games) in {seconds:.0f} s.")

    def member(self, username: str) -> User:
        if username:
            try:
                return User.objects.get(username=username)
            except User.DoesNotExist:
                raise CommandError(f"No member {username!r}.") from None
        busiest = User.objects.annotate(played=Count("results")).order_by("-played", "pk").first()
        if busiest is None:
            raise CommandError("No members: run seed_club first.")
        return busiest

    def bench(self, client: Client, name: str, url: str, requests: int) -> None:
        response = client.get(url)  # warms the templates and the database's caches
        if response.status_code != 200:
            raise CommandError(f"{url} answered {response.status_code}.")
        queries = []

        # Counted by a wrapper: the query log is emptied when each request starts.
        def count(execute: Any, *args: Any) -> Any:
            queries.append(1)
            return execute(*args)

        with connection.execute_wrapper(count):
            client.get(url)
        times = []
        for _ in range(requests):
            started = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        median, p95 = statistics.median(times), percentile(times, 0.95)
        self.stdout.write(f"{name:<28} {median:>6.1f} ms {p95:>6.1f} ms {len(queries):>8}")

    @staticmethod
    def load() -> str:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
