"""Groups and which of them may be scored (hanging-gardens.md §2.5, §2.6; §6.1, §6.2, §6.5)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.state import PLACE, TEMPLE, TILE

from .positions import SKIP, garden, place, position, take, temple, temples, top


def temple_cells(state) -> set[tuple[int, int]]:
    return {(m["x"], m["y"]) for m in ENGINE.legal_moves(state, 0) if m["type"] == "place_temple"}


def test_breaking_a_group_of_seven_leaves_a_new_group_of_four_to_score() -> None:
    # §6.1 (rulebook, first picture): H27 "T./P./.." at (2, 0) covers two parks of the 7.
    state = position(garden("PPPPPP", ".P....", "......", temples=((5, 0),)), display=[27])
    state = ENGINE.apply_move(state, 0, place(27, 0, 2, 0))
    assert top(state)[(2, 0)] == "T"
    assert top(state)[(3, 0)] == "."
    assert state.phase == TEMPLE
    # Only the temple-less park group of 4 touches the card: any of its 4 cells.
    assert temple_cells(state) == {(0, 0), (1, 0), (1, 1), (2, 1)}
    assert SKIP in ENGINE.legal_moves(state, 0)
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    assert temples(state) == {(5, 0), (0, 0)}
    # A group of 4 takes from column 1 or 2, and draws no face-down tile.
    assert state.phase == TILE
    assert {(m["column"], m["slot"]) for m in ENGINE.legal_moves(state, 0)} == {
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    }
    assert state.hidden_tiles[0] == ()


def test_breaking_a_group_of_seven_the_other_way_scores_nothing() -> None:
    # §6.2 (rulebook, second picture): H21 "TP" at (3, 0); the terrace joins the temple's
    # terraces, the parks on the right keep their temple, the 3 on the left miss the card.
    state = position(
        garden(" TTT   ", "PPPPPPP", y=-1, temples=((1, -1), (6, 0))),
        display=[21, 1],
    )
    after = ENGINE.apply_move(state, 0, place(21, 0, 3, 0))
    assert top(after)[(3, 0)] == "T"
    assert top(after)[(4, 0)] == "P"
    assert after.phase == PLACE
    assert after.current == 1
    assert temples(after) == {(1, -1), (6, 0)}


def test_a_group_elsewhere_in_the_garden_cannot_be_scored_now() -> None:
    # §6.5 (a): H05 "../../P." at (2, -1) puts a park on (2, 1): the parks of row 1 are
    # eligible, the arcades of row 3 (also 3, but untouched) are not.
    state = position(garden("......", "PP....", "......", "AAA..."), display=[5])
    state = ENGINE.apply_move(state, 0, place(5, 0, 2, -1))
    assert temple_cells(state) == {(0, 1), (1, 1), (2, 1)}
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, temple(0, 3))
    assert caught.value.code == "not_eligible"
    state = ENGINE.apply_move(state, 0, temple(1, 1))
    # A group of 3 takes from column 1 only.
    assert {(m["column"], m["slot"]) for m in ENGINE.legal_moves(state, 0)} == {(1, 1), (1, 2)}
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, take(2, 1))
    assert caught.value.code == "column_not_allowed"


def test_an_arcade_laid_on_an_arcade_makes_the_old_group_eligible() -> None:
    # §6.5 (b), decision §7.4.
    state = position(garden("AAA...", "......"), display=[9])
    state = ENGINE.apply_move(state, 0, place(9, 0, 2, 0))
    assert temple_cells(state) == {(0, 0), (1, 0), (2, 0)}


def test_diagonal_squares_do_not_join_a_group() -> None:
    # §2.5: H24 "P./.A/.." puts a park on (2, 1), touching the parks (0..1, 1) of the
    # garden; the park at (3, 0) is only diagonal to it.
    state = position(garden("...P", "PP..", "...."), display=[24])
    state = ENGINE.apply_move(state, 0, place(24, 0, 2, 1))
    assert state.phase == TEMPLE
    assert temple_cells(state) == {(0, 1), (1, 1), (2, 1)}


def test_two_new_groups_at_once_give_a_choice_of_one() -> None:
    # §7.16: H57 "TT/FF/.." at (0, 0) over a garden with a terrace at (2, 0) and
    # fountains at (2, 1): a terrace group of 3 and a fountain group of 3, both new.
    state = position(garden("..T", "..F", "..."), display=[57])
    state = ENGINE.apply_move(state, 0, place(57, 0, 0, 0))
    assert temple_cells(state) == {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)}
    state = ENGINE.apply_move(state, 0, temple(2, 1))
    state = ENGINE.apply_move(state, 0, take(1, 1))
    # The turn is over: the terraces stay unscored.
    assert state.phase == PLACE
    assert state.current == 1
    assert temples(state) == {(2, 1)}


def test_a_group_holding_a_temple_is_not_scored_again_when_it_grows() -> None:
    # "A player may place only 1 temple per group": parks of 3 with a temple grow to 4.
    # H06 turned half way ("../../P.") at (3, -2) lays its park on (3, 0).
    state = position(garden("PPP.", "....", "....", temples=((0, 0),)), display=[6])
    state = ENGINE.apply_move(state, 0, place(6, 2, 3, -2))
    assert [top(state)[(x, 0)] for x in range(4)] == ["P", "P", "P", "P"]
    assert state.phase == PLACE
    assert state.current == 1


def test_a_group_that_merely_grew_and_has_no_temple_may_be_scored() -> None:
    # §2.6: an unscored group of 3 grows to 4 through the new card.
    state = position(garden("PPP.", "....", "...."), display=[6])
    state = ENGINE.apply_move(state, 0, place(6, 2, 3, -2))
    assert temple_cells(state) == {(0, 0), (1, 0), (2, 0), (3, 0)}


def test_a_group_of_two_is_too_small() -> None:
    state = position(garden("P...", "....", "...."), display=[6])
    state = ENGINE.apply_move(state, 0, place(6, 2, 1, -2))
    assert [top(state)[(x, 0)] for x in range(3)] == ["P", "P", "."]
    assert state.phase == PLACE


def test_skipping_ends_the_turn_without_a_temple_or_tile() -> None:
    # §2.3 step 2 is optional: waiting lets the group grow for a better tile.
    state = position(garden("PPP.", "....", "...."), display=[6, 1])
    state = ENGINE.apply_move(state, 0, place(6, 2, 3, -2))
    state = ENGINE.apply_move(state, 0, SKIP)
    assert state.phase == PLACE
    assert state.current == 1
    assert temples(state) == set()
    assert state.open_tiles[0] == ()
