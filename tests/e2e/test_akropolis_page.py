"""The Akropolis game page in a real browser: one whole turn by keyboard alone, what a member
sees of the bot's last move (the marks on the board and the move log in words), a placement
chosen from the list, and plaza stars that stay readable on the city and the site."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games import engines, services
from tests.conftest import make_user
from tests.e2e.test_play import (
    TURN_TIMEOUT_MS,
    in_another_thread,
    logged_in_page,
    wait_for_version,
)
from tests.games.conftest import build_game, play_random_moves, state_of, waiting_game

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


def game_with_a_place_on_a_plaza(alice: Any, bob: Any) -> Any:
    """A game where Alice is to place her tile and may build on one of her plazas, and the
    construction site shows a plaza: played through the one move path, out of the browser's
    thread (its event loop forbids the move's synchronous announcement)."""
    engine = engines.get("akropolis")
    games = []

    def play() -> None:
        game = build_game(alice, bob, seed=11)
        games.append(game)
        for step in range(200):
            state = state_of(game)
            view = engine.view(state, 0)
            tops = {(c["q"], c["r"]): c["top"] for c in view["cities"][0]}
            on_plaza = any(tops.get((o["q"], o["r"]), "").isupper() for o in view["legal"]["place"])
            site_plaza = any(
                any(code.isupper() for code in entry["hexes"]) for entry in view["site"]
            )
            if engine.to_move(state) == [0] and on_plaza and site_plaza:
                return
            play_random_moves(game, count=1, seed=step)
        raise AssertionError("the position was not reached")

    in_another_thread(play)
    games[0].refresh_from_db()
    return games[0]


def open_game(new_page: Any, server: str, user: Any, game: Any, width: int) -> Any:
    page = logged_in_page(new_page, server, user, viewport={"width": width, "height": 844})
    page.goto(f"http://{server}/games/{game.pk}/")
    page.wait_for_selector(f'#game-board[data-version="{game.version}"]')
    return page


# Every element of the city drawn with the blue ring of the focus or of the chosen place, as
# the centre of its box.
RINGS = """() => Array.from(document.querySelectorAll('#city-0 .city-svg *')).filter(el => {
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  return style.stroke === 'rgb(0, 87, 184)' && parseFloat(style.strokeWidth) >= 4 &&
    box.width > 0 && el.closest('.preview:not(.shown)') === null;
}).map(el => {
  const b = el.getBoundingClientRect();
  return [b.x + b.width / 2, b.y + b.height / 2];
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_placement_chosen_from_the_list_holds_the_ring_and_the_focus(
    asgi_server: str, new_page: Any, width: int
) -> None:
    # Issue 34 item 3: choosing from the placement list left the ring on an unrelated place.
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = game_with_a_place_on_a_plaza(alice, bob)
    page = open_game(new_page, asgi_server, alice, game, width)
    select = page.locator(".placement-select")
    option = select.locator("option").last
    q, r = option.get_attribute("data-q"), option.get_attribute("data-r")
    value = option.get_attribute("value")
    # The mouse rests on another place, as it does when the list closes over the city.
    other = page.locator(f'#city-0 .spot:not([data-q="{q}"][data-r="{r}"])').first
    other.hover()
    select.focus()
    select.select_option(value=value)

    # The board shows the chosen placement, and only the chosen place is ringed.
    shown = page.locator("#city-0 .preview.shown")
    assert shown.count() == 1
    assert shown.get_attribute("data-index") == option.get_attribute("data-index")
    spot = page.locator(f'#city-0 .spot[data-q="{q}"][data-r="{r}"]')
    box = spot.locator("polygon").bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    rings = page.evaluate(RINGS)
    assert rings, "the chosen place has no ring"
    assert all(abs(x - centre[0]) < 3 and abs(y - centre[1]) < 3 for x, y in rings), rings
    assert focused(page, "el.classList.contains('placement-select')")

    # The keyboard's way back into the city lands on the chosen place, ringed.
    page.keyboard.press("Shift+Tab")
    assert focused(page, "el.classList.contains('spot') && el.dataset.q + ',' + el.dataset.r") == (
        f"{q},{r}"
    )
    rings = page.evaluate(RINGS)
    assert all(abs(x - centre[0]) < 3 and abs(y - centre[1]) < 3 for x, y in rings), rings
    assert page.locator("#city-0 .preview.shown").get_attribute("data-index") == (
        option.get_attribute("data-index")
    )
    # Confirming plays the placement chosen from the list.
    page.locator(".confirm-button").click()
    wait_for_version(page, game.version + 1)
    assert game.moves.get(number=game.version).payload == json.loads(value)
    assert page.errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_places_on_plazas_leave_their_stars_in_sight(
    asgi_server: str, new_page: Any, width: int
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = game_with_a_place_on_a_plaza(alice, bob)
    page = open_game(new_page, asgi_server, alice, game, width)
    overlaps = page.evaluate(
        """() => {
      const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom &&
        b.top < a.bottom;
      const found = [];
      document.querySelectorAll('#city-0 .spot').forEach(spot => {
        const hex = document.querySelector(`#city-0 .hex.plaza[data-q="${spot.dataset.q}"]` +
          `[data-r="${spot.dataset.r}"] .stars`);
        if (!hex) { return; }
        found.push(meet(spot.querySelector('circle').getBoundingClientRect(),
          hex.getBoundingClientRect()));
      });
      return found;
    }"""
    )
    assert overlaps, "no place on a plaza was drawn"
    assert not any(overlaps), "a place's dot covers a plaza's stars"


@pytest.mark.parametrize("width", [390, 1280])
def test_the_construction_sites_tiles_show_stars_large_enough_to_read(
    asgi_server: str, new_page: Any, width: int
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = game_with_a_place_on_a_plaza(alice, bob)
    page = open_game(new_page, asgi_server, alice, game, width)
    stars = page.evaluate(
        """() => Array.from(document.querySelectorAll('.site-tile .stars')).map(el => {
      const box = el.getBoundingClientRect();
      return [el.textContent.length, box.width, box.height];
    })"""
    )
    assert stars, "no plaza on the construction site"
    for count, width_px, height_px in stars:
        assert width_px / count >= 10 and height_px >= 10, (count, width_px, height_px)
    # Each tile stays whole inside the construction site, and the page does not scroll sideways.
    site = page.locator(".site").bounding_box()
    for tile in page.locator(".site-tile .tile-svg").all():
        box = tile.bounding_box()
        assert site["x"] <= box["x"] and box["x"] + box["width"] <= site["x"] + site["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
