"""The floor of a bot's move on this machine, hop by hop: the least CPU each hop can cost with
the site's own stack and settings but none of its logic.

    manage.py bench_floor
    manage.py bench_floor --site task=9.1,transaction=1.2,...

A bot's move is a Celery task taken from Redis by a solo play process, a transaction in
PostgreSQL, an announcement over the channel layer, one board drawn per game and viewpoint,
and that board sent to each socket watching. For each hop this measures the least it can cost
here, in a database and a Redis database of its own (dropped and emptied first, as
`bench_live` does with its own):

- `send`: a task sent with a countdown, as the next bot turn is (`apply_async`), CPU of the
  sending process;
- `task`: an empty task with a bot turn's arguments, taken, held for its countdown, run and
  acknowledged by `--processes` solo workers of an app configured from the site's settings
  (tools/floor_apps.py), CPU of the workers per task from /proc, their idle CPU taken off;
- `transaction` (ORM) and `transaction_raw` (a raw cursor): one game row read with its seats
  under the row lock, one UPDATE writing its state back, one INSERT into the move log,
  commit, CPU of this process; `postgres`: its PostgreSQL backend's CPU for the raw one;
- `publish` and `receive`: a `group_send` of an announcement to a group of one channel through
  the site's channel layer, and its receipt, CPU of this process;
- `redis`: Redis's CPU for the task's commands and the announcement's (a Redis shared with
  anyone else counts their commands too, so this is a ceiling of the floor);
- `render`: the spectator's board of a game (`rendering.board_html`, English), the one draw
  per game, move and viewpoint the site cannot go below (DESIGN.md principle 7);
- `websocket`: that board's text sent to `--sockets` sockets (a move's watchers) by uvicorn,
  started as `infra.serve` starts the site, serving an app that only sends
  (tools/floor_apps.py), CPU of the server process.

It prints one line per hop: the floor in ms of CPU per move, and the site's figure for the
same hop when `--site` gives it (measured by `bench_live`'s per-process CPU and a profile:
docs/benchmarks.md), so the gap is seen hop by hop. A benchmark, not a test (STYLE.md).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engines
from tools import floor_apps, livestack

CHILD = "BENCH_FLOOR_CHILD"
HOPS = (
    ("send", "send a task with a countdown (apply_async)"),
    ("task", "a solo worker takes, holds, runs and acknowledges it"),
    ("transaction", "read with seats, UPDATE, INSERT, commit (ORM)"),
    ("transaction_raw", "the same through a raw cursor"),
    ("postgres", "PostgreSQL's backend for that transaction"),
    ("publish", "group_send of the announcement"),
    ("receive", "its receipt from the layer"),
    ("redis", "Redis for the task's and the announcement's commands"),
    ("render", "one board drawn (spectator)"),
    ("websocket", "the board sent to each watching socket (uvicorn)"),
)
SECOND = os.sysconf("SC_CLK_TCK")


def pid_cpu(pid: int) -> float:
    """Core-seconds `pid` has used so far (user and system, from /proc); 0 once it ended."""
    try:
        rest = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(rest[11]) + int(rest[12])) / SECOND


def redis_pid() -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cmdline").read_bytes().startswith(b"redis-server"):
                    return int(entry.name)
            except OSError:
                continue
    return None


class Command(BaseCommand):
    help = "Measure the least CPU each hop of a bot's move can cost on this machine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tasks", type=int, default=1000, help="empty tasks sent")
        parser.add_argument("--rate", type=float, default=50.0, help="tasks sent a second")
        parser.add_argument(
            "--countdown", type=float, default=1.0, help="each task's countdown (seconds)"
        )
        parser.add_argument("--processes", type=int, default=2, help="solo worker processes")
        parser.add_argument("--transactions", type=int, default=1000)
        parser.add_argument("--announcements", type=int, default=2000)
        parser.add_argument("--renders", type=int, default=200)
        parser.add_argument("--boards", type=int, default=500, help="boards sent to the sockets")
        parser.add_argument("--sockets", type=int, default=2, help="sockets watching a move")
        parser.add_argument(
            "--site",
            default="",
            help="the site's ms per move for some hops, e.g. task=9.1,render=3.0 (shown beside)",
        )
        parser.add_argument(
            "--database-url", default="postgres://postgres@127.0.0.1:5432/club_bench_floor"
        )
        parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/8")

    # --- the parent: a fresh database and Redis database, then the same command inside -------

    def handle(self, *args: Any, **options: Any) -> None:
        site = self.site_figures(options["site"])
        if os.environ.get(CHILD):
            self.run_floor(options, site)
            return
        livestack.check_places(options["database_url"], options["redis_url"], "bench")
        livestack.fresh_database(options["database_url"])
        livestack.fresh_redis(options["redis_url"])
        env = livestack.site_env(options["database_url"], options["redis_url"], "floor", 1.0)
        self.stdout.write("Migrating the benchmark database...")
        livestack.migrate(env)
        argv = [sys.executable, "manage.py", "bench_floor", *sys.argv[2:]]
        sys.exit(subprocess.run(argv, cwd=livestack.ROOT, env={**env, CHILD: "1"}).returncode)

    @staticmethod
    def site_figures(text: str) -> dict[str, float]:
        names = {name for name, _ in HOPS}
        figures = {}
        for part in filter(None, text.split(",")):
            name, _, value = part.partition("=")
            if name.strip() not in names:
                raise CommandError(f"--site: no hop {name!r} (hops: {', '.join(sorted(names))})")
            figures[name.strip()] = float(value)
        return figures

    # --- the child: runs with the benchmark's database and Redis ------------------------------

    def run_floor(self, options: dict[str, Any], site: dict[str, float]) -> None:
        logs = Path(settings.VAR_DIR) / "bench"
        logs.mkdir(parents=True, exist_ok=True)
        floor: dict[str, float] = {}
        self.stdout.write("Celery: an empty task through the site's broker and solo workers...")
        floor.update(self.celery_floor(options, logs))
        self.stdout.write("PostgreSQL: a move's transaction...")
        game_id = self.make_game()
        floor["transaction"], _ = self.transaction_floor(
            game_id, options["transactions"], raw=False
        )
        floor["transaction_raw"], floor["postgres"] = self.transaction_floor(
            game_id, options["transactions"], raw=True
        )
        self.stdout.write("Redis: an announcement through the channel layer...")
        layer = asyncio.run(self.layer_floor(options["announcements"]))
        floor["redis"] += layer.pop("redis")
        floor.update(layer)
        self.stdout.write("Drawing: one board...")
        floor["render"], board = self.render_floor(game_id, options["renders"])
        self.stdout.write(f"uvicorn: a {len(board):,}-character board to the sockets...")
        floor["websocket"] = self.websocket_floor(board, options, logs)
        self.report(floor, site, options)

    # --- the hops ------------------------------------------------------------------------------

    def celery_floor(self, options: dict[str, Any], logs: Path) -> dict[str, float]:
        import redis

        app = floor_apps.celery_app
        broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        processes = []
        try:
            for number in range(1, options["processes"] + 1):
                argv = [
                    *(str(livestack.BIN / "celery"), "-A", "tools.floor_apps", "worker"),
                    *("-Q", floor_apps.QUEUE, "-n", f"floor{number}@%h", "--pool", "solo"),
                    *("--loglevel=WARNING", "--without-gossip", "--without-mingle"),
                    "--without-heartbeat",
                ]
                processes.append(livestack.start(argv, logs / f"floor-worker-{number}.log"))

            def send(count: int, countdown: float, rate: float) -> float:
                spent = 0.0
                for n in range(count):
                    began = time.process_time()
                    app.send_task(
                        floor_apps.EMPTY_TASK,
                        args=(n, n % 2, n),
                        countdown=countdown,
                        queue=floor_apps.QUEUE,
                        ignore_result=True,
                    )
                    spent += time.process_time() - began
                    if rate:
                        time.sleep(1.0 / rate)
                return spent

            def drained(timeout: float, countdown: float) -> None:
                # No task is due before its countdown; past it, none is waiting or held.
                time.sleep(countdown)
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline:
                    if not broker.llen(floor_apps.QUEUE) and not broker.hlen("unacked"):
                        return
                    time.sleep(0.1)
                raise CommandError("the floor's workers did not take their tasks in time")

            # Warm up: each process has connected and run a task before the measurement.
            send(20 * options["processes"], 0.0, 0.0)
            drained(120, 0.0)
            time.sleep(1.0)
            pids = [p.pid for p in processes]
            idle_from, idle_cpu = time.monotonic(), sum(map(pid_cpu, pids))
            time.sleep(3.0)
            idle_rate = (sum(map(pid_cpu, pids)) - idle_cpu) / (time.monotonic() - idle_from)
            redis_process = redis_pid()
            redis_before = pid_cpu(redis_process) if redis_process else 0.0
            began, cpu_before = time.monotonic(), sum(map(pid_cpu, pids))
            sent = send(options["tasks"], options["countdown"], options["rate"])
            drained(60, options["countdown"])
            window = time.monotonic() - began
            used = sum(map(pid_cpu, pids)) - cpu_before - idle_rate * window
            redis_used = (pid_cpu(redis_process) - redis_before) if redis_process else 0.0
        finally:
            for proc in processes:
                livestack.stop(proc)
        return {
            "send": sent / options["tasks"] * 1000,
            "task": max(used, 0.0) / options["tasks"] * 1000,
            "redis": redis_used / options["tasks"] * 1000,
        }

    def make_game(self) -> int:
        """A game of two bots some moves in (a state of a real size), made by the site."""
        import random

        from games import services
        from games.models import Game

        slug = sorted(engines.ENGINE_MODULES)[0]
        game = services.create_game(
            engine_slug=slug,
            players=2,
            options={},
            seats=[{"kind": "bot", "bot_level": "easy"}] * 2,
            created_by=None,
        )
        engine = engines.get(slug)
        assert game.state is not None  # a game of bots starts at once
        state, rng = engine.load(game.state), random.Random(1)
        for _ in range(20):
            if engine.is_over(state):
                break
            seat = engine.to_move(state)[0]
            state = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
        Game.objects.filter(pk=game.pk).update(state=engine.dump(state))
        return game.pk

    def transaction_floor(self, game_id: int, count: int, *, raw: bool) -> tuple[float, float]:
        """CPU per transaction of this process, and of its PostgreSQL backend (ms)."""
        from django.db import connection, transaction

        from games.models import Game, Move, Seat

        payload = {"type": "floor", "tile": 1, "at": [0, 1]}
        summary = {"text": "floor", "tiles": [1]}
        game_table, seat_table, move_table = (
            m._meta.db_table for m in (Game, Seat, Move)
        )  # fmt: skip
        game_columns = ", ".join(f'g."{f.column}"' for f in Game._meta.concrete_fields)
        seat_columns = ", ".join(f's."{f.column}"' for f in Seat._meta.concrete_fields)
        read_sql = (
            f'SELECT {game_columns}, {seat_columns} FROM "{game_table}" g JOIN "{seat_table}" s '
            "ON s.game_id = g.id WHERE g.id = %s ORDER BY s.position FOR UPDATE OF g"
        )
        insert_sql = (
            f'INSERT INTO "{move_table}" (game_id, number, seat, payload, summary, by_bot, '
            "can_take_back, created_at) VALUES (%s, %s, %s, %s, %s, true, false, now())"
        )
        update_sql = f'UPDATE "{game_table}" SET state = %s, version = %s, updated_at = now() '
        update_sql += "WHERE id = %s"
        state_at = [f.attname for f in Game._meta.concrete_fields].index("state")

        def orm_move(number: int) -> None:
            with transaction.atomic():
                query = Seat.objects.select_related("game").select_for_update(of=("game",))
                seats = list(query.filter(game_id=game_id).order_by("position"))
                game = seats[0].game
                Move.objects.create(
                    game=game, number=number, seat=0, payload=payload, summary=summary, by_bot=True
                )
                game.version = number + 1
                game.save(update_fields=["state", "version", "updated_at"])

        def raw_move(number: int) -> None:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(read_sql, [game_id])
                rows = cursor.fetchall()
                state = json.loads(rows[0][state_at])
                cursor.execute(
                    insert_sql, [game_id, number, 0, json.dumps(payload), json.dumps(summary)]
                )
                cursor.execute(update_sql, [json.dumps(state), number + 1, game_id])

        move = raw_move if raw else orm_move
        Move.objects.filter(game_id=game_id).delete()
        for number in range(20):  # warm: the connection, the statements' first runs
            move(number)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        began, backend_before = time.process_time(), pid_cpu(backend)
        for number in range(20, 20 + count):
            move(number)
        spent, backend_spent = time.process_time() - began, pid_cpu(backend) - backend_before
        Move.objects.filter(game_id=game_id).delete()
        return spent / count * 1000, backend_spent / count * 1000

    async def layer_floor(self, count: int) -> dict[str, float]:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        assert layer is not None
        channel = await layer.new_channel()
        await layer.group_add("game-floor", channel)
        redis = redis_pid()
        published = received = 0.0
        redis_before = pid_cpu(redis) if redis else 0.0
        for number in range(-20, count):  # the first 20 warm the connections
            message = {"type": "game.changed", "game": 1, "version": number, "event": "0" * 12}
            began = time.process_time()
            await layer.group_send("game-floor", message)
            middle = time.process_time()
            got = await layer.receive(channel)
            ended = time.process_time()
            assert got["version"] == number
            if number == -1:
                redis_before = pid_cpu(redis) if redis else 0.0
            if number >= 0:
                published += middle - began
                received += ended - middle
        redis_used = (pid_cpu(redis) - redis_before) if redis else 0.0
        await layer.group_discard("game-floor", channel)
        return {
            "publish": published / count * 1000,
            "receive": received / count * 1000,
            "redis": redis_used / count * 1000,
        }

    def render_floor(self, game_id: int, count: int) -> tuple[float, str]:
        from django.utils import translation

        from games import live_reads, rendering

        game = live_reads.game_with_seats(game_id)
        assert game is not None
        with translation.override("en"):
            board = rendering.board_html(game=game, seat=None)
            began = time.process_time()
            for _ in range(count):
                rendering.board_html(game=game, seat=None)
        return (time.process_time() - began) / count * 1000, board

    def websocket_floor(self, board: str, options: dict[str, Any], logs: Path) -> float:
        from infra import serve

        port = livestack.free_port()
        argv = serve.argv("127.0.0.1", port)
        argv[-1] = "tools.floor_apps:sockets_app"
        proc = livestack.start(argv, logs / "floor-uvicorn.log")
        try:
            livestack.wait_for_port(port, proc)
            return asyncio.run(self.send_boards(port, proc.pid, board, options))
        finally:
            livestack.stop(proc)

    async def send_boards(
        self, port: int, server: int, board: str, options: dict[str, Any]
    ) -> float:
        import websockets

        sockets = [
            await websockets.connect(f"ws://127.0.0.1:{port}/", compression=None, max_size=None)
            for _ in range(options["sockets"])
        ]

        async def receive(ws: Any, count: int) -> None:
            for _ in range(count):
                await ws.recv(decode=False)

        def post(rounds: int) -> None:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/send?rounds={rounds}", data=board.encode()
            )
            with urllib.request.urlopen(request, timeout=300) as answer:
                if int(answer.read()) != options["sockets"]:
                    raise CommandError("not every socket was open on the floor's server")

        async def round_of(rounds: int) -> float:
            before = pid_cpu(server)
            receiving = [asyncio.create_task(receive(ws, rounds)) for ws in sockets]
            await asyncio.to_thread(post, rounds)
            await asyncio.gather(*receiving)
            return pid_cpu(server) - before

        try:
            await round_of(20)  # warm
            # One request sends them all: its own CPU is spread over every board.
            used = await round_of(options["boards"])
        finally:
            for ws in sockets:
                await ws.close()
        return used / options["boards"] * 1000

    # --- the table -----------------------------------------------------------------------------

    def report(self, floor: dict[str, float], site: dict[str, float], options: dict[str, Any]):
        self.stdout.write(
            f"The floor of a bot's move, ms of CPU per move ({options['processes']} solo "
            f"processes, {options['sockets']} sockets a move):"
        )
        self.stdout.write(f"  {'hop':<18}{'floor':>8}{'site':>8}  what")
        for name, what in HOPS:
            mine = f"{site[name]:.2f}" if name in site else "-"
            self.stdout.write(f"  {name:<18}{floor[name]:>8.2f}{mine:>8}  {what}")
        self.stdout.write(json.dumps({name: round(value, 3) for name, value in floor.items()}))
