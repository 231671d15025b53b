"""Benchmark of the live fan-out: how fast moves reach the sockets watching them.

    manage.py bench_live --games 1 --sockets 50
    manage.py bench_live --games 100 --sockets 200 --servers 2

Starts the site on PostgreSQL and Redis (127.0.0.1:5432 and :6379) in a database and a Redis
database of its own: one or two daphne processes and a Celery worker. It opens N spectator
sockets (a signed-in member watching, as the pages require) spread over G games played by
bots, lets the bots play for a while, and prints the moves per second, the time from each
move's commit to its arrival at each socket (p50, p95, p99, max), the messages that never
arrived and the sockets that had to reconnect.

The bots play random legal moves, so the machine's time goes to the site rather than to
thinking. Everything listens on loopback only, and every process it starts is stopped at
the end. A benchmark, not a test (STYLE.md): its numbers depend on the machine.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engines

ROOT = Path(settings.BASE_DIR)
BIN = Path(sys.executable).parent
CHILD = "BENCH_LIVE_CHILD"
VERSION = re.compile(rb'data-version="(\d+)"')
WARM_UP = 3  # boards each socket receives before the measurement starts


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CommandError(f"a server exited early (code {proc.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise CommandError(f"nothing listens on port {port} after {timeout} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of sorted `values`."""
    if not values:
        return float("nan")
    rank = max(1, min(len(values), math.ceil(fraction * len(values))))
    return values[rank - 1]


@dataclass
class Watch:
    """One spectator socket: the game it watches and when each move number arrived."""

    game_id: int
    server: str
    connected_at: float = 0.0
    arrivals: dict[int, float] = field(default_factory=dict)
    reconnects: int = 0


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
        parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
        parser.add_argument(
            "--database-url", default="postgres://postgres@127.0.0.1:5432/club_bench"
        )
        parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")

    # --- the parent: a fresh database and Redis database, then the same command inside -------

    def handle(self, *args: Any, **options: Any) -> None:
        if os.environ.get(CHILD):
            self.run_benchmark(options)
            return
        self.check_places(options)
        self.fresh_database(options["database_url"])
        self.fresh_redis(options["redis_url"])
        env = self.site_env(options)
        self.stdout.write("Migrating the benchmark database...")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        argv = [sys.executable, "manage.py", "bench_live", *sys.argv[2:]]
        sys.exit(subprocess.run(argv, cwd=ROOT, env={**env, CHILD: "1"}).returncode)

    def check_places(self, options: dict[str, Any]) -> None:
        database, redis_url = urlsplit(options["database_url"]), urlsplit(options["redis_url"])
        if database.hostname not in ("127.0.0.1", "localhost") or "bench" not in database.path:
            raise CommandError(
                "--database-url must be a local database whose name says 'bench' "
                "(it is dropped and created again)."
            )
        if redis_url.hostname not in ("127.0.0.1", "localhost") or redis_url.path in ("", "/0"):
            raise CommandError(
                "--redis-url must be a local Redis database other than 0 (it is emptied)."
            )

    def fresh_database(self, url: str) -> None:
        import psycopg

        parts = urlsplit(url)
        name = parts.path.lstrip("/")
        admin = parts._replace(path="/postgres").geturl()
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
        except psycopg.Error as exc:
            raise CommandError(f"PostgreSQL at {parts.hostname}:{parts.port}: {exc}") from None

    def fresh_redis(self, url: str) -> None:
        import redis

        try:
            redis.Redis.from_url(url).flushdb()
        except redis.RedisError as exc:
            raise CommandError(f"Redis at {url}: {exc}") from None

    def site_env(self, options: dict[str, Any]) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "DATABASE_URL": options["database_url"],
                "REDIS_URL": options["redis_url"],
                "CHANNELS_PREFIX": "bench",
                "BOT_MOVE_DELAY": str(options["bot_delay"]),
                "DEBUG": "false",
                "SECRET_KEY": "benchmark-only-" + os.urandom(16).hex(),
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SECURE_SSL_REDIRECT": "false",
                "LOG_LEVEL": "WARNING",
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.pop("PYTEST_VERSION", None)
        return env

    # --- the child: runs with the benchmark's database and Redis ------------------------------

    def run_benchmark(self, options: dict[str, Any]) -> None:
        games, cookie = self.make_games(options)
        logs = Path(settings.VAR_DIR) / "bench"
        logs.mkdir(parents=True, exist_ok=True)
        processes: list[subprocess.Popen[bytes]] = []
        try:
            servers = []
            for n in range(options["servers"]):
                port = free_port()
                proc = self.start(
                    [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)]
                    + ["config.asgi:application"],
                    logs / f"daphne-{n}.log",
                )
                processes.append(proc)
                wait_for_port(port, proc)
                servers.append(f"127.0.0.1:{port}")
            watches = [
                Watch(game_id=games[i % len(games)], server=servers[i % len(servers)])
                for i in range(options["sockets"])
            ]
            self.stdout.write(
                f"{len(games)} game(s), {len(watches)} socket(s), {len(servers)} server(s); "
                f"measuring for {options['seconds']:.0f} s..."
            )
            worker = [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=WARNING"]
            worker += ["--concurrency", str(options["workers"]), "--without-gossip"]
            worker += ["--without-mingle", "--without-heartbeat"]

            def start_worker() -> None:
                processes.append(self.start(worker, logs / "worker.log"))

            window = asyncio.run(self.watch(watches, cookie, options["seconds"], start_worker))
        finally:
            for proc in reversed(processes):
                stop(proc)
        self.report(games, watches, window)

    def start(self, argv: list[str], log: Path) -> subprocess.Popen[bytes]:
        with open(log, "wb") as out:
            return subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)

    def make_games(self, options: dict[str, Any]) -> tuple[list[int], str]:
        """G games of bots (started at once: their first bot turns wait for the worker), and
        the session cookie of the member who watches them."""
        from django.contrib.auth import SESSION_KEY, get_user_model
        from django.contrib.sessions.backends.db import SessionStore

        from games import services
        from games.models import Seat

        watcher = get_user_model().objects.create_user(username="bench-watcher", password=None)
        session = SessionStore()
        session[SESSION_KEY] = str(watcher.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = watcher.get_session_auth_hash()
        session.save()
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
        return games, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

    async def watch(
        self, watches: list[Watch], cookie: str, seconds: float, start_worker: Any
    ) -> tuple[float, float]:
        """Connect every socket, start the bots, listen for `seconds`; returns the window."""
        import websockets

        async def listen(watch: Watch, opened: asyncio.Event) -> None:
            url = f"ws://{watch.server}/ws/games/{watch.game_id}/"
            headers = {"Cookie": cookie, "Origin": f"http://{watch.server}"}
            while True:
                try:
                    async with websockets.connect(
                        url,
                        additional_headers=headers,
                        compression=None,
                        max_size=None,
                        open_timeout=60,
                        ping_interval=None,
                    ) as ws:
                        if not watch.connected_at:
                            watch.connected_at = time.time()
                        opened.set()
                        while True:
                            # Bytes: the client's time goes to receiving, not to decoding.
                            message = await ws.recv(decode=False)
                            now = time.time()
                            match = VERSION.search(message[:400])
                            if match:
                                watch.arrivals.setdefault(int(match.group(1)), now)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    if opened.is_set():
                        watch.reconnects += 1
                    await asyncio.sleep(0.5)

        tasks, events = [], []
        for index, watch in enumerate(watches):
            opened = asyncio.Event()
            events.append(opened)
            tasks.append(asyncio.create_task(listen(watch, opened)))
            if index % 50 == 49:  # in batches: a thousand handshakes at once would time out
                await asyncio.gather(*(e.wait() for e in events))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=300)
        await asyncio.sleep(1.0)  # every consumer has joined its hub
        start_worker()
        # Steady state: the window opens once every socket has had three boards (the servers
        # have loaded their templates and translations and opened their connections).
        deadline = time.monotonic() + 60
        while not all(len(w.arrivals) >= WARM_UP for w in watches) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        begin = time.time()
        await asyncio.sleep(seconds)
        end = time.time()
        await asyncio.sleep(3.0)  # what is on its way when the window closes still counts
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return begin, end

    def report(self, games: list[int], watches: list[Watch], window: tuple[float, float]) -> None:
        from games.models import Move

        begin, end = window
        committed: dict[tuple[int, int], float] = {}
        for game_id, number, created in Move.objects.filter(game_id__in=games).values_list(
            "game_id", "number", "created_at"
        ):
            committed[(game_id, number + 1)] = created.timestamp()  # board version = moves played
        in_window = {key: t for key, t in committed.items() if begin <= t <= end}
        latencies, expected, lost = [], 0, 0
        for watch in watches:
            for (game_id, version), at in in_window.items():
                if game_id != watch.game_id or at < watch.connected_at:
                    continue
                expected += 1
                arrived = watch.arrivals.get(version)
                if arrived is None:
                    lost += 1
                else:
                    latencies.append((arrived - at) * 1000)
        latencies.sort()
        seconds = end - begin
        reconnects = sum(w.reconnects for w in watches)
        self.stdout.write(
            f"games {len(games)}, sockets {len(watches)}, servers "
            f"{len({w.server for w in watches})}, window {seconds:.0f} s"
        )
        self.stdout.write(f"moves: {len(in_window)} ({len(in_window) / seconds:.1f} moves/s)")
        self.stdout.write(
            "commit to arrival (ms): "
            + ", ".join(
                f"{name} {percentile(latencies, p):.0f}"
                for name, p in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))
            )
            + f", max {latencies[-1] if latencies else float('nan'):.0f}"
            + f" ({len(latencies)} messages)"
        )
        self.stdout.write(f"lost messages: {lost} of {expected}; reconnects: {reconnects}")
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
                    "reconnects": reconnects,
                }
            )
        )
