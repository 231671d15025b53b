"""The site on a Redis of the test's own: idle sockets stay open, and a Redis outage leaves
every page, sign-in and move working (browsers recover from lost live messages, principle 7).

Each test starts its own redis-server on a free port (the shared one on 6379 is never
stopped) and an ASGI server whose cache, channel layer and broker are that Redis, whichever
database the run uses (CI runs the suite on PostgreSQL and on the embedded defaults).
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.db import connections
from pytest_django.fixtures import Settings

from accounts.services import notify
from games import services
from games.models import Game
from tests.conftest import PASSWORD, free_port, make_user, start_server, stop, wait_for_port
from tests.games.conftest import build_game, first_legal_move
from tests.test_processes import session_cookie_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PREFIX = "club-own-redis"
IDLE_SECONDS = 30


class OwnRedis:
    def __init__(self, workdir: Path, port: int = 0) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            stop(self.proc)

    def pause(self) -> None:
        """Redis hangs: connections stay open and nothing is answered (SIGSTOP)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """Redis answers again, what it was sent meanwhile included (SIGCONT)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed for this test (apt-get install redis-server)")
    redis = OwnRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


@pytest.fixture
def redis_site(
    own_redis: OwnRedis, process_env: dict[str, str], tmp_path: Path
) -> Iterator[tuple[str, Path]]:
    """The site's ASGI server on this test's Redis (cache, channel layer, broker): its address
    and its log."""
    log = tmp_path / "server.log"
    env = {**process_env, "REDIS_URL": own_redis.url, "CHANNELS_PREFIX": PREFIX}
    proc, address = start_server(env, log)
    yield address, log
    stop(proc)


def publish_through(settings: Settings, redis: OwnRedis) -> None:
    """This (test) process announces its moves and notifications on the test's Redis."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis.url], "prefix": PREFIX},
        }
    }


def in_thread(work: Any) -> Any:
    """Run database work from asyncio.to_thread; that thread's connection must not outlive it."""

    def run() -> Any:
        try:
            return work()
        finally:
            connections.close_all()

    return run


def test_idle_game_and_notification_sockets_stay_open_and_get_the_next_move(
    redis_site: tuple[str, Path], own_redis: OwnRedis, settings: Settings
) -> None:
    address, log = redis_site
    publish_through(settings, own_redis)
    alice, bob = make_user("alice-idle"), make_user("bob-idle")
    game = build_game(alice, bob, seed=13)
    headers = {"Cookie": session_cookie_for(alice), "Origin": f"http://{address}"}

    def next_move_and_a_notification() -> None:
        seat, move = first_legal_move(game)
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)
        notify(user=alice, message="Still here after the quiet spell")

    async def run() -> tuple[str, str]:
        async with (
            websockets.connect(
                f"ws://{address}/ws/games/{game.pk}/", additional_headers=headers
            ) as game_socket,
            websockets.connect(
                f"ws://{address}/ws/notifications/", additional_headers=headers
            ) as note_socket,
        ):
            await asyncio.sleep(IDLE_SECONDS)
            # A socket the server closed meanwhile would raise here instead of receiving.
            await asyncio.to_thread(in_thread(next_move_and_a_notification))
            board = str(await asyncio.wait_for(game_socket.recv(), timeout=15))
            note = str(await asyncio.wait_for(note_socket.recv(), timeout=15))
            return board, note

    board, note = asyncio.run(run())
    assert 'data-version="1"' in board
    assert "Still here after the quiet spell" in note
    assert "Timeout reading" not in log.read_text()


class Browser:
    """A visitor's browser for plain HTTP: cookies kept, redirects not followed."""

    class _Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    def __init__(self, address: str) -> None:
        self.base = f"http://{address}"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), self._Stay
        )

    def request(self, path: str, data: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, body and the redirect's Location for a GET, or a POST with the CSRF token."""
        body = None
        if data is not None:
            token = next(c.value for c in self.cookies if c.name == "csrftoken")
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=body)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode(), ""
        except urllib.error.HTTPError as answer:
            return answer.code, answer.read().decode(), answer.headers.get("Location", "")

    def sign_in(self, username: str) -> tuple[int, str]:
        """The log-in form, opened (for its CSRF cookie) and posted with the cast's password:
        the answer's status and Location."""
        assert self.request("/accounts/login/")[0] == 200
        status, _, location = self.request(
            "/accounts/login/", {"login": username, "password": PASSWORD}
        )
        return status, location


def test_with_redis_stopped_pages_sign_in_and_moves_still_work(
    redis_site: tuple[str, Path], own_redis: OwnRedis, settings: Settings
) -> None:
    """Redis holds the rate limits, the live messages and the task queue; without it the site
    still serves every page, signs members in and stores their moves (the board shows them on
    reload, as after any lost live message)."""
    address, log = redis_site
    alice, bob = make_user("alice-outage"), make_user("bob-outage")
    game = build_game(alice, bob, seed=13)
    seat, move = first_legal_move(game)
    player = alice if seat == 0 else bob
    own_redis.stop()

    browser = Browser(address)
    for path in ["/", "/rules/", "/accounts/login/", "/accounts/signup/"]:
        assert browser.request(path)[0] == 200, path
    status, _, location = browser.request(
        "/accounts/login/", {"login": player.username, "password": PASSWORD}
    )
    assert (status, location) == (302, "/")
    for path in [
        "/",
        "/games/",
        "/games/history/",
        f"/games/{game.pk}/",
        "/members/me/",
        "/members/me/notifications/",
    ]:
        assert browser.request(path)[0] == 200, path

    status, _, location = browser.request(
        f"/games/{game.pk}/move/", {"expected_version": "0", "move": json.dumps(move)}
    )
    assert (status, location) == (302, f"/games/{game.pk}/")
    assert Game.objects.get(pk=game.pk).version == 1
    status, page, _ = browser.request(f"/games/{game.pk}/")
    assert status == 200
    assert 'data-version="1"' in page
    assert "Internal Server Error" not in log.read_text()

    # A notification is stored even though it cannot be pushed live; the page lists it.
    publish_through(settings, own_redis)
    notify(user=player, message="Written while Redis was down")
    status, page, _ = browser.request("/members/me/notifications/")
    assert status == 200
    assert "Written while Redis was down" in page


def test_failed_log_ins_still_lock_an_account_while_redis_is_down(settings: Settings) -> None:
    """The rate limits fall back to the process's memory instead of being switched off
    (infra/cache.py): five wrong passwords still lock the account (ACCOUNT_RATE_LIMITS)."""
    from django.test import Client

    nothing_listens = f"redis://127.0.0.1:{free_port()}/0"
    settings.CACHES = {
        "default": {"BACKEND": "infra.cache.RedisCacheWithFallback", "LOCATION": nothing_listens}
    }
    make_user("carol-outage")
    client = Client()
    for _attempt in range(5):
        wrong = client.post("/accounts/login/", {"login": "carol-outage", "password": "nope"})
        assert wrong.status_code == 200
    right = client.post("/accounts/login/", {"login": "carol-outage", "password": PASSWORD})
    assert right.status_code == 200
    assert "Too many failed login attempts" in right.text


# The longest a request may take with Redis paused: Redis's share is bounded by 0.2 s
# (settings.REDIS_REQUEST_TIMEOUT, live hints sent after the response); the rest is this busy
# machine's time for the request itself. Before, a move waited 15 s and a log-in 2 s or more.
PAUSED_BOUND = 1.0


def test_a_paused_redis_holds_no_request(redis_site: tuple[str, Path], own_redis: OwnRedis) -> None:
    """Redis stopped by SIGSTOP accepts connections and never answers: log-ins (rate limits in
    the cache), moves (announced to open pages and notified to the other member) and pages
    must not wait for it."""
    address, log = redis_site
    alice, bob = make_user("alice-paused"), make_user("bob-paused")
    game = build_game(alice, bob, seed=13)
    seat, move = first_legal_move(game)
    player = alice if seat == 0 else bob
    player_browser, other_browser = Browser(address), Browser(address)
    assert player_browser.sign_in(player.username)[0] == 302
    assert player_browser.request(f"/games/{game.pk}/")[0] == 200
    assert other_browser.request("/accounts/login/")[0] == 200

    def timed(browser: Browser, path: str, data: dict[str, str] | None = None) -> tuple:
        started = time.monotonic()
        status, _, location = browser.request(path, data)
        return status, location, time.monotonic() - started

    assert own_redis.proc is not None
    os.kill(own_redis.proc.pid, signal.SIGSTOP)
    try:
        other = bob if player == alice else alice
        log_in = timed(
            other_browser, "/accounts/login/", {"login": other.username, "password": PASSWORD}
        )
        played = timed(
            player_browser,
            f"/games/{game.pk}/move/",
            {"expected_version": "0", "move": json.dumps(move)},
        )
        page = timed(player_browser, f"/games/{game.pk}/")
    finally:
        os.kill(own_redis.proc.pid, signal.SIGCONT)
    assert log_in[:2] == (302, "/"), log_in
    assert played[:2] == (302, f"/games/{game.pk}/"), played
    assert page[0] == 200
    assert Game.objects.get(pk=game.pk).version == 1
    timings = {"log-in": log_in[2], "move": played[2], "page": page[2]}
    assert max(timings.values()) < PAUSED_BOUND, timings
    assert "Internal Server Error" not in log.read_text()
