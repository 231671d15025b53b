"""The Akropolis board's kept cities (games/boards/akropolis/drawing.py `drawn_city`): a board
drawn with cities kept from earlier boards is the board drawn from nothing, for every seat
and language through a game, and a city that did not change is not drawn again. The loose
tiles the board module writes are the ones their template wrote."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import engines
from django.utils import translation

from games import rendering, services
from games.boards.akropolis import drawing, names
from tests.games.conftest import build_game, play_random_moves
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
        drawing._drawn_cities.clear()
        assert boards_of(game) == kept


def test_a_city_that_did_not_change_is_not_drawn_again(alice, monkeypatch) -> None:
    game = build_game(alice, "normal", "normal", seed=5)
    drawn: list[int] = []
    real = drawing.city_svg

    def counting(city: dict[str, Any]) -> Any:
        drawn.append(city["seat"])
        return real(city)

    monkeypatch.setattr(drawing, "city_svg", counting)
    drawing._drawn_cities.clear()
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


# A loose tile's template before the board module wrote the tiles (templates/games/akropolis/
# _tile.svg, removed in the same change), inside the board frame's `localize off` as it was
# included there.
OLD_TILE_TEMPLATE = (
    "{% load l10n %}{% localize off %}"
    '<svg class="tile-svg" viewBox="{{ tile.view_box }}" xmlns="http://www.w3.org/2000/svg" '
    'role="img" aria-label="{{ tile.title }}">'
    "{% for c in tile.hexes %}"
    '<g class="hex{% if c.plaza %} plaza{% endif %}" data-hex="{{ c.kind }}">'
    '<polygon points="{{ c.points }}" fill="{{ c.fill }}"/>'
    "{% if c.plaza %}"
    '<polygon class="plaza-ring" points="{{ c.inner }}"/>'
    '<text class="stars" x="{{ c.x }}" y="{{ c.y }}">{{ c.stars }}</text>'
    "{% endif %}</g>{% endfor %}</svg>\n"
    "{% endlocalize %}"
)


@pytest.mark.parametrize("players", [2, 4])
def test_loose_tiles_are_drawn_as_their_template_drew_them(alice, players) -> None:
    """Every tile a board shows (the site's, the one to place, the one taken last), for every
    viewer in English, Hungarian and Polish (whose decimal commas must not reach the SVG)."""
    game = build_game(alice, *["normal"] * (players - 1), seed=3)
    template = engines["django"].from_string(OLD_TILE_TEMPLATE)
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
