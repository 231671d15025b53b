"""The create form in a real browser (issue 21, items 4 and 9): choosing a game offers that
game's own player counts, with a valid one picked, and shows its options at once; Babylon's
board option is one control."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_play import logged_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = [pytest.param(1280, id="1280px"), pytest.param(390, id="390px")]


def offered_counts(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".create-form select[name=players] option", "options => options.map(o => o.value)"
    )


def visible_seats(page: Any) -> int:
    return page.locator(".create-form .seat-field:visible").count()


@pytest.mark.parametrize("width", WIDTHS)
def test_choosing_a_game_offers_its_own_player_counts_and_options(
    asgi_server: str, new_page: Any, width: int
) -> None:
    alice = make_user("alice")
    page = logged_in_page(new_page, asgi_server, alice, viewport={"width": width, "height": 844})
    page.goto(f"http://{asgi_server}{reverse('games:lobby')}")
    form = page.locator(".create-form")

    # The specs: Tower of Babel is for 3 to 5 players, Babylon for 2 to 4.
    page.select_option(".create-form select[name=engine_slug]", "tower-of-babel")
    assert offered_counts(page) == ["3", "4", "5"]
    assert page.input_value(".create-form select[name=players]") == "3"
    assert visible_seats(page) == 3
    assert not form.locator('.game-options[data-game="babylon"]').is_visible()

    page.select_option(".create-form select[name=players]", "5")
    assert visible_seats(page) == 5
    page.select_option(".create-form select[name=engine_slug]", "babylon")
    assert offered_counts(page) == ["2", "3", "4"]
    assert page.input_value(".create-form select[name=players]") == "4"
    assert visible_seats(page) == 4
    # Its option shows at once, as one labelled list: nothing to open first.
    flowers = page.get_by_label("Flower of seat 1's board")
    assert flowers.is_visible()
    assert flowers.evaluate("el => el.tagName") == "SELECT"
    assert form.locator('.game-options[data-game="babylon"] input[type=checkbox]').count() == 0
    assert not form.locator('.game-options[data-game="akropolis"]').is_visible()

    page.select_option(".create-form select[name=players]", "2")
    page.select_option(".create-form select[name=engine_slug]", "tower-of-babel")
    assert page.input_value(".create-form select[name=players]") == "3"
    for seat in range(1, 3):
        page.select_option(f".create-form select[name=seat_{seat}]", "easy")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/games/*/")
    game = Game.objects.get()
    assert (game.engine_slug, game.players) == ("tower-of-babel", 3)
    assert page.errors == []


def test_babylon_flower_choice_reaches_the_game(asgi_server: str, new_page: Any) -> None:
    alice = make_user("alice")
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}{reverse('games:lobby')}")
    page.select_option(".create-form select[name=engine_slug]", "babylon")
    page.select_option(".create-form select[name=players]", "2")
    page.select_option(".create-form select[name=seat_1]", "easy")
    page.select_option(".create-form select[name=babylon-flowers]", "blue")
    page.locator(".create-form button[type=submit]").click()
    page.wait_for_url("**/games/*/")
    # The seat order can be drawn at random, but the first seat takes the chosen flower.
    assert Game.objects.get().options == {"flowers": ["blue"]}
