"""The Akropolis game page in a real browser: one whole turn by keyboard alone, and what a
member sees of the bot's last move (the marks on the board and the move log in words)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from tests.conftest import make_user
from tests.e2e.test_play import TURN_TIMEOUT_MS, logged_in_page, wait_for_version
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def focused(page: Any, expression: str) -> Any:
    """Evaluate `expression` on the focused element (`el`)."""
    return page.evaluate(f"(() => {{ const el = document.activeElement; return {expression}; }})()")


def test_a_whole_turn_by_keyboard(asgi_server: str, new_page: Any) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(alice, seed=7)
    services.join_seat(game_id=game.pk, user=bob)
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector('#game-board[data-version="0"]')

    # Tab reaches the construction site: one tab stop for all the tiles that can be taken.
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused(page, "el.classList.contains('can-take')"):
            break
    else:
        pytest.fail("Tab never reached the construction site")
    assert focused(page, "el.dataset.index") == "0"
    page.keyboard.press("Tab")
    assert not focused(page, "el.classList.contains('can-take')"), "the site is one tab stop"
    page.keyboard.press("Shift+Tab")
    assert focused(page, "el.dataset.index") == "0"

    # Arrows move between the tiles; Enter takes the focused one (seat 0 has 1 stone, so the
    # tiles at index 0 and 1 can be taken: rules §2.3).
    page.keyboard.press("ArrowRight")
    assert focused(page, "el.dataset.index") == "1"
    page.keyboard.press("Enter")
    wait_for_version(page, 1)
    assert game.moves.get(number=0).payload == {"type": "take_tile", "index": 1}

    # Focus is now on the city, on a place for the tile; arrows move between places.
    page.wait_for_function("() => document.activeElement.classList.contains('spot')")
    first = focused(page, "el.dataset.q + ',' + el.dataset.r")
    page.keyboard.press("ArrowRight")
    second = focused(page, "el.dataset.q + ',' + el.dataset.r")
    assert focused(page, "el.classList.contains('spot')") and second != first
    assert page.locator('#game-board [data-roving] .spot[tabindex="0"]').count() == 1

    # Enter chooses the place: its preview shows and focus moves to the confirm button.
    page.keyboard.press("Enter")
    assert focused(page, "el.classList.contains('confirm-button')")
    shown = page.locator("#game-board .preview.shown")
    assert shown.count() == 1
    q, r = second.split(",")
    assert (shown.get_attribute("data-q"), shown.get_attribute("data-r")) == (q, r)
    rotation = shown.get_attribute("data-rotation")

    # `r` turns the tile at that place (when it has another legal rotation there).
    same_place = page.locator(f'#game-board .preview[data-q="{q}"][data-r="{r}"]').count()
    page.keyboard.press("r")
    after = page.locator("#game-board .preview.shown").get_attribute("data-rotation")
    assert (after != rotation) if same_place > 1 else (after == rotation)
    assert focused(page, "el.classList.contains('confirm-button')")

    # Enter on confirm plays the placement; the turn passes and the turn bar has the focus.
    page.keyboard.press("Enter")
    wait_for_version(page, 2)
    placed = game.moves.get(number=1).payload
    assert (str(placed["q"]), str(placed["r"]), str(placed["rotation"])) == (q, r, after)
    page.wait_for_function("() => document.activeElement.classList.contains('turn-bar')")
    assert "Waiting for Bob." in page.inner_text(".turn-bar")
    assert page.errors == []


def test_the_bots_last_move_is_marked_and_told_in_words(
    asgi_server: str, celery_worker_process: Any, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice")
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "hard"}],
        created_by=alice,
        seed=11,
    )
    page = logged_in_page(new_page, asgi_server, alice, viewport={"width": 390, "height": 844})
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector('#game-board[data-version="0"][data-my-turn]')
    page.locator("button.site-tile.can-take").first.click()
    wait_for_version(page, 1)
    page.get_by_role("button", name="Confirm placement").click()
    # The bot takes a tile and places it (moves 3 and 4); the page follows over the socket.
    page.wait_for_selector('#game-board[data-version="4"]', timeout=TURN_TIMEOUT_MS)

    taken, placed = game.moves.get(number=2), game.moves.get(number=3)
    cost = taken.payload["index"]  # the n-th tile of the site costs n stones (rules §2.3)
    log = page.inner_text(".recent-moves")
    took = "Hard bot took the free tile" if cost == 0 else f"Hard bot took the {cost}-stone tile"
    assert took in log
    level = re.search(r"Hard bot placed it on level (\d)", log)
    assert level, log
    # A tile placed on the table lies on level 1; on the city, one above what it covers.
    assert int(level.group(1)) == placed.summary["level"] >= 1
    assert f"Last move: Hard bot placed it on level {level.group(1)}" in page.inner_text(
        ".turn-bar"
    )

    # The three hexes the bot's tile now covers are outlined in its city, and the tile it took
    # is shown beside the construction site.
    bot_city = page.locator("#city-1")
    assert bot_city.locator(".last-move-outline").count() == 3
    marked = {
        (g.get_attribute("data-q"), g.get_attribute("data-r"))
        for g in bot_city.locator("g.hex.last-move").all()
    }
    anchor = (str(placed.payload["q"]), str(placed.payload["r"]))
    assert anchor in marked and len(marked) == 3
    assert page.locator(".last-taken .tile-svg").count() == 1
    assert page.locator("#city-0 .last-move-outline").count() == 0
    assert page.errors == []
