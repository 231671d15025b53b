"""A game page whose socket drops while moves are made shows the current board once its
socket is back, in a real browser.

Proves: the game's server is stopped under an open game page (a restart, as at each release)
and two moves are made while it is away; when the server is back on its address the page's
socket reconnects by itself (the htmx ws extension, after a dropped connection) and the page
fetches the board over HTTP (static/js/game.js, on `htmx:wsOpen`), so it shows the position
after both moves without a reload, with no error on the page. Nothing is sent for the moves
made while the server was away: without the fetch on reconnecting the page kept the old board.

tests/e2e/test_play.py drops the socket inside the browser (Playwright's socket route, close
code 1012); here the server process itself goes away. It runs in both runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import engines
from games.models import Game
from tests.conftest import free_port, make_user, start_server, stop
from tests.e2e.test_play import (
    in_another_thread,
    join_in_another_thread,
    logged_in_page,
    version,
    wait_for_version,
)
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.faults, pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ENGINE = engines.get("akropolis")
COUNT_OPENINGS = """document.addEventListener("htmx:wsOpen", (event) => {
  if (event.target.id === "game-live") { window.socketsOpened = (window.socketsOpened || 0) + 1; }
})"""


class Server:
    """The ASGI server on a fixed address, which the test stops and starts again."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log, self.port = env, log, free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.proc: Any = None

    def start(self) -> None:
        self.proc, _ = start_server(self.env, self.log, self.port)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)


@pytest.fixture
def server(process_env: dict[str, str], tmp_path: Path) -> Iterator[Server]:
    server = Server(process_env, tmp_path / "server.log")
    server.start()
    yield server
    server.stop()


def play_next_move(game: Game) -> None:
    def play() -> None:
        from games import services

        game.refresh_from_db()
        state = ENGINE.load(game.state)
        seat = ENGINE.to_move(state)[0]
        move = ENGINE.legal_moves(state, seat)[0]
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)

    in_another_thread(play)


def test_a_page_whose_server_went_away_shows_the_moves_made_meanwhile(
    server: Server, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(bob, seed=7)
    join_in_another_thread(game, alice)
    page = logged_in_page(new_page, server.address, alice)
    page.add_init_script(COUNT_OPENINGS)
    with page.expect_response(lambda r: f"/games/{game.pk}/board/" in r.url):
        page.goto(f"http://{server.address}/games/{game.pk}/")
    page.wait_for_function("() => window.socketsOpened === 1")
    page.evaluate("window.stillTheSamePage = true")
    assert version(page) == 0

    server.stop()
    play_next_move(game)
    play_next_move(game)
    current = Game.objects.get(pk=game.pk).revision
    assert current == 2
    server.start()

    try:
        page.wait_for_function("() => window.socketsOpened === 2", timeout=60_000)
        wait_for_version(page, current)
    except Exception as failure:
        raise AssertionError(
            f"{failure}\nthe server's log:\n{server.log.read_text()[-3000:]}"
        ) from None
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.errors == []
