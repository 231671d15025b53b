"""Benchmark of the live fan-out: how fast moves reach the sockets watching them.

    manage.py bench_live --games 1 --sockets 50
    manage.py bench_live --games 100 --sockets 200 --servers 2

Starts the site on PostgreSQL and Redis (127.0.0.1:5432 and :6379) in a database and a Redis
database of its own: one or two ASGI servers (`infra.serve`; `--asgi` picks another than the
site's) and a Celery worker. It opens N spectator sockets (a signed-in member watching, as
the pages require) spread over G games played by bots, lets the bots play for a while, and
prints the moves per second, the time from each move's commit to its arrival at each socket
(p50, p95, p99, max), the messages that never arrived and the sockets that had to reconnect.

The bots play random legal moves, so the machine's time goes to the site rather than to
thinking. Everything listens on loopback only, and every process it starts is stopped at
the end. A benchmark, not a test (STYLE.md): its numbers depend on the machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games import engines
from infra import serve, workers
from tools import livestack
from tools.livestack import Watch, percentile

CHILD = "BENCH_LIVE_CHILD"
WARM_UP = 3  # boards each socket receives before the measurement starts


class Command(BaseCommand):
    help = "Measure how fast moves reach the sockets watching them (PostgreSQL and Redis)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1, help="bot games played at once")
        parser.add_argument("--sockets", type=int, default=50, help="spectator sockets in all")
        parser.add_argument("--servers", type=int, default=1, choices=[1, 2])
        parser.add_argument("--seconds", type=float, default=60.0, help="how long to measure")
        parser.add_argument(
            "--bot-delay", type=float, default=0.5, help="seconds between a move and the next"
        )
        parser.add_argument("--players", type=int, default=2, help="bots per game")
        parser.add_argument(
            "--engine",
            default=sorted(engines.ENGINE_MODULES)[0],
            help=f"engine slug, one of: {', '.join(sorted(engines.ENGINE_MODULES))}",
        )
        parser.add_argument(
            "--workers", type=int, default=1, help="play worker processes (solo Celery workers)"
        )
        parser.add_argument(
            "--asgi",
            default=serve.SITE,
            choices=serve.KINDS,
            help=f"the ASGI server serving the sockets (the site runs on {serve.SITE})",
        )
        parser.add_argument(
            "--database-url", default="postgres://postgres@127.0.0.1:5432/club_bench"
        )
        parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")

    # --- the parent: a fresh database and Redis database, then the same command inside -------

    def handle(self, *args: Any, **options: Any) -> None:
        if os.environ.get(CHILD):
            self.run_benchmark(options)
            return
        livestack.check_places(options["database_url"], options["redis_url"], "bench")
        livestack.fresh_database(options["database_url"])
        livestack.fresh_redis(options["redis_url"])
        env = livestack.site_env(
            options["database_url"], options["redis_url"], "bench", options["bot_delay"]
        )
        self.stdout.write("Migrating the benchmark database...")
        livestack.migrate(env)
        argv = [sys.executable, "manage.py", "bench_live", *sys.argv[2:]]
        sys.exit(subprocess.run(argv, cwd=livestack.ROOT, env={**env, CHILD: "1"}).returncode)

    # --- the child: runs with the benchmark's database and Redis ------------------------------

    def run_benchmark(self, options: dict[str, Any]) -> None:
        games, cookie = self.make_games(options)
        logs = Path(settings.VAR_DIR) / "bench"
        logs.mkdir(parents=True, exist_ok=True)
        processes: list[subprocess.Popen[bytes]] = []
        try:
            servers = livestack.start_servers(
                options["servers"], logs, processes, asgi=options["asgi"]
            )
            watches = [
                Watch(game_id=games[i % len(games)], server=servers[i % len(servers)])
                for i in range(options["sockets"])
            ]
            self.stdout.write(
                f"{len(games)} game(s), {len(watches)} socket(s), {len(servers)} server(s); "
                f"measuring for {options['seconds']:.0f} s..."
            )
            worker = livestack.worker_argv(workers.PLAY, options["workers"])
            heavy = livestack.worker_argv(workers.HEAVY)

            def start_worker() -> None:
                processes.append(livestack.start(worker, logs / "worker.log"))
                processes.append(livestack.start(heavy, logs / "worker-heavy.log"))

            window, cpu = asyncio.run(
                self.watch(watches, cookie, options["seconds"], start_worker, processes)
            )
        finally:
            for proc in reversed(processes):
                livestack.stop(proc)
        self.report(games, watches, window, cpu)

    def make_games(self, options: dict[str, Any]) -> tuple[list[int], str]:
        """G games of bots (started at once: their first bot turns wait for the worker), and
        the session cookie of the member who watches them."""
        from games import services
        from games.models import Seat

        games = []
        for _ in range(options["games"]):
            game = services.create_game(
                engine_slug=options["engine"],
                players=options["players"],
                options={},
                seats=[{"kind": "bot", "bot_level": "easy"}] * options["players"],
                created_by=None,
            )
            # Random legal moves (games.bots: "random"): the time goes to the site, not to bots.
            Seat.objects.filter(game=game).update(bot_level="random")
            games.append(game.pk)
        return games, livestack.session_cookie("bench-watcher")

    async def watch(
        self,
        watches: list[Watch],
        cookie: str,
        seconds: float,
        start_worker: Any,
        processes: list[subprocess.Popen[bytes]],
    ) -> tuple[tuple[float, float], livestack.CpuSpan]:
        """Connect every socket, start the bots, listen for `seconds`; returns the window and
        the machine's CPU samples at its two ends."""
        tasks = await livestack.open_sockets([(watch, cookie, None) for watch in watches])
        await asyncio.sleep(1.0)  # every consumer has joined its hub
        start_worker()
        # Steady state: the window opens once every socket has had three boards (the servers
        # have loaded their templates and translations and opened their connections).
        deadline = time.monotonic() + 60
        while not all(len(w.arrivals) >= WARM_UP for w in watches) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        # Only the processes started here count as the site's (the machine may run others).
        mine = livestack.mine_of(processes)
        begin, cpu_before = time.time(), livestack.cpu_sample(mine)
        await asyncio.sleep(seconds)
        end, cpu_after = time.time(), livestack.cpu_sample(mine)
        await asyncio.sleep(3.0)  # what is on its way when the window closes still counts
        await livestack.close_sockets(tasks)
        return (begin, end), (cpu_before, cpu_after)

    def report(
        self,
        games: list[int],
        watches: list[Watch],
        window: tuple[float, float],
        cpu: livestack.CpuSpan,
    ) -> None:
        from games.models import Move

        begin, end = window
        committed: dict[tuple[int, int], float] = {}
        for game_id, number, created in Move.objects.filter(game_id__in=games).values_list(
            "game_id", "number", "created_at"
        ):
            committed[(game_id, number + 1)] = created.timestamp()  # board version = moves played
        in_window = {key: t for key, t in committed.items() if begin <= t <= end}
        latencies, expected, lost, superseded = livestack.arrivals_of(watches, in_window, committed)
        latencies.sort()
        seconds = end - begin
        reconnects = sum(w.reconnects for w in watches)
        self.stdout.write(
            f"games {len(games)}, sockets {len(watches)}, servers "
            f"{len({w.server for w in watches})}, window {seconds:.0f} s"
        )
        self.stdout.write(f"moves: {len(in_window)} ({len(in_window) / seconds:.1f} moves/s)")
        self.stdout.write(
            f"commit to arrival (ms): {livestack.spread(latencies)} ({len(latencies)} messages)"
        )
        self.stdout.write(
            f"lost messages: {lost} of {expected} (of them {superseded} with the board of a move"
            f" made at once sent instead); reconnects: {reconnects}"
        )
        sizes = [size for w in watches for at, size in w.sizes if begin <= at <= end]
        sent = sum(sizes)
        self.stdout.write(
            f"bytes sent to the sockets: {sent / max(1, len(in_window)):,.0f} per move, "
            f"{sent / max(1, len(sizes)):,.0f} per message ({len(sizes)} messages)"
        )
        self.stdout.write(livestack.cpu_line(*cpu, len(in_window)))
        hops = livestack.hop_lines(watches, {k: v for k, v in committed.items() if k in in_window})
        if hops:
            self.stdout.write("where the time went (ms, from the move's insert to the arrival):")
            for line in hops:
                self.stdout.write(line)
        self.stdout.write(
            json.dumps(
                {
                    "games": len(games),
                    "sockets": len(watches),
                    "moves_per_second": round(len(in_window) / seconds, 2),
                    "p50_ms": round(percentile(latencies, 0.50), 1),
                    "p95_ms": round(percentile(latencies, 0.95), 1),
                    "p99_ms": round(percentile(latencies, 0.99), 1),
                    "max_ms": round(latencies[-1], 1) if latencies else None,
                    "lost": lost,
                    "superseded": superseded,
                    "reconnects": reconnects,
                    "bytes_per_move": round(sent / max(1, len(in_window))),
                }
            )
        )
