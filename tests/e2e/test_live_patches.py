"""Incremental board updates in a real browser (games/board_patches.py, static/js/game.js): a
page watching a game that the players move in ends with the board a fresh load of the page
shows, after taking several moves as their changes; and a page whose board is not the base of
the changes it is sent fetches the board over HTTP instead."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from tests.conftest import make_user
from tests.e2e.test_play import logged_in_page, move_in_another_thread, wait_for_version
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Counts the messages of the game socket that are changes rather than whole boards.
COUNT_CHANGES = """document.addEventListener("htmx:wsBeforeMessage", function (event) {
  if ((event.detail.message || "").indexOf("<template") === 0) {
    window.changesTaken = (window.changesTaken || 0) + 1;
  }
}, true)"""


def board_of(page: Any) -> str:
    """The board as the page shows it, without what differs between two drawings of one
    board: the forms' CSRF tokens (a socket's board has none)."""
    html = page.eval_on_selector("#game-board", "board => board.outerHTML")
    html = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", html)
    return re.sub(r"\s+", " ", html)


def test_a_watching_page_ends_with_the_board_a_fresh_load_shows(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    game = waiting_game(alice, seed=7)
    services.join_seat(game_id=game.pk, user=bob)
    url = f"http://{asgi_server}/games/{game.pk}/"
    watcher = logged_in_page(new_page, asgi_server, carol)
    watcher.goto(url)
    watcher.wait_for_selector('#game-board[data-version="0"]')
    watcher.evaluate("window.stillTheSamePage = true")
    watcher.evaluate(COUNT_CHANGES)
    for number in range(6):
        move_in_another_thread(game, number // 2 % 2, number)
        wait_for_version(watcher, number + 1)
    assert watcher.evaluate("window.changesTaken || 0") > 0
    fresh = logged_in_page(new_page, asgi_server, carol)
    fresh.goto(url)
    fresh.wait_for_selector('#game-board[data-version="6"]')
    assert board_of(watcher) == board_of(fresh)
    assert watcher.evaluate("window.stillTheSamePage") is True
    assert watcher.errors == [] and fresh.errors == []


def test_changes_for_a_board_the_page_does_not_have_make_it_fetch_the_board(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    game = waiting_game(alice, seed=7)
    services.join_seat(game_id=game.pk, user=bob)
    url = f"http://{asgi_server}/games/{game.pk}/"
    watcher = logged_in_page(new_page, asgi_server, carol)
    watcher.goto(url)
    watcher.wait_for_selector('#game-board[data-version="0"]')
    watcher.evaluate(COUNT_CHANGES)
    number = 0
    # Until the socket sends changes (the first board it sends goes whole).
    while not watcher.evaluate("window.changesTaken || 0"):
        move_in_another_thread(game, number // 2 % 2, number)
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
            move_in_another_thread(game, number // 2 % 2, number)
            number += 1
            wait_for_version(watcher, number)
            if watcher.evaluate("window.changesTaken") > taken:
                break
    assert fetched.value.status == 200
    fresh = logged_in_page(new_page, asgi_server, carol)
    fresh.goto(url)
    fresh.wait_for_selector(f'#game-board[data-version="{number}"]')
    assert board_of(watcher) == board_of(fresh)
    assert watcher.errors == []
