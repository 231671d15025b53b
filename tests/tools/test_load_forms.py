"""The load command's members find the moves a board offers from its forms' text alone
(`tools.load.move_forms`), as a parse of the whole board finds them: for the mover's board of
every game, in seeded games."""

from __future__ import annotations

import pytest

from games import engines, rendering
from tests.games.conftest import build_game, play_random_moves
from tools import load

GAMES = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]


def whole_board_forms(board: str) -> list[tuple[dict[str, str], dict[str, list[str]]]]:
    parser = load.MoveForms()
    parser.feed(board)
    return [(fields, choices) for fields, choices in parser.forms if "expected_version" in fields]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", GAMES)
def test_the_moves_found_in_the_forms_are_those_of_the_whole_board(alice, bob, slug) -> None:
    bots = ["normal"] if slug == "tower-of-babel" else []  # a game of three to five
    game = build_game(alice, bob, *bots, engine=slug, seed=5)
    engine = engines.get(slug)
    offered = 0
    for _ in range(6):
        game.refresh_from_db()
        seat = engine.to_move(engine.load(game.state))[0]
        board = rendering.board_html(game=game, seat=seat)
        found = load.move_forms(board)
        assert found == whole_board_forms(board)
        assert 'action="/games/' in board and "/resign/" in board  # a form that is no move
        offered += len(found)
        play_random_moves(game, count=3, seed=offered)
    assert offered > 0


def test_a_board_without_a_move_form_offers_nothing() -> None:
    board = (
        '<section data-version="3"><svg><text>&lt;form&gt;</text></svg>'
        '<form method="post" action="/games/1/resign/"><input type="hidden" '
        'name="expected_version" value="3"></form></section>'
    )
    assert load.move_forms(board) == []
