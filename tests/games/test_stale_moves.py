"""A move posted from an old page is stale, except while several seats choose at once (issue 20,
item 5): there the others' choices since the page was drawn leave a seat's own choice open.

Tower of Babel (rules: a turn is the active player's alone; when they start a build, every other
player makes a secret offer at the same time) has both kinds of moment; with seed 3 the first
player can start a build at once.
"""

from __future__ import annotations

import pytest

from games import engines, services
from tests.conftest import make_user
from tests.games.conftest import build_game, state_of

ENGINE = engines.get("tower-of-babel")


@pytest.fixture
def tower(alice, bob, carol):  # noqa: ANN201
    return build_game(alice, bob, carol, engine="tower-of-babel", seed=3)


def test_in_a_turn_of_one_seat_a_move_from_an_older_page_is_stale(tower) -> None:
    """Bob's page was drawn at move 0, in Alice's turn; Alice passed, so it is Bob's turn. His
    post still says move 0: the page he answered is not the position he would move in."""
    assert ENGINE.to_move(state_of(tower)) == [0]
    services.play_move(game_id=tower.pk, seat=0, move={"type": "pass"}, expected_version=0)
    assert ENGINE.to_move(state_of(tower)) == [1]
    with pytest.raises(services.GameError) as exc:
        services.play_move(game_id=tower.pk, seat=1, move={"type": "pass"}, expected_version=0)
    assert exc.value.code == "stale"
    assert tower.moves.count() == 1


def test_an_offer_from_a_page_drawn_before_the_offers_began_is_stale(tower) -> None:
    """Bob's page was drawn in Alice's turn (move 0), when he had nothing to choose; Alice then
    started a build and every other seat offers. An offer that says move 0 is stale."""
    build = next(m for m in ENGINE.legal_moves(state_of(tower), 0) if m["type"] == "build")
    services.play_move(game_id=tower.pk, seat=0, move=build, expected_version=0)
    state = state_of(tower)
    assert sorted(ENGINE.to_move(state)) == [1, 2]
    offer = ENGINE.legal_moves(state, 1)[0]
    with pytest.raises(services.GameError) as exc:
        services.play_move(game_id=tower.pk, seat=1, move=offer, expected_version=0)
    assert exc.value.code == "stale"
    assert tower.moves.count() == 1


def test_while_seats_offer_at_once_another_seats_offer_leaves_a_choice_open(tower) -> None:
    """Bob's and Carol's pages were drawn at move 1, when both had to offer. Carol offered
    first (move 1); Bob's offer, which says move 1, is still his to make."""
    build = next(m for m in ENGINE.legal_moves(state_of(tower), 0) if m["type"] == "build")
    services.play_move(game_id=tower.pk, seat=0, move=build, expected_version=0)
    state = state_of(tower)
    services.play_move(
        game_id=tower.pk, seat=2, move=ENGINE.legal_moves(state, 2)[0], expected_version=1
    )
    services.play_move(
        game_id=tower.pk, seat=1, move=ENGINE.legal_moves(state, 1)[0], expected_version=1
    )
    assert list(tower.moves.order_by("number").values_list("seat", flat=True)) == [0, 2, 1]


def test_with_four_players_two_others_offers_leave_a_choice_open(alice, bob) -> None:
    """Bob's page was drawn at move 1, when Bob, Carol and Dora had to offer. Carol and Dora
    offered (moves 1 and 2); Bob's offer, which says move 1, is still his to make."""
    carol, dora = make_user("carol"), make_user("dora")
    game = build_game(alice, bob, carol, dora, engine="tower-of-babel", seed=3)
    build = next(m for m in ENGINE.legal_moves(state_of(game), 0) if m["type"] == "build")
    services.play_move(game_id=game.pk, seat=0, move=build, expected_version=0)
    page = state_of(game)
    assert sorted(ENGINE.to_move(page)) == [1, 2, 3]
    for seat in (2, 3):
        offer = ENGINE.legal_moves(state_of(game), seat)[0]
        services.play_move(game_id=game.pk, seat=seat, move=offer, expected_version=1)
    services.play_move(
        game_id=game.pk, seat=1, move=ENGINE.legal_moves(page, 1)[0], expected_version=1
    )
    assert list(game.moves.order_by("number").values_list("seat", flat=True)) == [0, 2, 3, 1]
