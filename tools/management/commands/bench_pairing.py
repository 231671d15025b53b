"""Time a Swiss round: `manage.py bench_pairing` pairs round 2..N of 80 members at 4-player
tables (the issue's target: under 1 s a round) and prints the slowest and median times."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand

from games.pairing import Seat, meetings, pair_swiss, standings


class Command(BaseCommand):
    help = "Time Swiss pairing (80 members at 4-player tables by default)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=80)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=7)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **opts: Any) -> None:
        rng = random.Random(opts["seed"])
        entries = list(range(opts["members"]))
        schedule: list = []
        played: list = []
        times = []
        for _ in range(opts["rounds"]):
            start = time.perf_counter()
            order = [row.member for row in standings(entries, played)]
            tables = pair_swiss(order, opts["table_size"], meetings(schedule))
            times.append(time.perf_counter() - start)
            schedule.append(tables)
            for table in tables:
                scores = [rng.randint(0, 50) for _ in table]
                played.append(
                    [
                        Seat(m, 1 + sum(o > s for o in scores), s)
                        for m, s in zip(table, scores, strict=True)
                    ]
                )
        self.stdout.write(
            f"{opts['members']} members, tables of {opts['table_size']}, {opts['rounds']} rounds: "
            f"median {statistics.median(times) * 1000:.1f} ms, "
            f"slowest {max(times) * 1000:.1f} ms a round (standings and pairing)"
        )
