"""Load test with members, not only spectators:

    python -m tools.load --games N --spectators M --seconds S [--servers K] [--asgi KIND]

Starts the site on PostgreSQL and Redis (127.0.0.1:5432 and :6379) in a database and a Redis
database of its own (club_load and db 13 unless told otherwise; both are emptied), with K ASGI
servers (infra/serve.py; two unless told otherwise) and the Celery workers on loopback (two
`play` processes and a `heavy` worker: the layout of infra/workers.py). In each of the N games
a simulated member plays a bot by HTTP as a browser does: signs in through the log-in form,
opens the game page, keeps the page's socket open, and after a think time drawn from 2 to 8 s
posts one of the move forms the board offers (with the session cookie and the CSRF token of
the page, as htmx does). M spectator sockets watch the games: each game's member is on one
server and its spectators on the next, so every move's boards are read on two servers (one
when K is 1) whatever K is. After S seconds it prints the moves per second, the time from each
member's move post to the board's arrival at every socket of the game (p50, p95, p99, max),
the time the move posts took, how long the bots took beyond the configured delay, the HTTP
answers by status, the updates that never arrived and the sockets that had to reconnect.


It talks only to 127.0.0.1 and stops every process it started, also on Ctrl-C or an error.
A measurement, not a test: its numbers depend on the machine (tests/tools/test_load.py runs it
briefly to check that it works).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import re
import secrets
import signal
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import Cookie, CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.core.management.base import CommandError

from infra import serve, workers
from tools import livestack
from tools.livestack import Watch, percentile, spread

THINK_SECONDS = (2.0, 8.0)
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')
LOG_IN_WAIT_SECONDS = 10.0  # after a 429 from the log-in rate limit
LOG_IN_TRIES = 60
CATCH_UP_SECONDS = 20.0  # a member whose socket brought nothing for this long reloads the board
SERVER_TIMING = re.compile(r"([\w-]+);dur=([\d.]+)")  # infra/timing.py: header()


# --- the move forms a board offers ------------------------------------------------------------


class MoveForms(HTMLParser):
    """The post forms of a board whose action is a game's move address: their hidden fields,
    and the choices of their radio buttons and selects."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[dict[str, str], dict[str, list[str]]]] = []
        self.current: tuple[dict[str, str], dict[str, list[str]]] | None = None
        self.select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            posts = a.get("method", "").lower() == "post"
            self.current = ({}, {}) if posts and a.get("action", "").endswith("/move/") else None
        elif self.current is not None:
            fields, choices = self.current
            if tag == "input" and a.get("type") == "hidden" and a.get("name"):
                fields[a["name"]] = a.get("value", "")
            elif tag == "input" and a.get("type") == "radio" and a.get("name"):
                choices.setdefault(a["name"], []).append(a.get("value", ""))
            elif tag == "select":
                self.select = a.get("name", "")
            elif tag == "option" and self.select:
                choices.setdefault(self.select, []).append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = ""
        elif tag == "form" and self.current is not None:
            self.forms.append(self.current)
            self.current = None


FORM_START = re.compile(r"<form\b")


@functools.lru_cache(maxsize=1024)
def move_forms(board: str) -> list[tuple[dict[str, str], dict[str, list[str]]]]:
    """The move forms `board` offers. Only the text of its forms goes to the parser: the rest
    of a board (its SVG) is most of it, the parser is pure Python, and parsing whole boards
    took nine tenths of this command's CPU, on the cores the site it measures runs on. A
    member's loop asks again for the same board when a message wakes it that changed nothing,
    so the answers are kept."""
    parser = MoveForms()
    for start in FORM_START.finditer(board):
        end = board.find("</form>", start.start())
        parser.feed(board[start.start() : len(board) if end < 0 else end + len("</form>")])
    return [(fields, choices) for fields, choices in parser.forms if "expected_version" in fields]


def board_version(board: bytes | str) -> int:
    data = board.encode() if isinstance(board, str) else board
    match = livestack.VERSION.search(data)
    return int(match.group(1)) if match else -1


# --- a member at a browser --------------------------------------------------------------------


@dataclass
class Post:
    version: int  # the board's version the move makes
    sent: float
    took: float
    status: int
    accepted: bool
    # The server's own hops of this post (its Server-Timing header), in milliseconds.
    hops: dict[str, float] = field(default_factory=dict)


@dataclass
class Member:
    username: str
    password: str
    game_id: int
    server: str
    watch: Watch
    jar: CookieJar = field(default_factory=CookieJar)
    csrf: str = ""
    board: str = ""
    version: int = -1
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    posts: list[Post] = field(default_factory=list)
    reloads: int = 0

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def url(self, path: str) -> str:
        return f"http://{self.server}{path}"

    def take(self, board: bytes | str) -> None:
        """A board arrived (socket or HTTP answer): the newest one is the screen."""
        text = board.decode() if isinstance(board, bytes) else board
        version = board_version(text)
        if version >= self.version:
            self.board, self.version = text, version
            self.changed.set()

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")


class Browser:
    """HTTP for the members, in threads (the standard library's client blocks); every answer's
    status is counted."""

    def __init__(self, members: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=max(4, members))
        self.statuses: Counter[int] = Counter()

    async def call(
        self, member: Member, path: str, data: dict[str, str] | None = None, htmx: bool = False
    ) -> tuple[int, str, float, dict[str, float]]:
        """GET (or POST `data`) `path`; returns the status, the text, the seconds taken and the
        server's hops (its Server-Timing header, in milliseconds)."""
        headers = {"Accept-Language": "en"}
        if htmx:
            headers.update({"HX-Request": "true", "X-CSRFToken": member.csrf})
        body = urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(member.url(path), data=body, headers=headers)
        loop = asyncio.get_running_loop()
        begin = time.monotonic()
        status, text, hops = await loop.run_in_executor(self.pool, self._open, member, request)
        self.statuses[status] += 1
        return status, text, time.monotonic() - begin, hops

    @staticmethod
    def _open(member: Member, request: urllib.request.Request) -> tuple[int, str, dict[str, float]]:
        try:
            with member.opener.open(request, timeout=60) as answer:
                timing = answer.headers.get("Server-Timing", "")
                hops = {name: float(ms) for name, ms in SERVER_TIMING.findall(timing)}
                return answer.status, answer.read().decode(), hops
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace"), {}
        except OSError:
            return 0, "", {}  # no answer at all (counted under status 0)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


async def sign_in(browser: Browser, member: Member) -> int:
    """The log-in form, then the game page: the session, the page's CSRF token and board.
    Returns how many times the site's log-in rate limit (per address: every member here comes
    from 127.0.0.1) made the member wait a while and try again."""
    held_back = await log_in(browser, member)
    await open_game_page(browser, member)
    return held_back


async def log_in(browser: Browser, member: Member) -> int:
    """The log-in form alone: the member's session (see `sign_in`)."""
    held_back = 0
    while True:
        status, page, _, _ = await browser.call(member, "/accounts/login/")
        token = CSRF_FIELD.search(page)
        if status != 200 or token is None:
            raise CommandError(f"{member.username}: the log-in page answered {status}")
        form = {"login": member.username, "password": member.password}
        data = {**form, "csrfmiddlewaretoken": token[1]}
        status, _, _, _ = await browser.call(member, "/accounts/login/", data)
        if status != 429 or held_back >= LOG_IN_TRIES:
            break
        held_back += 1
        await asyncio.sleep(LOG_IN_WAIT_SECONDS)
    return held_back


async def sign_in_directly(browser: Browser, member: Member) -> None:
    """A session made in the database, as the log-in form makes it, then the game page (for
    members past `--form-log-ins`: the site lets 30 log-ins a minute come from one address)."""
    made = await asyncio.to_thread(livestack.session_cookie, member.username, existing=True)
    name, _, key = made.partition("=")
    host = member.server.split(":")[0]
    cookie = Cookie(
        0, name, key, None, False, host, False, False, "/", True, False, None, True, None, None, {}
    )
    member.jar.set_cookie(cookie)
    await open_game_page(browser, member)


async def open_game_page(browser: Browser, member: Member) -> None:
    status, page, _, _ = await browser.call(member, f"/games/{member.game_id}/")
    token = CSRF_HEADER.search(page)
    if status != 200 or token is None or 'id="game-board"' not in page:
        raise CommandError(f"{member.username} could not sign in (the game answered {status})")
    member.csrf = token[1]
    member.take(page)


async def play(browser: Browser, member: Member, until: float, rng: random.Random) -> None:
    """Think, post one of the offered moves, wait for the next board that offers some."""
    while time.time() < until:
        member.changed.clear()
        forms = move_forms(member.board)
        if not forms:
            try:
                await asyncio.wait_for(member.changed.wait(), CATCH_UP_SECONDS)
            except TimeoutError:
                # The socket brought nothing new: the page fetches its board (principle 7).
                status, board, _, _ = await browser.call(
                    member, f"/games/{member.game_id}/board/", htmx=True
                )
                if status == 200:
                    member.reloads += 1
                    member.take(board)
            continue
        await asyncio.sleep(min(rng.uniform(*THINK_SECONDS), max(0.0, until - time.time())))
        if time.time() >= until:
            return
        fields, choices = rng.choice(forms)
        data = {**fields, **{name: rng.choice(values) for name, values in choices.items()}}
        version = int(data["expected_version"]) + 1
        sent = time.time()
        status, board, took, hops = await browser.call(
            member, f"/games/{member.game_id}/move/", data, htmx=True
        )
        accepted = status == 200 and board_version(board) == version
        member.posts.append(Post(version, sent, took, status, accepted, hops))
        if status == 200:
            member.take(board)


# --- the run ----------------------------------------------------------------------------------


def make_games(count: int, engine: str) -> tuple[list[tuple[str, str, int]], str]:
    """`count` games, each of a member (the first to play) against a bot playing random legal
    moves; returns (username, password, game id) of each and a spectator's session cookie."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games import services
    from games.models import Seat

    password = secrets.token_urlsafe(12)
    hashed = make_password(password)  # once: hashing it for each member would take minutes
    users = get_user_model().objects
    games = []
    for n in range(count):
        username = f"load-member-{n}"
        user = users.create(username=username, email=f"{username}@example.com", password=hashed)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        game = services.create_game(
            engine_slug=engine,
            players=2,
            options={},
            seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
            created_by=user,
        )
        # Random legal moves (games.bots: "random"): the time goes to the site, not to bots.
        Seat.objects.filter(game=game, user__isnull=True).update(bot_level="random")
        games.append((username, password, game.pk))
    return games, livestack.session_cookie("load-spectator")


def run(options: argparse.Namespace) -> dict[str, Any]:
    games, spectator_cookie = make_games(options.games, options.engine)
    logs = Path(livestack.ROOT) / "var" / "load"
    logs.mkdir(parents=True, exist_ok=True)
    processes: list[Any] = []
    browser = Browser(len(games))
    try:
        servers = livestack.start_servers(options.servers, logs, processes, asgi=options.asgi)
        play = livestack.worker_argv(workers.PLAY, 2)
        processes.append(livestack.start(play, logs / "worker-play.log"))
        # Production's layout: the searches members ask for have a worker of their own.
        heavy = livestack.worker_argv(workers.HEAVY)
        processes.append(livestack.start(heavy, logs / "worker-heavy.log"))
        livestack.wait_for_workers(["play1", "play2", "heavy"])
        print(
            f"{len(games)} game(s), {options.spectators} spectator(s), {len(servers)} servers, "
            "2 play worker processes and a heavy one; "
            f"playing for {options.seconds:.0f} s...",
            flush=True,
        )
        members, spectators, window, cpu = asyncio.run(
            drive(options, games, spectator_cookie, servers, browser, processes)
        )
    finally:
        browser.close()
        for proc in reversed(processes):
            livestack.stop(proc)
    return report(options, members, spectators, browser, window, cpu)


def member_server(game: int, servers: int) -> int:
    """The server of game number `game`'s member (its page, posts and socket)."""
    return game % servers


def spectator_server(spectator: int, games: int, servers: int) -> int:
    """The server of spectator number `spectator`, who watches game `spectator % games`: the
    one after that game's member's, so each move's boards are read on two servers whatever
    their number (on the member's alone when there is one)."""
    return (member_server(spectator % games, servers) + 1) % servers


async def drive(
    options: argparse.Namespace,
    games: list[tuple[str, str, int]],
    spectator_cookie: str,
    servers: list[str],
    browser: Browser,
    processes: list[Any],
) -> tuple[list[Member], list[Watch], tuple[float, float], livestack.CpuSpan]:
    from django.conf import settings

    members = []
    for n, (username, password, game_id) in enumerate(games):
        server = servers[member_server(n, len(servers))]
        watch = Watch(game_id=game_id, server=server)
        members.append(Member(username, password, game_id, server, watch))
    held_back = 0
    for n, member in enumerate(members):  # one at a time: a log-in hashes a password
        if n < options.form_log_ins:
            held_back += await sign_in(browser, member)
        else:
            await sign_in_directly(browser, member)
    if held_back:
        print(f"log-ins held back by the site's rate limit and tried again: {held_back}")
    browser.statuses.clear()  # from here on, the answers of play
    spectators = [
        Watch(
            game_id=games[n % len(games)][2],
            server=servers[spectator_server(n, len(games), len(servers))],
        )
        for n in range(options.spectators)
    ]
    sockets: list[tuple[Watch, str, Any]] = [(w, spectator_cookie, None) for w in spectators]
    for member in members:
        cookie = f"{settings.SESSION_COOKIE_NAME}={member.cookie(settings.SESSION_COOKIE_NAME)}"
        sockets.append((member.watch, cookie, member.take))
    tasks = await livestack.open_sockets(sockets)
    await asyncio.sleep(1.0)  # every consumer has joined its hub
    begin = time.time()
    # Only the processes started here count as the site's (the machine may run others).
    mine = livestack.mine_of(processes)
    cpu_before = livestack.cpu_sample(mine)
    until = begin + options.seconds
    rng = random.Random(options.seed)
    players = [
        asyncio.create_task(play(browser, m, until, random.Random(rng.random()))) for m in members
    ]
    try:
        await asyncio.gather(*players)
        cpu_after = livestack.cpu_sample(mine)
        await asyncio.sleep(3.0)  # what is on its way when the time is up still counts
    finally:
        for task in players:
            task.cancel()
        await livestack.close_sockets(tasks)
    return members, spectators, (begin, until), (cpu_before, cpu_after)


def report(
    options: argparse.Namespace,
    members: list[Member],
    spectators: list[Watch],
    browser: Browser,
    window: tuple[float, float],
    cpu: livestack.CpuSpan,
) -> dict[str, Any]:
    from games.models import Game, Move

    begin, end = window
    seconds = end - begin
    game_ids = [m.game_id for m in members]
    moves = list(
        Move.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("game_id", "number", "by_bot", "created_at")
    )
    committed = {(g, n + 1): at.timestamp() for g, n, _, at in moves}  # version = moves played
    in_window = {key: at for key, at in committed.items() if begin <= at <= end}
    watches = spectators + [m.watch for m in members]
    by_game: dict[int, list[Watch]] = {}
    for watch in watches:
        by_game.setdefault(watch.game_id, []).append(watch)

    # Lost: a board of the window that a socket open before its commit never received.
    expected = lost = 0
    for (game_id, version), committed_at in in_window.items():
        for watch in by_game.get(game_id, []):
            if watch.connected_at and watch.connected_at < committed_at:
                expected += 1
                lost += version not in watch.arrivals
    # POST to screen: from a member's post to its board at each socket of the game.
    to_screen, post_ms = [], []
    for member in members:
        for post in member.posts:
            post_ms.append(post.took * 1000)
            if not post.accepted:
                continue
            for watch in by_game[member.game_id]:
                arrived = watch.arrivals.get(post.version)
                if arrived is not None:
                    to_screen.append((arrived - post.sent) * 1000)
    # Bots: the time from the move before to theirs, beyond the delay they are told to wait.
    bot_ms = []
    for (game_id, _, by_bot, at), before in zip(moves[1:], moves, strict=False):
        if by_bot and before[0] == game_id and begin <= at.timestamp() <= end:
            bot_ms.append(((at - before[3]).total_seconds() - options.bot_delay) * 1000)
    for values in (to_screen, post_ms, bot_ms):
        values.sort()
    posts = [post for member in members for post in member.posts]
    errors = {s: n for s, n in sorted(browser.statuses.items()) if not 200 <= s < 400}
    server_errors = sum(n for s, n in browser.statuses.items() if s >= 500)
    reconnects = sum(w.reconnects for w in watches)
    finished = Game.objects.filter(pk__in=game_ids, status=Game.Status.FINISHED).count()

    print(
        f"games {len(members)}, spectators {len(spectators)}, member sockets {len(members)}, "
        f"servers {options.servers}, workers 2, window {seconds:.0f} s"
    )
    member_moves = sum(1 for post in posts if post.accepted)
    print(
        f"moves: {len(in_window)} ({len(in_window) / seconds:.1f} moves/s); "
        f"by members {member_moves} of {len(posts)} posted; games finished {finished}"
    )
    print(f"POST to screen (ms): {spread(to_screen)} ({len(to_screen)} boards)")
    print(f"move POST (ms): {spread(post_ms)} ({len(post_ms)} posts)")
    for line in post_hop_lines([p for p in posts if p.accepted]):
        print(line)
    print(f"bot turn beyond the {options.bot_delay:g} s delay (ms): {spread(bot_ms)}")
    answers = ", ".join(f"{s}: {n}" for s, n in sorted(browser.statuses.items()))
    shown = ", ".join(f"{s}: {n}" for s, n in errors.items()) or "none"
    print(f"HTTP answers while playing: {answers}; errors by status: {shown}; 5xx: {server_errors}")
    print(
        f"lost updates: {lost} of {expected}; reconnects: {reconnects}; "
        f"boards fetched over HTTP: {sum(m.reloads for m in members)}"
    )
    print(livestack.cpu_line(*cpu, len(in_window)))
    hops = livestack.hop_lines(watches, in_window)
    if hops:
        print("where a board's time went (ms, from the move's insert to its arrival at a socket):")
        for line in hops:
            print(line)

    def ms(values: list[float], fraction: float) -> float:
        return round(percentile(values, fraction), 1) if values else -1.0

    figures = {
        "games": len(members),
        "spectators": len(spectators),
        "servers": options.servers,
        "moves_per_second": round(len(in_window) / seconds, 2),
        "member_moves": member_moves,
        "post_to_screen_ms": {k: ms(to_screen, f) for k, f in PERCENTILES},
        "move_post_ms": {k: ms(post_ms, f) for k, f in PERCENTILES},
        "bot_beyond_delay_ms": {k: ms(bot_ms, f) for k, f in PERCENTILES},
        "errors_by_status": {str(s): n for s, n in errors.items()},
        "server_errors": server_errors,
        "lost": lost,
        "reconnects": reconnects,
    }
    print(json.dumps(figures), flush=True)
    return figures


PERCENTILES = (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))


def post_hop_lines(posts: list[Post]) -> list[str]:
    """Where the accepted move posts' time went (ms, p50 / p95 / p99), hop by hop as the
    server timed them (infra/timing.py), then what the server's hops leave of the time the
    member waited: the connection, the server's event loop and the load command itself."""
    spans: dict[str, list[float]] = {}
    for post in posts:
        for name, ms in post.hops.items():
            spans.setdefault(name, []).append(ms)
        if post.hops:
            spans.setdefault("(server, all hops)", []).append(sum(post.hops.values()))
            outside = post.took * 1000 - sum(post.hops.values())
            spans.setdefault("(outside the hops)", []).append(outside)
    if not spans:
        return []
    lines = ["move POST hop by hop (ms, p50 / p95 / p99):"]
    for name, values in spans.items():
        values.sort()
        figures = " / ".join(f"{percentile(values, f):.1f}" for f in (0.5, 0.95, 0.99))
        lines.append(f"  {name}: {figures}")
    return lines


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.load", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games, one member each")
    parser.add_argument("--spectators", type=int, default=20, help="spectator sockets in all")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the members play")
    parser.add_argument(
        "--servers", type=int, default=2, help="ASGI server processes (each game's sockets on two)"
    )
    parser.add_argument(
        "--asgi",
        default=serve.SITE,
        choices=serve.KINDS,
        help=f"the ASGI server (the site runs on {serve.SITE})",
    )
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds a bot waits")
    parser.add_argument("--engine", default="akropolis", help="the game's engine slug")
    parser.add_argument("--seed", type=int, default=None, help="seed of the think times")
    parser.add_argument(
        "--form-log-ins",
        type=int,
        default=None,
        help="members who sign in through the log-in form (all by default); the others get "
        "a session made directly, since the site lets 30 log-ins a minute come from one address",
    )
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/club_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    options = parser.parse_args(argv)
    if options.games < 1 or options.spectators < 0 or options.seconds <= 0 or options.servers < 1:
        parser.error(
            "--games and --servers must be at least 1, --spectators at least 0, --seconds above 0"
        )
    if options.form_log_ins is None:
        options.form_log_ins = options.games
    return options


def main(argv: list[str] | None = None) -> int:
    options = arguments(argv)
    # A SIGTERM stops everything as Ctrl-C does (the `finally` of `run`).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        livestack.check_places(options.database_url, options.redis_url, "load")
        livestack.fresh_database(options.database_url)
        livestack.fresh_redis(options.redis_url)
        env = livestack.site_env(options.database_url, options.redis_url, "load", options.bot_delay)
        print("Migrating the load database...", flush=True)
        livestack.migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        run(options)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
