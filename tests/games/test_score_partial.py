"""The score partial (templates/games/_scores.html) draws the same document as before its
categories' rows were written by `score_tables.score_table`: checked against the partial as it
was (commit c037bd9, kept in tests/games/reference) for every game, running and finished, for
every viewer, in English, Hungarian and Polish."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation

from games import rendering, services
from games.models import Game
from tests.games.conftest import build_game, play_random_moves

pytestmark = pytest.mark.django_db

OLD_SCORES = (Path(__file__).parent / "reference" / "scores_c037bd9.html").read_text()


def assert_drawn_as_before(game: Game) -> None:
    old = engines["django"].from_string(OLD_SCORES)
    game.refresh_from_db()
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            for seat in (None, *range(game.players)):
                view = services.view_for(game=game, seat=seat)
                ctx = rendering.board_context(game=game, seat=seat, view=view)
                assert ctx["scores"]["categories"]
                assert render_to_string("games/_scores.html", ctx) == old.render(ctx)


@pytest.mark.parametrize("engine", ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"])
def test_the_score_partial_is_drawn_as_before(alice, bob, engine) -> None:
    bob.display_name = "Bob & <Co>"
    bob.save()
    game = build_game(alice, bob, "easy", engine=engine, seed=6)
    play_random_moves(game, 12)
    assert_drawn_as_before(game)
    play_random_moves(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert_drawn_as_before(game)
