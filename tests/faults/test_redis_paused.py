"""Redis paused during a move: the move post answers while Redis hangs, and the live update of
that move reaches the open pages once Redis answers again.

Proves: with the test's own redis-server stopped by SIGSTOP (it keeps its connections open and
answers nothing, as a Redis stalled by the machine or a network that drops packets), a member's
move post is answered before Redis answers anything, and the move's announcement, which could
not be sent meanwhile, is sent once Redis answers (infra/announce.py keeps it and tries again),
so a member who only watches gets the board of that move with no further move. Without that
the announcement was given up after its 5 s limit: the hub's blocking read had raised nothing
(the pause was shorter than the layer's read timeout), so no catch-up followed either, and the
watching page kept the old board until someone moved again.

Builds on tests/test_redis.py's Redis of the test's own and its ASGI server on that Redis; it
runs in both runs.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import websockets

from tests.conftest import make_user
from tests.faults.test_redis_stopped import ENGINE, board_at, play, signed_in
from tests.games.conftest import build_game
from tests.test_processes import session_cookie_for
from tests.test_redis import OwnRedis, in_thread

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Longer than an announcement's time limit (infra/announce.py, 5 s), shorter than the layer's
# read timeout (15 s), which ends a hub's blocking read with an error and so a catch-up.
PAUSE = 9.0


def test_a_move_made_while_redis_hangs_reaches_the_open_pages_once_it_answers(
    redis_site: tuple[str, Path], own_redis: OwnRedis
) -> None:
    address, log = redis_site
    alice, bob = make_user("alice-paused"), make_user("bob-paused")
    carols = session_cookie_for(make_user("carol-paused"))
    game = build_game(alice, bob, seed=13)
    browsers = {
        seat: signed_in(address, member.username) for seat, member in enumerate([alice, bob])
    }

    def move() -> int:
        game.refresh_from_db()
        return play(browsers[ENGINE.to_move(ENGINE.load(game.state))[0]], game)

    async def run() -> None:
        url = f"ws://{address}/ws/games/{game.pk}/"
        headers = {"Origin": f"http://{address}", "Cookie": carols}
        async with websockets.connect(url, additional_headers=headers) as watching:
            # The page is live: a move arrives as it is made.
            number = await asyncio.to_thread(in_thread(move))
            await board_at(watching, number + 1)

            own_redis.pause()
            paused = time.monotonic()
            try:
                number = await asyncio.to_thread(in_thread(move))
                answered = time.monotonic()
                await asyncio.sleep(max(0.0, paused + PAUSE - time.monotonic()))
            finally:
                own_redis.resume()
            # The post was answered while Redis still hung.
            assert answered - paused < PAUSE
            # The board of the move made during the pause arrives, with no new move.
            await board_at(watching, number + 1)

    try:
        asyncio.run(run())
    except (TimeoutError, AssertionError, websockets.ConnectionClosed) as failure:
        raise AssertionError(f"{failure!r}; the server's log:\n{log.read_text()[-4000:]}") from None
    assert "Internal Server Error" not in log.read_text()
