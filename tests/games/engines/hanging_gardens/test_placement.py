"""Where a card may go (hanging-gardens.md §2.4, worked example §6.3) and discarding (§2.9)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.state import PLACE

from .positions import START, garden, place, position, top

# §6.1 / §6.3: a park group of 7 with a temple on (5, 0).
PARKS_OF_SEVEN = garden("PPPPPP", ".P....", "......", temples=((5, 0),))


@pytest.mark.parametrize(
    ("card", "rotation", "x", "y", "code"),
    [
        (27, 0, 4, 0, "covers_temple"),  # would cover the temple cell (5, 0)
        (3, 0, 0, 1, "motif_on_table"),  # the terrace would land on (0, 3), unoccupied
        (1, 0, 0, 3, "motif_on_table"),  # a terrace on the table
    ],
)
def test_illegal_placements_of_section_6_3(
    card: int, rotation: int, x: int, y: int, code: str
) -> None:
    state = position(PARKS_OF_SEVEN, display=[card])
    before = ENGINE.dump(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, place(card, rotation, x, y))
    assert caught.value.code == code
    assert ENGINE.dump(state) == before
    assert place(card, rotation, x, y) not in ENGINE.legal_moves(state, 0)


def test_turned_card_puts_its_terrace_on_the_garden_and_the_rest_on_the_table() -> None:
    # §6.3: H01 at rotation 2 (rows "..", "..", ".T") at (-1, -2): the terrace lands on
    # (0, 0), the five building spaces on the table.
    state = position(PARKS_OF_SEVEN, display=[1])
    move = place(1, 2, -1, -2)
    assert move in ENGINE.legal_moves(state, 0)
    after = top(ENGINE.apply_move(state, 0, move))
    assert after[(0, 0)] == "T"
    for cell in [(-1, -2), (0, -2), (-1, -1), (0, -1), (-1, 0)]:
        assert after[cell] == "."


def test_building_spaces_may_cover_motifs_and_motifs_may_cover_other_motifs() -> None:
    # §2.4 rules 1-2: H21 "TP" over two parks, its four building spaces over parks and
    # building spaces.
    state = position(garden("PP", "PP", ".."), display=[21])
    after = top(ENGINE.apply_move(state, 0, place(21, 0, 0, 0)))
    assert after[(0, 0)] == "T"
    assert after[(1, 0)] == "P"
    assert after[(0, 1)] == after[(1, 1)] == "."


def test_cards_are_never_mirrored_only_turned() -> None:
    # H13 "T./T./.." has its terraces in the left column. Over a garden that occupies only
    # the column x = 1, its mirror image would fit at (0, 0); H13 itself does not.
    state = position(garden(" .", " .", " ."), display=[13])
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, place(13, 0, 0, 0))
    assert caught.value.code == "motif_on_table"
    # Turned half way (rows "..", ".T", ".T") its terraces are in the right column.
    assert place(13, 2, 0, 0) in ENGINE.legal_moves(state, 0)
    assert place(13, 2, 0, -1) in ENGINE.legal_moves(state, 0)


def test_first_card_of_the_game_has_its_motifs_on_the_start_card() -> None:
    # [S13]: the start card is six building spaces; a motif must land on it.
    state = position(START, display=[38])
    moves = ENGINE.legal_moves(state, 0)
    assert moves
    for move in moves:
        after = top(ENGINE.apply_move(state, 0, move))
        motifs = [cell for cell, square in after.items() if square == "P"]
        assert all(0 <= x <= 1 and 0 <= y <= 2 for x, y in motifs)


def test_h38_on_the_start_card_fits_exactly_these_ways() -> None:
    # H38 ".P/.P/.P" (three parks in a column). Upright or half turned (parks in the
    # left column) the column of parks must be x = 0 or x = 1 with y = 0: 2 + 2 ways.
    # Turned a quarter (3 wide, 2 tall) the parks form a row of 3, which the 2-wide start
    # card cannot hold: no way.
    state = position(START, display=[38])
    found = {(m["rotation"], m["x"], m["y"]) for m in ENGINE.legal_moves(state, 0)}
    assert found == {(0, -1, 0), (0, 0, 0), (2, 0, 0), (2, 1, 0)}


def test_no_card_fits_so_the_player_discards_one_of_their_choice() -> None:
    # §2.9: a garden of one row of three arcades, the middle one under a temple. H16, H17
    # and H19 each have two motifs side by side (or, turned, one above the other): no two
    # cells lie one above the other, and every two side by side include the temple's cell.
    state = position(garden("AAA", temples=((1, 0),)), display=[16, 17, 19])
    assert ENGINE.legal_moves(state, 0) == [
        {"type": "discard_card", "card": 16},
        {"type": "discard_card", "card": 17},
        {"type": "discard_card", "card": 19},
    ]
    after = ENGINE.apply_move(state, 0, {"type": "discard_card", "card": 17})
    assert after.display == (16, 19)
    assert top(after) == top(state)
    assert after.current == 1 and after.phase == PLACE
    assert ENGINE.dump(after)["last"]["discarded"] is True


def test_discarding_is_not_allowed_while_a_card_fits() -> None:
    state = position(START, display=[1, 2])
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, {"type": "discard_card", "card": 1})
    assert caught.value.code == "must_place"


def test_only_a_card_of_the_display_may_be_placed() -> None:
    state = position(START, display=[1, 2])
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, place(3, 0, 0, 0))
    assert caught.value.code == "no_such_card"


def test_placing_a_card_takes_it_out_of_the_display() -> None:
    state = position(START, display=[1, 2, 3, 4])
    after = ENGINE.apply_move(state, 0, place(2, 0, 0, 0))
    assert after.display == (1, 3, 4)
    assert after.current == 1
