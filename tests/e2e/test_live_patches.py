"""Incremental board updates in a real browser (games/board_patches.py, static/js/game.js and
each game's script): in every game, a page watching a game that the players move in, and a
player's own page, end with the board a fresh load of the page shows, after taking several
moves as their changes; and a page whose board is not the base of the changes it is sent
fetches the board over HTTP instead."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from accounts.models import User
from games import engines, services
from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_play import (
    in_another_thread,
    logged_in_page,
    wait_for_version,
    wait_until_settled,
)
from tests.games.conftest import build_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Counts the messages of the game socket that are changes rather than whole boards.
COUNT_CHANGES = """document.addEventListener("htmx:wsBeforeMessage", function (event) {
  if ((event.detail.message || "").indexOf("<template") === 0) {
    window.changesTaken = (window.changesTaken || 0) + 1;
  }
}, true)"""


@dataclass
class Watched:
    """A game of members (alice, bob, and dave where the game needs three), and a page of it at
    its first board."""

    game: Game
    url: str
    page: Any
    viewer: User


def open_game(
    asgi_server: str, new_page: Any, engine: str = "akropolis", viewer: str = "carol"
) -> Watched:
    """A game of `engine` at its fewest players, opened by `viewer` (a spectator, or one of
    the players)."""
    names = ["alice", "bob", "dave", "erin", "frank"][: engines.get(engine).min_players]
    players = [make_user(name, display_name=name.title()) for name in names]
    game = build_game(*players, engine=engine, seed=7)
    member = next((p for p in players if p.username == viewer), None) or make_user(viewer)
    url = f"http://{asgi_server}/games/{game.pk}/"
    page = logged_in_page(new_page, asgi_server, member)
    page.goto(url)
    page.wait_for_selector('#game-board[data-version="0"]')
    page.evaluate(COUNT_CHANGES)
    return Watched(game, url, page, member)


def play_next(game: Game, number: int) -> list[int]:
    """The player to move plays their first legal move, as their own browser would; returns
    the seats to move next."""
    to_move: list[int] = []

    def play() -> None:
        engine = engines.get(game.engine_slug)
        state = engine.load(Game.objects.get(pk=game.pk).state)
        seat = engine.to_move(state)[0]
        move = engine.legal_moves(state, seat)[0]
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=number)
        to_move.extend(engine.to_move(engine.load(Game.objects.get(pk=game.pk).state)))

    in_another_thread(play)
    return to_move


def board_of(page: Any) -> str:
    """The board as the page shows it once htmx has settled it, without what differs between
    two drawings of one board: the forms' CSRF tokens (a socket's board has none)."""
    wait_until_settled(page)
    html = page.eval_on_selector("#game-board", "board => board.outerHTML")
    html = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", html)
    return re.sub(r"\s+", " ", html)


def fresh_board(watched: Watched, new_page: Any, asgi_server: str, version: int) -> str:
    fresh = logged_in_page(new_page, asgi_server, watched.viewer)
    fresh.goto(watched.url)
    fresh.wait_for_selector(f'#game-board[data-version="{version}"]')
    assert fresh.errors == []
    return board_of(fresh)


@pytest.mark.parametrize("viewer", ["carol", "alice"])
@pytest.mark.parametrize("engine", sorted(engines.ENGINE_MODULES))
def test_a_watching_page_ends_with_the_board_a_fresh_load_shows(
    asgi_server: str, new_page: Any, engine: str, viewer: str
) -> None:
    """At least six moves; a player's page is compared when it is that player's turn again,
    where the board holds their forms and their game's script has set them up."""
    watched = open_game(asgi_server, new_page, engine, viewer)
    watched.page.evaluate("window.stillTheSamePage = true")
    seat = watched.game.seats.filter(user=watched.viewer).values_list("position", flat=True).first()
    number, to_move = 0, []
    while number < 6 or (seat is not None and seat not in to_move):
        to_move = play_next(watched.game, number)
        number += 1
        wait_for_version(watched.page, number)
        assert number < 60, "the viewer's turn never came back"
    assert watched.page.evaluate("window.changesTaken || 0") > 0
    assert board_of(watched.page) == fresh_board(watched, new_page, asgi_server, number)
    assert watched.page.evaluate("window.stillTheSamePage") is True
    assert watched.page.errors == []


def test_changes_for_a_board_the_page_does_not_have_make_it_fetch_the_board(
    asgi_server: str, new_page: Any
) -> None:
    watched = open_game(asgi_server, new_page)
    game, watcher = watched.game, watched.page
    number = 0
    # Until the socket sends changes (the first board it sends goes whole).
    while not watcher.evaluate("window.changesTaken || 0"):
        play_next(game, number)
        number += 1
        wait_for_version(watcher, number)
    # The page's board is no longer the one the socket sent last: the next changes are for a
    # base it does not have, so it fetches the board. (A whole board may come first.)
    with watcher.expect_response(lambda r: f"/games/{game.pk}/board/" in r.url) as fetched:
        while True:
            watcher.evaluate(
                "document.getElementById('game-board').setAttribute('data-stamp', 'other')"
            )
            taken = watcher.evaluate("window.changesTaken")
            play_next(game, number)
            number += 1
            wait_for_version(watcher, number)
            if watcher.evaluate("window.changesTaken") > taken:
                break
    assert fetched.value.status == 200
    assert board_of(watcher) == fresh_board(watched, new_page, asgi_server, number)
    assert watcher.errors == []
