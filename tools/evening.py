"""A club evening, then the memory each of the site's processes holds:

    python -m tools.evening --games 10 --evenings 2

Starts the processes `make run` starts, with the same commands (infra/serve.py, and
infra/workers.py's `play` worker, a supervisor of two solo worker processes, the first with
beat, and its `heavy` worker), on the embedded defaults (SQLite, the filesystem broker, in
var/evening/, emptied first) unless DATABASE_URL and REDIS_URL are set (then that database
is dropped and made again and that Redis database emptied: a local one whose name says
"evening", and a Redis database other than 0). It migrates, imports the rulebooks and makes
the demo data as `make run` does.

Each evening `--tables` members (default one) sign in through the log-in form and play
`--games` games between them against bots (Babylon, Akropolis, The Hanging Gardens and Tower
of Babel in turn), all tables at once, each member their games one after another, through the
site's HTTP endpoints as a browser does, with the game page's socket open: asks for a hint on
its first `--hints` turns and waits for each, posts one of the moves the board offers, and
plays on to the end. Each finished game's review is asked for at once (the heavy worker runs
it while the next game is played; a member has one review running at a time, so one refused
for that is asked for again later); the evening ends when every review is done. Then it
prints each process's proportional set size (PSS, /proc/<pid>/smaps_rollup) with its
children and grandchildren (the play worker's processes, the first one's beat, the heavy
worker's pool), and the total. With `--evenings 2` the same processes live through two
evenings, so growth shows. With `--report` each process that can (the server and the Celery
workers: infra/memory.py's report on SIGUSR2) also prints what it holds after each
measurement: its allocator's pages and Python's small-object arenas, and tracemalloc's largest
lines where PYTHONTRACEMALLOC is set.

A measurement, not a test (STYLE.md): the figures depend on the machine. It talks only to
127.0.0.1 and stops every process it started, also on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from infra import serve, workers
from tools import livestack, load
from tools.load import Browser, Member, Watch

# games/registry.py's engines, in the order an evening plays them.
ENGINES = ("babylon", "akropolis", "hanging-gardens", "tower-of-babel")
GAME_SECONDS = 1800.0  # a game that has not ended by then is a failure, not a long evening
WAIT_SECONDS = 900.0  # for a hint or a review
POLL_SECONDS = 0.5
VAR = livestack.ROOT / "var" / "evening"  # the embedded defaults' place (`--var-dir`)


# --- the processes and their memory ---------------------------------------------------------


@dataclass(frozen=True)
class Process:
    name: str  # what `make run` calls it
    pid: int
    # The processes it runs below it once started (a Celery worker's pool and beat).
    pool: int = 0


def children(pid: int) -> list[int]:
    """The pids whose parent is `pid` (all of its threads' children)."""
    found: list[int] = []
    tasks = Path(f"/proc/{pid}/task")
    try:
        for task in tasks.iterdir():
            text = (task / "children").read_text().split()
            found.extend(int(p) for p in text)
    except OSError:
        pass
    return sorted(set(found))


def pss_kib(pid: int) -> int | None:
    """The process's proportional set size in KiB (None once it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def command_of(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    words = raw.replace(b"\0", b" ").decode(errors="replace").split()
    return " ".join(Path(words[0]).name if i == 0 else w for i, w in enumerate(words[:6]))


def descendants(pid: int) -> list[tuple[int, int]]:
    """The processes below `pid`, each with its depth (1: a child), each after its parent."""
    found = []
    for child in children(pid):
        found.append((1, child))
        found += [(depth + 1, below) for depth, below in descendants(child)]
    return found


def pss_table(processes: list[Process]) -> tuple[list[str], float]:
    """One line per process and per child and grandchild (MB, 1 MB = 2**20 bytes), and the
    total in MB."""
    lines, total = [], 0
    for proc in processes:
        tree = [(proc.name, proc.pid)]
        for depth, pid in descendants(proc.pid):
            kin = "child" if depth == 1 else "grandchild"
            tree.append((f"{'  ' * depth}{kin} of {proc.name}", pid))
        for label, pid in tree:
            kib = pss_kib(pid)
            if kib is None:
                continue
            total += kib
            lines.append(f"PSS {label} (pid {pid}, {command_of(pid)}): {kib / 1024:.1f} MB")
    return lines, total / 1024


def catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for `signum` (its SigCgt mask in /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except OSError:
        pass
    return False


def ask_reports(processes: list[Process], path: Path) -> str:
    """Each process that reports its memory on SIGUSR2 (infra/memory.py: MEMORY_REPORT set)
    is asked to; returns the reports they wrote, waiting at most a minute for those still
    running. A process without the handler is left alone: SIGUSR2 would end it."""
    pids = [p.pid for p in processes] + [pid for p in processes for _, pid in descendants(p.pid)]
    asked = [pid for pid in pids if catches(pid, signal.SIGUSR2)]
    begin = path.stat().st_size if path.exists() else 0
    for pid in asked:
        os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline:
        with open(path, "a+") as report:
            report.seek(begin)
            text = report.read()
        # A heavy worker's pool process may have been replaced meanwhile (after a task).
        alive = [pid for pid in asked if Path(f"/proc/{pid}").exists()]
        if all(f"== pid {pid} " in text for pid in alive):
            break
        time.sleep(1)
    return text


# --- one member's evening -------------------------------------------------------------------


def finished(game_id: int) -> bool:
    from games.models import Game

    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists()


def hint_ready(game_id: int) -> bool | None:
    """Whether the newest hint of the game is computed (None: there is none)."""
    from games.models import Hint

    hint = Hint.objects.filter(game_id=game_id).order_by("-pk").first()
    return None if hint is None else hint.status == Hint.Status.READY


def newest_game(username: str) -> int:
    from games.models import Game

    game = Game.objects.filter(created_by__username=username).order_by("-pk").first()
    if game is None:
        raise CommandError(f"{username}'s game was not created")
    return game.pk


def make_member(username: str) -> str:
    """A member with a verified address; returns the password."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    password = secrets.token_urlsafe(12)
    user = get_user_model().objects.create_user(
        username, email=f"{username}@example.com", password=password
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return password


async def until(check: Any, what: str, timeout: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(check):
        if time.monotonic() > deadline:
            raise CommandError(f"{what} did not happen within {timeout:.0f} s")
        await asyncio.sleep(POLL_SECONDS)


async def new_game(browser: Browser, member: Member, engine: str, level: str) -> int:
    """The lobby's form: the member in the first seat, bots of `level` in the others (one, or
    as many as the game's fewest players need)."""
    from games import catalog

    info = catalog.get(engine)
    players = max(2, info.min_players if info is not None else 2)
    status, page, _, _ = await browser.call(member, "/games/")
    token = load.CSRF_FIELD.search(page)
    if status != 200 or token is None:
        raise CommandError(f"the lobby answered {status}")
    form = {
        "csrfmiddlewaretoken": token[1],
        "engine_slug": engine,
        "players": str(players),
        "first_player": "listed",
        "seat_0": "me",
        "seat_1": level,
        # The form has a field for each seat of the largest game; past `players` they are unused.
        **{f"seat_{n}": level for n in range(2, 8)},
    }
    status, page, _, _ = await browser.call(member, "/games/new/", form)
    if status != 200:
        errors = re.findall(r'class="errorlist[^"]*"[^>]*>(.{0,200})', page)
        raise CommandError(f"a new {engine} game answered {status}: {errors}")
    return await asyncio.to_thread(newest_game, member.username)


async def play_game(
    browser: Browser, member: Member, hints: int, rng: random.Random
) -> tuple[int, int]:
    """The member plays the game to its end; returns (own moves, hints asked)."""
    moves = asked = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not await asyncio.to_thread(finished, member.game_id):
        if time.monotonic() > deadline:
            raise CommandError(f"game {member.game_id} did not end in {GAME_SECONDS:.0f} s")
        member.changed.clear()
        forms = load.move_forms(member.board)
        if not forms:
            try:
                await asyncio.wait_for(member.changed.wait(), 5.0)
            except TimeoutError:
                status, board, _, _ = await browser.call(
                    member, f"/games/{member.game_id}/board/", htmx=True
                )
                if status == 200:
                    member.take(board)
            continue
        if asked < hints:
            asked += 1
            data = {"csrfmiddlewaretoken": member.csrf}
            await browser.call(member, f"/games/{member.game_id}/hint/", data)
            await until(lambda: hint_ready(member.game_id), f"game {member.game_id}'s hint")
        fields, choices = rng.choice(forms)
        data = {**fields, **{name: rng.choice(values) for name, values in choices.items()}}
        status, board, _, _ = await browser.call(
            member, f"/games/{member.game_id}/move/", data, htmx=True
        )
        if status == 200:
            moves += 1
            member.take(board)
    return moves, asked


def review_asked(game_id: int) -> bool:
    from games.models import Review

    return Review.objects.filter(game_id=game_id).exists()


def review_done(browser: Browser, member: Member, game_id: int) -> bool:
    request = urllib.request.Request(member.url(f"/games/{game_id}/review.json"))
    try:
        with member.opener.open(request, timeout=60) as answer:
            return b'"status": "done"' in answer.read()
    except OSError:
        return False


async def ask_reviews(browser: Browser, member: Member, waiting: list[int]) -> None:
    """Ask for the review of each game in `waiting` (a member has one review running at a
    time: the site refuses the next until it is done, so the member asks again later); the
    games whose review now exists leave the list."""
    for game_id in list(waiting):
        if not await asyncio.to_thread(review_asked, game_id):
            data = {"csrfmiddlewaretoken": member.csrf, "from": "play"}
            await browser.call(member, f"/games/{game_id}/review/", data)
        if not await asyncio.to_thread(review_asked, game_id):
            return
        waiting.remove(game_id)


async def table(
    options: argparse.Namespace, number: int, seat: int, server: str, browser: Browser
) -> list[str]:
    """One member's share of the evening: games `seat`, `seat + tables`, ... of it, one after
    another, each reviewed; returns a line per game."""
    from django.conf import settings

    username = f"evening-{number}-{seat}"
    password = await asyncio.to_thread(make_member, username)
    member = Member(username, password, 0, server, Watch(game_id=0, server=server))
    await load.log_in(browser, member)
    rng = random.Random(options.seed * 1000 + number * 100 + seat)
    lines, played, waiting = [], [], []
    for n in range(seat, options.games, options.tables):
        engine = options.engines[n % len(options.engines)]
        begin = time.monotonic()
        member.game_id = await new_game(browser, member, engine, options.bot_level)
        member.version, member.board = -1, ""
        member.watch = Watch(game_id=member.game_id, server=server)
        await load.open_game_page(browser, member)
        cookie = f"{settings.SESSION_COOKIE_NAME}={member.cookie(settings.SESSION_COOKIE_NAME)}"
        sockets = await livestack.open_sockets([(member.watch, cookie, member.take)])
        try:
            moves, asked = await play_game(browser, member, options.hints, rng)
        finally:
            await livestack.close_sockets(sockets)
        played.append(member.game_id)
        waiting.append(member.game_id)
        await ask_reviews(browser, member, waiting)
        lines.append(
            f"  table {seat}, game {member.game_id} ({engine}): {moves} member moves, "
            f"{asked} hints, {time.monotonic() - begin:.0f} s"
        )
        print(lines[-1], flush=True)
    deadline = time.monotonic() + WAIT_SECONDS * max(1, len(played))
    while waiting:
        if time.monotonic() > deadline:
            raise CommandError(f"{username}'s reviews of {waiting} were never started")
        await ask_reviews(browser, member, waiting)
        await asyncio.sleep(5 * POLL_SECONDS)
    for game_id in played:
        await until(
            lambda g=game_id: review_done(browser, member, g),
            f"game {game_id}'s review",
            WAIT_SECONDS * max(1, len(played)),
        )
    return lines


async def evening(
    options: argparse.Namespace, number: int, server: str, browser: Browser
) -> list[str]:
    """The evening's games at `--tables` tables at once, a member at each; returns a line per
    game."""
    shares = await asyncio.gather(
        *(table(options, number, seat, server, browser) for seat in range(options.tables))
    )
    return [line for share in shares for line in share]


# --- the run ----------------------------------------------------------------------------------


def site_env(options: argparse.Namespace) -> dict[str, str]:
    """`make run`'s environment: production settings on loopback over plain HTTP."""
    env = dict(os.environ)
    env.pop("PYTEST_VERSION", None)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": "evening-only-" + secrets.token_hex(16),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BOT_MOVE_DELAY": str(options.bot_delay),
            "VAR_DIR": str(options.var_dir),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if options.report:
        env["MEMORY_REPORT"] = str(options.var_dir / "logs" / "memory-report.txt")
    return env


def prepare(env: dict[str, str], var: Path) -> None:
    """An empty place, then `make run`'s steps before it serves."""
    database, redis_url = env.get("DATABASE_URL", ""), env.get("REDIS_URL", "")
    if bool(database) != bool(redis_url):
        raise CommandError("set both DATABASE_URL and REDIS_URL, or neither")
    shutil.rmtree(var, ignore_errors=True)
    (var / "logs").mkdir(parents=True)
    if database:
        livestack.check_places(database, redis_url, "evening")
        livestack.fresh_database(database)
        livestack.fresh_redis(redis_url)
    for step in (["migrate", "--noinput", "-v", "0"], ["import_rulebooks"], ["create_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *step],
            cwd=livestack.ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def start_site(
    env: dict[str, str], var: Path, started: list[subprocess.Popen[bytes]]
) -> tuple[str, list[Process]]:
    """The server and the two workers as `make run` starts them (Makefile, `run`)."""
    logs = var / "logs"
    port = livestack.free_port()
    site = livestack.start(
        [sys.executable, "-m", "infra.serve", "--host", "127.0.0.1", "--port", str(port)],
        logs / "serve.log",
        env,
    )
    started.append(site)
    play = [sys.executable, "-m", "infra.workers", workers.PLAY, "--beat", "--loglevel=WARNING"]
    heavy = [sys.executable, "-m", "infra.workers", workers.HEAVY, "--loglevel=WARNING"]
    for name, argv in ((workers.PLAY, play), (workers.HEAVY, heavy)):
        started.append(livestack.start(argv, logs / f"{name}.log", env))
    livestack.wait_for_port(port, site)
    # The play worker's processes and the first one's beat, the heavy worker's pool.
    processes = [
        Process(f"ASGI server ({serve.SITE})", site.pid),
        Process("play worker", started[1].pid, workers.play_processes() + 1),
        Process("heavy worker", started[2].pid, workers.heavy_concurrency()),
    ]
    whole_pools(processes, started, 180)
    return f"127.0.0.1:{port}", processes


def whole_pools(
    processes: list[Process], started: list[subprocess.Popen[bytes]], timeout: float
) -> None:
    """Wait until each Celery worker has all its processes (`Process.pool`; a ping would need
    a broadcast, which the embedded filesystem broker has not). At the start, and before each
    table of the processes: the heavy worker replaces its pool process after each task, and a
    table read before the new one came would miss it."""
    deadline = time.monotonic() + timeout
    while any(len(descendants(proc.pid)) < proc.pool for proc in processes):
        if time.monotonic() > deadline or any(p.poll() is not None for p in started):
            raise CommandError("the Celery workers did not start their children")
        time.sleep(0.5)


def run(options: argparse.Namespace) -> list[float]:
    """The evenings; returns the total PSS (MB) after each."""
    env = site_env(options)
    print("Preparing the site as `make run` does (migrate, rulebooks, demo)...", flush=True)
    prepare(env, options.var_dir)
    os.environ.update(env)
    import django

    django.setup()
    started: list[subprocess.Popen[bytes]] = []
    totals = []
    browser = Browser(4 * options.tables)
    try:
        server, processes = start_site(env, options.var_dir, started)
        time.sleep(options.settle)
        whole_pools(processes, started, 60)
        lines, total = pss_table(processes)
        print("\n".join(["Idle, before the first evening:", *lines]))
        print(f"PSS total: {total:.1f} MB", flush=True)
        reports = Path(env.get("MEMORY_REPORT", "/nonexistent"))
        if options.report:
            print(ask_reports(processes, reports), flush=True)
        for number in range(1, options.evenings + 1):
            print(
                f"Evening {number}: {options.games} games against {options.bot_level} bots at "
                f"{options.tables} tables, {options.hints} hints each, a review each...",
                flush=True,
            )
            begin = time.monotonic()
            try:
                asyncio.run(evening(options, number, server, browser))
            except CommandError:
                lines, total = pss_table(processes)
                print("\n".join([f"When evening {number} failed:", *lines]))
                print(f"PSS total: {total:.1f} MB", flush=True)
                raise
            time.sleep(options.settle)
            whole_pools(processes, started, 60)
            lines, total = pss_table(processes)
            took = time.monotonic() - begin
            print("\n".join([f"After evening {number} ({took:.0f} s):", *lines]))
            print(f"PSS total: {total:.1f} MB", flush=True)
            totals.append(total)
            if options.report:
                print(ask_reports(processes, reports), flush=True)
    finally:
        browser.close()
        for proc in reversed(started):
            livestack.stop(proc)
    return totals


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.evening", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games against bots each evening")
    parser.add_argument("--evenings", type=int, default=1, help="evenings, one after another")
    parser.add_argument(
        "--tables",
        type=int,
        default=1,
        help="members playing at once, each their share of the games one after another",
    )
    parser.add_argument("--hints", type=int, default=2, help="hints asked for in each game")
    parser.add_argument(
        "--engine",
        dest="engines",
        action="append",
        choices=ENGINES,
        help="a game to play (repeat for several; default: all four in turn)",
    )
    parser.add_argument("--bot-level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument(
        "--bot-delay", type=float, default=0.2, help="seconds a bot waits before its move"
    )
    parser.add_argument("--settle", type=float, default=5.0, help="seconds waited before measuring")
    parser.add_argument("--seed", type=int, default=1, help="seed of the member's moves")
    parser.add_argument(
        "--report",
        action="store_true",
        help="after each measurement, print what each process holds (infra/memory.py; "
        "with PYTHONTRACEMALLOC=N set, tracemalloc's lines too): for finding where it went, "
        "the reports' own work moves the next figures",
    )
    parser.add_argument(
        "--var-dir",
        type=Path,
        default=VAR,
        help="the site's files (SQLite, broker, logs; emptied first), default var/evening",
    )
    options = parser.parse_args(argv)
    if min(options.games, options.evenings, options.tables) < 1 or options.hints < 0:
        parser.error("--games, --evenings and --tables must be at least 1, --hints at least 0")
    options.tables = min(options.tables, options.games)
    options.engines = options.engines or list(ENGINES)
    options.var_dir = options.var_dir.resolve()
    return options


def main(argv: list[str] | None = None) -> int:
    options = arguments(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        run(options)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
