"""Redis stopped during play: moves and log-in keep working, and when Redis returns the open
pages' sockets are brought up to date without waiting for another move.

Proves: with Redis down a member signs in and posts a move over HTTP, the move is stored and
the reloaded page shows it; the sockets of the open pages stay open; once Redis is back
(restarted empty, as one without persistence comes back) every socket is sent the current
board by its server's hub (games/live.py), so the move made during the outage is not lost for
a member who only watches, and the next move arrives live as before. Without the hub's
catch-up the watching member kept the old board until someone moved again, and a member whose
turn came during the outage was never told.

And a longer stop, while a member hands the turn to a bot: her server cannot send the bot's turn
to the broker. It keeps it and sends it once Redis answers (games/outbox.py), so the bot plays
with no restart and no beat; neither the server nor the worker logs that it must be restarted.
Before, sending the task subscribed to its result first; after some 20 s of Redis refusing,
Celery gave up that subscription, logged "The Celery application must be restarted" although
the server recovered by itself, and the bot's turn was never sent.

The pages, log-in and moves during an outage are tested at length in tests/test_redis.py; these
tests build on its Redis of the test's own (the shared one is never stopped) and its ASGI server
on that Redis. They run in both runs.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from games import engines
from games.models import Game
from tests.conftest import make_user, start_celery_worker, stop
from tests.games.conftest import build_game
from tests.games.test_broker_outage import the_move_that_ends_alices_turn
from tests.test_processes import session_cookie_for
from tests.test_redis import Browser, OwnRedis, in_thread

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ENGINE = engines.get("akropolis")
WAIT = 30.0
VERSION = re.compile(r'data-version="(\d+)"')


def signed_in(address: str, username: str) -> Browser:
    browser = Browser(address)
    assert browser.sign_in(username) == (302, "/")
    return browser


def play(browser: Browser, game: Game) -> int:
    """Post the first legal move of the seat to move; the move number it was posted at."""
    game.refresh_from_db()
    state = ENGINE.load(game.state)
    seat = ENGINE.to_move(state)[0]
    status, _, _ = browser.request(
        f"/games/{game.pk}/move/",
        {
            "expected_version": str(game.version),
            "move": json.dumps(ENGINE.legal_moves(state, seat)[0]),
        },
    )
    assert status == 302
    return game.version


async def board_at(socket: Any, version: int) -> None:
    """Until the socket brings the board of move `version` (earlier boards are skipped)."""
    async with asyncio.timeout(WAIT):
        while True:
            found = VERSION.search(str(await socket.recv()))
            if found and int(found[1]) >= version:
                assert int(found[1]) == version
                return


def test_open_pages_catch_up_when_redis_returns(
    redis_site: tuple[str, Path], own_redis: OwnRedis
) -> None:
    address, log = redis_site
    alice, bob, carol = make_user("alice-redis"), make_user("bob-redis"), make_user("carol-redis")
    game = build_game(alice, bob, seed=13)
    game_id = game.pk
    members = {0: alice, 1: bob}
    carols, bobs = session_cookie_for(carol), session_cookie_for(bob)

    def mover() -> Browser:
        game.refresh_from_db()
        return signed_in(address, members[ENGINE.to_move(ENGINE.load(game.state))[0]].username)

    async def run() -> None:
        url = f"ws://{address}/ws/games/{game_id}/"
        headers = {"Origin": f"http://{address}"}
        async with (
            websockets.connect(url, additional_headers={**headers, "Cookie": carols}) as watching,
            websockets.connect(url, additional_headers={**headers, "Cookie": bobs}) as seated,
        ):
            own_redis.stop()
            # A member signs in and moves; the move is stored and shown on reload.
            browser = await asyncio.to_thread(in_thread(mover))
            number = await asyncio.to_thread(in_thread(lambda: play(browser, game)))
            status, page, _ = await asyncio.to_thread(browser.request, f"/games/{game_id}/")
            assert status == 200 and f'data-version="{number + 1}"' in page

            own_redis.start()
            # Both pages get the board of the move made during the outage, with no new move.
            await asyncio.gather(board_at(watching, number + 1), board_at(seated, number + 1))
            # And live updates are back: the next move arrives as it is made.
            browser = await asyncio.to_thread(in_thread(mover))
            number = await asyncio.to_thread(in_thread(lambda: play(browser, game)))
            await asyncio.gather(board_at(watching, number + 1), board_at(seated, number + 1))

    try:
        asyncio.run(run())
    except (TimeoutError, AssertionError, websockets.ConnectionClosed) as failure:
        raise AssertionError(f"{failure!r}; the server's log:\n{log.read_text()[-4000:]}") from None
    assert "Internal Server Error" not in log.read_text()


# Longer than Celery's retries of a Redis it cannot reach (about 20 s) before it gives up.
LONG_OUTAGE = 25.0


def test_a_long_redis_stop_asks_no_process_for_a_restart_and_the_bot_still_plays(
    redis_site: tuple[str, Path], broker: OwnRedis, process_env: dict[str, str], tmp_path: Path
) -> None:
    """Alice ends her turn while Redis is stopped: her server cannot send the bot's turn to
    the broker. Once Redis is back (empty), the bot plays that turn, with no restart and no
    beat to rescue it, and neither the server nor the worker has logged that it must be
    restarted (they recover by themselves)."""
    address, server_log = redis_site
    worker_log = tmp_path / "worker.log"
    env = {**process_env, "REDIS_URL": broker.url, "CHANNELS_PREFIX": "club-faults-stopped"}
    worker = start_celery_worker(env, worker_log)
    try:
        alice = make_user("alice-long-stop")
        game = build_game(alice, "easy", seed=5)
        move = the_move_that_ends_alices_turn(game)
        game.refresh_from_db()
        browser = signed_in(address, alice.username)

        broker.stop()
        status, _, _ = browser.request(
            f"/games/{game.pk}/move/",
            {"expected_version": str(game.version), "move": json.dumps(move)},
        )
        assert status == 302
        turn = game.version + 1  # the bot's first move
        time.sleep(LONG_OUTAGE)
        broker.start()

        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not bots_turn_played(game, turn):
            time.sleep(0.2)
        logs = f"the server's log:\n{server_log.read_text()[-3000:]}\nthe worker's log:\n"
        logs += worker_log.read_text()[-3000:]
        assert bots_turn_played(game, turn), logs
        assert worker.poll() is None, logs
    finally:
        stop(worker)
    for log in (server_log, worker_log):
        assert "must be restarted" not in log.read_text(), log.read_text()[-3000:]


def bots_turn_played(game: Game, turn: int) -> bool:
    game.refresh_from_db()
    return game.version > turn and ENGINE.to_move(ENGINE.load(game.state)) == [0]
