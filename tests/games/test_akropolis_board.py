"""The Akropolis board's kept cities (games/boards/akropolis/drawing.py `drawn_city`): a board
drawn with cities kept from earlier boards is the board drawn from nothing, for every seat
and language through a game, and a city that did not change is not drawn again. The loose
tiles the board module writes are the ones their template wrote."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.utils import translation

from games import rendering, services
from games.boards.akropolis import drawing, names
from tests.games.conftest import board_contexts, board_frame, build_game, play_random_moves
from tests.games.test_rendering import ENGINE, make_game, play_until, render_board


def boards_of(game: Any) -> dict[tuple[int | None, str], str]:
    views = {}
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            for seat in (None, *range(game.players)):
                views[(seat, language)] = rendering.board_html(game=game, seat=seat)
    return views


@pytest.mark.parametrize("players", [2, 4])
def test_kept_cities_draw_the_same_boards_as_drawing_from_nothing(alice, players) -> None:
    game = build_game(alice, *["normal"] * (players - 1), seed=11)
    for _ in range(6):
        play_random_moves(game, count=5)
        game.refresh_from_db()
        kept = boards_of(game)
        drawing.forget_drawn_cities()
        assert boards_of(game) == kept


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seat of each city drawn from here on (none kept yet)."""
    seats: list[int] = []
    real = drawing.city_svg

    def counting(city: dict[str, Any]) -> Any:
        seats.append(city["seat"])
        return real(city)

    monkeypatch.setattr(drawing, "city_svg", counting)
    drawing.forget_drawn_cities()
    return seats


def test_a_city_that_did_not_change_is_not_drawn_again(alice, drawn: list[int]) -> None:
    game = build_game(alice, "normal", "normal", seed=5)
    rendering.board_html(game=game, seat=None)
    assert len(drawn) == 3  # three cities, none kept yet
    drawn.clear()
    rendering.board_html(game=game, seat=None)
    assert len(drawn) == 0
    # Taking a tile from the site changes no city; the same board for a seat changes only
    # whose city is "mine" (it is drawn apart from the others).
    play_random_moves(game, count=1)
    game.refresh_from_db()
    drawn.clear()
    rendering.board_html(game=game, seat=None)
    assert len(drawn) == 0
    rendering.board_html(game=game, seat=1)
    assert drawn == [1]


def test_a_server_watching_two_hundred_games_finds_their_cities_again(drawn: list[int]) -> None:
    # A server of the 200-game load test draws each game's two cities for the seat and for
    # spectators between two moves of one game: the first game's cities must still be kept
    # when its next board is drawn. (Each city here is a look of its own by its owner's name.)
    view = ENGINE.view(ENGINE.new_game(2, 7), None)
    looks = [(f"Member {game}", seat) for game in range(200) for seat in (0, 1)] * 2
    for name, seat in looks:
        drawing.drawn_city(view, seat, name, is_mine=False, with_moves=False, marked=set())
    assert len(drawn) == 400  # each look drawn once, found again the second time round


def test_the_kept_cities_stay_within_their_size(monkeypatch) -> None:
    state = ENGINE.new_game(2, 7)
    view = ENGINE.view(state, None)
    one = drawing.drawn_city(view, 0, "Ann", is_mine=False, with_moves=False, marked=set())
    monkeypatch.setattr(drawing, "KEEP_DRAWN_CITIES_BYTES", 10 * sys.getsizeof(one["svg"]))
    drawing.forget_drawn_cities()
    for n in range(50):
        drawing.drawn_city(view, 0, f"Ann {n}", is_mine=False, with_moves=False, marked=set())
        kept = sum(sys.getsizeof(c["svg"]) for c in drawing._drawn_cities.values())
        assert kept <= drawing.KEEP_DRAWN_CITIES_BYTES
        assert kept == drawing._drawn_cities_bytes
    assert 5 <= len(drawing._drawn_cities) <= 10


def spot_over_a_plaza(state: Any) -> dict[str, Any] | None:
    """The first place seat 0 may build on whose hex beneath is a plaza, with that hex."""
    if ENGINE.to_move(state) != [0]:
        return None
    view = ENGINE.view(state, 0)
    tops = {(c["q"], c["r"]): c for c in view["cities"][0]}
    for option in view["legal"]["place"]:
        below = tops.get((option["q"], option["r"]))
        if below is not None and below["top"].isupper():
            return {"option": option, "below": below, "view": view}
    return None


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "; beneath it: {plaza}, {stars} star"),
        ("hu", "; alatta: {plaza}, {stars} csillag"),
        ("pl", "; pod nią: {plaza}, {stars} gwiazd"),
    ],
)
def test_a_place_on_a_plaza_names_the_plaza_and_its_stars(
    alice: Any, bob: Any, language: str, words: str
) -> None:
    # Building on a plaza covers its stars (spec §2.4, §2.6): the place's accessible name says
    # which plaza and how many stars lie beneath, as the picture shows them.
    state = play_until(ENGINE.new_game(2, 11), spot_over_a_plaza, limit=200)
    found = spot_over_a_plaza(state)
    code = found["below"]["top"]
    stars = found["view"]["geometry"]["plaza_stars"][code]
    kind = found["view"]["geometry"]["hex_names"][code]
    with translation.override(language):
        html = render_board(make_game(state, alice, bob), state, 0)
        plaza = str(names.HEX_LABELS[kind])
    q, r = found["option"]["q"], found["option"]["r"]
    spot = re.search(rf'<g class="spot" data-q="{q}" data-r="{r}"[^>]*aria-label="([^"]*)"', html)
    assert spot, "no place drawn on the plaza"
    assert words.format(plaza=plaza, stars=stars) in spot.group(1)
    # The plaza beneath still shows its stars in the city.
    cell = re.search(rf'<g class="hex[^"]*" data-q="{q}" data-r="{r}".*?</g>', html, re.S)
    assert re.search(r'<text class="stars"[^>]*>' + "★" * stars + "</text>", cell.group(0))


# The board's templates before the board module wrote its tiles and texts (commit c037bd9),
# kept as they were: each drawing now is checked against theirs. The tile was included inside
# the board frame's `localize off`.
REFERENCE = Path(__file__).parent / "reference"
OLD_TILE = (REFERENCE / "akropolis_tile_c037bd9.svg").read_text()
OLD_BOARD = (REFERENCE / "akropolis_board_c037bd9.html").read_text()


def old_templates() -> tuple[Any, Any]:
    django = engines["django"]
    tile = django.from_string("{% load l10n %}{% localize off %}" + OLD_TILE + "{% endlocalize %}")
    board = django.from_string(
        "{% load l10n %}{% localize off %}"
        + OLD_BOARD.replace('{% include "games/akropolis/_tile.svg" %}', "{% include old_tile %}")
        + "{% endlocalize %}"
    )
    return tile, board


@pytest.mark.parametrize("players", [2, 4])
def test_loose_tiles_are_drawn_as_their_template_drew_them(alice, players) -> None:
    """Every tile a board shows (the site's, the one to place, the one taken last), for every
    viewer in English, Hungarian and Polish (whose decimal commas must not reach the SVG)."""
    game = build_game(alice, *["normal"] * (players - 1), seed=3)
    template, _ = old_templates()
    compared, plazas = 0, 0
    for _ in range(6):
        play_random_moves(game, count=5)
        game.refresh_from_db()
        for language in ("en", "hu", "pl"):
            with translation.override(language):
                for seat in (None, *range(players)):
                    view = services.view_for(game=game, seat=seat)
                    names = rendering.seat_names(game)
                    board = drawing.board(view, names, rendering.recent_moves(game))
                    for tile in [*board["site"], board["taken"], board["last_taken"]]:
                        if tile is None:
                            continue
                        assert tile["svg"] == template.render({"tile": tile})
                        compared += 1
                        plazas += "plaza-ring" in tile["svg"]
    assert compared > 100 and plazas > 0


@pytest.mark.parametrize("players", [2, 3])
def test_boards_are_drawn_as_their_template_drew_them(alice, bob, players) -> None:
    """The whole board partial of the game's own drawing (the cities, the site, the tiles and
    the texts), for every viewer (the member to move with their forms) through a game, in
    English, Hungarian and Polish, against the templates it replaces (the board's, with the
    ids and wrappers of the parts a live update swaps alone, games/board_patches.py)."""
    bob.display_name = "Bob & <Co>"
    bob.save()
    game = build_game(alice, bob, *["normal"] * (players - 2), seed=8)
    tile, old = old_templates()
    new = board_frame("board_template")
    for _ in range(8):
        for _view, ctx in board_contexts(game):
            assert new.render(ctx) == old.render({**ctx, "old_tile": tile})
        play_random_moves(game, count=4)
