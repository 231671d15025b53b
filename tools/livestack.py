"""The parts the live benchmark (`manage.py bench_live`) and the load test (`python -m
tools.load`) share: a database and a Redis database of their own, ASGI servers and Celery
workers started on loopback and stopped again, sockets that record when each board arrives,
and percentiles.

Nothing here listens or connects anywhere but 127.0.0.1 (or localhost).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import math
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management.base import CommandError

from infra import serve, workers

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
VERSION = re.compile(rb'data-version="(\d+)"')
TRACE = re.compile(rb"<!--live-trace (\{[^}]*\})-->")  # games/consumers.py: trace()
# The hops of a traced board, in order: each is the time from the one before it.
HOPS = ("commit", "publish", "receive", "read", "render", "send")
LOCAL = ("127.0.0.1", "localhost")


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


def spread(values: list[float]) -> str:
    """`p50 …, p95 …, p99 …, max …` of sorted milliseconds."""
    parts = [
        f"{name} {percentile(values, p):.0f}"
        for name, p in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))
    ]
    return ", ".join(parts) + f", max {values[-1] if values else float('nan'):.0f}"


def hop_lines(watches: list[Watch], committed: dict[tuple[int, int], float]) -> list[str]:
    """Where the time of traced boards went, hop by hop (ms, p50, p95 and p99): from the move's
    insert to the commit, then each hop of the trace, then from the send to the arrival.

    A board carries the trace of the announcement that set off its read, which may be of an
    earlier move than the board shows (a read that waited found a newer move, or announcements
    joined it: games/live_threads.py). Its first span runs from the insert of the move that
    announcement was for: the game's last insert before the trace's commit (a game's moves are
    made one at a time, each inserted after the commit of the one before)."""
    names = ["insert", *HOPS, "arrival"]
    spans: dict[str, list[float]] = {f"{a} -> {b}": [] for a, b in pairwise(names)}
    inserts: dict[int, list[float]] = {}
    for (game_id, _), at in committed.items():
        inserts.setdefault(game_id, []).append(at)
    for times in inserts.values():
        times.sort()
    for watch in watches:
        for version, hops in watch.traces.items():
            if (watch.game_id, version) not in committed or not all(h in hops for h in HOPS):
                continue
            earlier = inserts[watch.game_id]
            at = bisect.bisect_right(earlier, hops["commit"])
            if at == 0:
                continue  # the announced move was inserted before the window
            inserted = earlier[at - 1]
            times = [inserted, *(hops[h] for h in HOPS), watch.arrivals[version]]
            for span, (begin, end) in zip(spans, pairwise(times), strict=True):
                spans[span].append((end - begin) * 1000)
    lines = []
    for span, values in spans.items():
        values.sort()
        if values:
            shown = ", ".join(
                f"p{round(f * 100)} {percentile(values, f):.1f}" for f in (0.5, 0.95, 0.99)
            )
            lines.append(f"  {span}: {shown}")
    return lines


# --- a database and a Redis database of one's own --------------------------------------------


@dataclass(frozen=True)
class CpuSample:
    """The machine's CPU time so far (all cores, from /proc/stat) and this process's own."""

    busy: float  # core-seconds spent outside idle
    total: float  # core-seconds, idle included
    own: float  # core-seconds of this process (the sockets and members it simulates)
    # Core-seconds of the machine's processes so far, by kind (`process_kind`).
    kinds: dict[str, float] = field(default_factory=dict)


# What a process is, by its command line: the first kind whose words it contains.
PROCESS_KINDS = (
    ("ASGI servers", ("infra.serve", "uvicorn", "daphne", "granian")),
    ("Celery workers", ("celery", "infra.workers")),
    ("PostgreSQL", ("postgres",)),
    ("Redis", ("redis-server",)),
)


# Kinds whose processes end and are replaced while a benchmark measures: their ended
# children's CPU is counted with the parent that collected them (servers, started by the
# benchmark, have no children; PostgreSQL's postmaster collects every database's backends).
RENEWED = ("Celery workers",)


def process_kind(command: str, pid: int) -> str:
    if pid == os.getpid():
        return "this command"
    for kind, words in PROCESS_KINDS:
        if any(word in command for word in words):
            return kind
    return "other"


@dataclass(frozen=True)
class Mine:
    """Which processes are the benchmark's own, on a machine that runs other work too: the
    ones it started (`pids`) with their children, and the PostgreSQL backends serving its
    `database`. Servers, workers and backends of anyone else count as "other"; PostgreSQL's
    and Redis's shared processes (the WAL writer, the one Redis) count as the benchmark's."""

    pids: frozenset[int]
    database: str


def mine_of(processes: list[subprocess.Popen[bytes]]) -> Mine:
    """The benchmark's own: the processes it started, and its database (the settings')."""
    from django.conf import settings

    return Mine(frozenset(p.pid for p in processes), str(settings.DATABASES["default"]["NAME"]))


def process_cpu(mine: Mine | None = None) -> dict[str, float]:
    """Core-seconds each kind of process has used so far (user and system, from /proc)."""
    second = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, str, float]] = {}  # pid -> parent, command, core-seconds
    ended: dict[int, float] = {}  # pid -> core-seconds of its children that ended
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # it ended meanwhile
        # After "pid (name)": state is the 3rd field, the parent the 4th, utime the 14th,
        # stime the 15th, and the same of its children that ended (and it waited for) the
        # 16th and 17th.
        rest = stat.rsplit(")", 1)[1].split()
        found[int(entry.name)] = (int(rest[1]), command, (int(rest[11]) + int(rest[12])) / second)
        ended[int(entry.name)] = (int(rest[13]) + int(rest[14])) / second
    kinds: dict[str, float] = {}
    for pid, (_, command, used) in found.items():
        kind = process_kind(command, pid)
        if mine is not None and not is_mine(pid, kind, command, found, mine):
            kind = "other"
        if kind in RENEWED:
            # A play process renewed (infra/workers) or a heavy child recycled takes its CPU
            # with it; its parent keeps the count, so the kind's sum never goes back.
            used += ended[pid]
        kinds[kind] = kinds.get(kind, 0.0) + used
    return kinds


def is_mine(
    pid: int, kind: str, command: str, found: dict[int, tuple[int, str, float]], mine: Mine
) -> bool:
    if kind == "PostgreSQL":
        # A backend's title names its database and its client ("postgres: 15/main: user
        # club_bench 127.0.0.1(52076) idle"); the server's own processes serve every one.
        words = command.split()
        backend = words[:1] == ["postgres:"] and len(words) >= 5 and words[4].endswith(")")
        return not backend or words[3] == mine.database
    if kind not in ("ASGI servers", "Celery workers"):
        return True
    seen = set()
    while pid not in mine.pids:
        if pid in seen or pid not in found:
            return False
        seen.add(pid)
        pid = found[pid][0]
    return True


def cpu_sample(mine: Mine | None = None) -> CpuSample | None:
    """None where /proc/stat is not there (not Linux). `mine`: count only the benchmark's
    own servers, workers and database backends as such."""
    try:
        line = Path("/proc/stat").read_text().split("\n", 1)[0]
        # user, nice, system, idle, iowait, irq, softirq, steal (guest time is inside user)
        ticks = [int(x) for x in line.split()[1:9]]
    except (OSError, ValueError):
        return None
    second = os.sysconf("SC_CLK_TCK")
    total, idle = sum(ticks) / second, (ticks[3] + ticks[4]) / second
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return CpuSample(total - idle, total, usage.ru_utime + usage.ru_stime, process_cpu(mine))


# The samples at the start and at the end of a measurement.
CpuSpan = tuple[CpuSample | None, CpuSample | None]


def cpu_line(before: CpuSample | None, after: CpuSample | None, moves: int) -> str:
    """Where the machine's CPU went while measuring: how busy it was, how much of it this
    command took itself, and the rest (the site, PostgreSQL, Redis) per move."""
    if before is None or after is None:
        return "CPU: not measured (no /proc/stat)"
    busy, total = after.busy - before.busy, after.total - before.total
    own = after.own - before.own
    per_move = (busy - own) / moves * 1000 if moves else float("nan")
    line = (
        f"CPU while measuring: {busy:.0f} of {total:.0f} core-seconds busy "
        f"({100 * busy / max(total, 1e-9):.0f}%), {own:.0f} of them this command's own; "
        f"the rest of the machine (when idle otherwise: the site, PostgreSQL, Redis) "
        f"{per_move:.0f} ms per move"
    )
    if not moves or not after.kinds:
        return line
    # A process that ended meanwhile is left out (its time is no longer in /proc).
    spent = {kind: used - before.kinds.get(kind, 0.0) for kind, used in after.kinds.items()}
    parts = ", ".join(
        f"{kind} {max(used, 0.0) / moves * 1000:.1f}"
        for kind, used in sorted(spent.items(), key=lambda item: -item[1])
    )
    return f"{line}\nCPU per move by process (ms): {parts}"


def check_places(database_url: str, redis_url: str, word: str) -> None:
    """Both are emptied: only a local database whose name says `word` and a local Redis
    database other than 0 will do."""
    database, redis_parts = urlsplit(database_url), urlsplit(redis_url)
    if database.hostname not in LOCAL or word not in database.path:
        raise CommandError(
            f"--database-url must be a local database whose name says '{word}' "
            "(it is dropped and created again)."
        )
    if redis_parts.hostname not in LOCAL or redis_parts.path in ("", "/0"):
        raise CommandError(
            "--redis-url must be a local Redis database other than 0 (it is emptied)."
        )


def fresh_database(url: str) -> None:
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


def fresh_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url).flushdb()
    except redis.RedisError as exc:
        raise CommandError(f"Redis at {url}: {exc}") from None


def site_env(database_url: str, redis_url: str, prefix: str, bot_delay: float) -> dict[str, str]:
    """The environment of the site's processes: production settings on loopback, plain HTTP."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "CHANNELS_PREFIX": prefix,
            "BOT_MOVE_DELAY": str(bot_delay),
            "DEBUG": "false",
            "SECRET_KEY": "benchmark-only-" + os.urandom(16).hex(),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "LOG_LEVEL": "WARNING",
            "LIVE_TRACE": "true",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.pop("PYTEST_VERSION", None)
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def session_cookie(username: str, *, existing: bool = False) -> str:
    """The session cookie of a new member `username` (or of the member of that name, when
    `existing`), signed in as the log-in form signs in (run with Django set up)."""
    from django.conf import settings
    from django.contrib.auth import SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    users = get_user_model().objects
    user = users.get(username=username) if existing else users.create_user(username, password=None)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


# --- processes ---------------------------------------------------------------------------------


def start(argv: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`argv` in the project's folder, with `env` (this process's environment by default)."""
    with open(log, "wb") as out:
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def start_servers(
    count: int,
    logs: Path,
    processes: list[subprocess.Popen[bytes]],
    env: dict[str, str] | None = None,
    asgi: str = serve.SITE,
) -> list[str]:
    """`count` ASGI server processes (the site's, or `asgi`: one of `infra.serve.KINDS`) on
    free loopback ports, with `env` if given; returns their `host:port`s. Each process is
    appended to `processes` as soon as it runs, so the caller can stop it."""
    servers = []
    for n in range(count):
        port = free_port()
        proc = start(serve.argv("127.0.0.1", port, asgi), logs / f"{asgi}-{n}.log", env)
        processes.append(proc)
        wait_for_port(port, proc)
        servers.append(f"127.0.0.1:{port}")
    return servers


def worker_argv(kind: str = workers.PLAY, processes: int = 0) -> list[str]:
    """Celery workers of `kind` as production starts them (infra/workers.py): for `play` the
    supervisor of `processes` solo workers (`play1`, `play2`, ...; `PLAY_PROCESSES` if 0),
    for `heavy` the reviews' and hints' worker at its lower priority."""
    argv = [sys.executable, "-m", "infra.workers", kind, "--loglevel=WARNING"]
    if processes:
        argv += ["--processes", str(processes)]
    return [*argv, "--without-gossip", "--without-mingle", "--without-heartbeat"]


def wait_for_workers(names: list[str], timeout: float = 180.0) -> None:
    """Until each Celery worker `name@…` answers a ping (run with Django set up)."""
    from celery import current_app as app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        answered = {host.split("@")[0] for reply in replies for host in reply}
        if answered >= set(names):
            return
    raise CommandError(f"the Celery workers {', '.join(names)} did not answer in {timeout:.0f} s")


# --- sockets -----------------------------------------------------------------------------------


# A later move made within this long of another is made at once with it (Tower of Babel's
# offers): a hub may read both together, and the later board stands for both (`arrivals_of`).
AT_ONCE_SECONDS = 0.5


def arrivals_of(
    watches: list[Watch],
    in_window: dict[tuple[int, int], float],
    committed: dict[tuple[int, int], float],
) -> tuple[list[float], int, int, int]:
    """For every board version committed in the window (game, version: commit time) that a
    socket watching since before it should get: the time to its arrival in ms, how many were
    expected, how many never arrived (lost), and how many of those a board of a move made at
    once with it stood in for (a later version committed within `AT_ONCE_SECONDS`, which the
    socket got: the hub found the later move when it read)."""
    latencies: list[float] = []
    expected = lost = superseded = 0
    for watch in watches:
        for (game_id, version), at in in_window.items():
            if game_id != watch.game_id or at < watch.connected_at:
                continue
            expected += 1
            arrived = watch.arrivals.get(version)
            if arrived is not None:
                latencies.append((arrived - at) * 1000)
                continue
            lost += 1
            superseded += any(
                later > version
                and committed.get((game_id, later), math.inf) - at <= AT_ONCE_SECONDS
                for later in watch.arrivals
            )
    return latencies, expected, lost, superseded


@dataclass
class Watch:
    """One game socket: the game it watches and when each move number arrived."""

    game_id: int
    server: str
    connected_at: float = 0.0
    arrivals: dict[int, float] = field(default_factory=dict)
    reconnects: int = 0
    traces: dict[int, dict[str, float]] = field(default_factory=dict)
    # When each message arrived and its length in bytes (a whole board, or a move's changes).
    sizes: list[tuple[float, int]] = field(default_factory=list)


async def listen(
    watch: Watch,
    cookie: str,
    opened: asyncio.Event,
    on_board: Callable[[bytes], None] | None = None,
) -> None:
    """Keep `watch`'s socket open (reconnecting when it drops) and note each board's arrival;
    `on_board` is given each board as it arrives. Runs until cancelled. The server is read
    for each connection: a caller may send the socket to another one when its own is gone,
    as a load balancer would."""
    import websockets

    while True:
        url = f"ws://{watch.server}/ws/games/{watch.game_id}/"
        headers = {"Cookie": cookie, "Origin": f"http://{watch.server}"}
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
                    watch.sizes.append((now, len(message)))
                    match = VERSION.search(message[:400])
                    if match:
                        watch.arrivals.setdefault(int(match.group(1)), now)
                        traced = TRACE.search(message[-400:])
                        if traced:
                            watch.traces.setdefault(int(match.group(1)), json.loads(traced[1]))
                    if on_board is not None:
                        on_board(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            if opened.is_set():
                watch.reconnects += 1
            await asyncio.sleep(0.5)


async def open_sockets(
    sockets: list[tuple[Watch, str, Callable[[bytes], None] | None]],
) -> list[asyncio.Task[None]]:
    """Open each `(watch, cookie, on_board)` socket, fifty handshakes at a time (a thousand at
    once would time out); returns their tasks once all are open. Cancel them to close."""
    tasks, events = [], []
    for index, (watch, cookie, on_board) in enumerate(sockets):
        opened = asyncio.Event()
        events.append(opened)
        tasks.append(asyncio.create_task(listen(watch, cookie, opened, on_board)))
        if index % 50 == 49:
            await asyncio.gather(*(e.wait() for e in events))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=300)
    return tasks


async def close_sockets(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
