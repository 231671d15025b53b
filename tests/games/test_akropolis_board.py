"""The Akropolis board module's kept cities (games/boards/akropolis.py `drawn_city`): a board
drawn with cities kept from earlier boards is the board drawn from nothing, for every seat
and language through a game, and a city that did not change is not drawn again."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import loader
from django.utils import translation

from games import rendering
from games.boards import akropolis
from tests.games.conftest import build_game, play_random_moves


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
        akropolis._drawn_cities.clear()
        assert boards_of(game) == kept


def test_a_city_that_did_not_change_is_not_drawn_again(alice, monkeypatch) -> None:
    game = build_game(alice, "normal", "normal", seed=5)
    drawn: list[str] = []
    real = loader.render_to_string

    def counting(name: str, context: Any = None, *args: Any, **kwargs: Any) -> str:
        drawn.append(name)
        return real(name, context, *args, **kwargs)

    monkeypatch.setattr(akropolis, "render_to_string", counting)
    akropolis._drawn_cities.clear()
    rendering.board_html(game=game, seat=None)
    assert drawn.count("games/akropolis/_board.svg") == 3  # three cities, none kept yet
    drawn.clear()
    rendering.board_html(game=game, seat=None)
    assert drawn.count("games/akropolis/_board.svg") == 0
    # Taking a tile from the site changes no city; the same board for a seat changes only
    # whose city is "mine" (it is drawn apart from the others).
    play_random_moves(game, count=1)
    game.refresh_from_db()
    drawn.clear()
    rendering.board_html(game=game, seat=None)
    assert drawn.count("games/akropolis/_board.svg") == 0
    rendering.board_html(game=game, seat=1)
    assert drawn.count("games/akropolis/_board.svg") == 1
