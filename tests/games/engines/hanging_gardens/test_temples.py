"""Temples and point tiles (hanging-gardens.md §2.6-§2.8; §6.4, §6.6, §6.11)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.garden import Garden, relocatable, with_temple
from games.engines.hanging_gardens.grid import pack
from games.engines.hanging_gardens.state import OVER, PLACE, TILE

from .positions import garden, move_temple, place, position, take, temple, temples, top

FOUR_FOUNTAINS = garden("FFFF..", "......")


def test_a_group_of_six_draws_a_face_down_tile_first_then_any_face_up_tile() -> None:
    # §6.4: H20 "FF" at (4, 0) makes a fountain group of 6.
    state = position(FOUR_FOUNTAINS, display=[20], supply=["king", "gate", "tiger"])
    state = ENGINE.apply_move(state, 0, place(20, 0, 4, 0))
    state = ENGINE.apply_move(state, 0, temple(5, 0))
    assert state.hidden_tiles[0] == ("king",)
    assert state.supply == ("gate", "tiger")
    assert state.phase == TILE
    assert len(ENGINE.legal_moves(state, 0)) == 6
    state = ENGINE.apply_move(state, 0, take(3, 2))
    # The chalice of column 3, bottom, and the slot refilled from the supply.
    assert state.open_tiles[0] == ("chalice",)
    assert ENGINE.dump(state)["tile_display"][2] == ["statue", "gate"]
    assert state.supply == ("tiger",)
    assert len(state.open_tiles[0]) + len(state.hidden_tiles[0]) == 2


def test_a_group_of_five_draws_no_face_down_tile_but_may_take_from_any_column() -> None:
    state = position(garden("FFF...", "......"), display=[20])
    state = ENGINE.apply_move(state, 0, place(20, 0, 3, 0))
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    assert state.hidden_tiles[0] == ()
    assert len(ENGINE.legal_moves(state, 0)) == 6


SIX_GROUPS = garden(
    "TTT.FFF",
    ".......",
    "AAAA...",
    ".......",
    "PPPPP..",
    ".......",
    "FFFFFF.",
    ".......",
    ".......",
    temples=((0, 0), (4, 0), (0, 2), (0, 4), (0, 6)),
)


def test_with_all_five_temples_out_one_moves_from_a_smallest_group() -> None:
    # §6.6: H37 "T./TT/.." at (0, 7) makes new terraces {(0,7), (0,8), (1,8)}.
    state = position(SIX_GROUPS, display=[37])
    state = ENGINE.apply_move(state, 0, place(37, 0, 0, 7))
    moves = ENGINE.legal_moves(state, 0)
    sources = {(m["from_x"], m["from_y"]) for m in moves if m["type"] == "move_temple"}
    targets = {(m["x"], m["y"]) for m in moves if m["type"] == "move_temple"}
    assert sources == {(0, 0), (4, 0)}  # both on groups of 3
    assert targets == {(0, 7), (0, 8), (1, 8)}
    assert not [m for m in moves if m["type"] == "place_temple"]
    for source in [(0, 2), (0, 4), (0, 6)]:
        with pytest.raises(IllegalMove) as caught:
            ENGINE.apply_move(state, 0, move_temple(1, 8, *source))
        assert caught.value.code == "not_smallest"
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, temple(1, 8))
    assert caught.value.code == "no_temple_left"
    moved = ENGINE.apply_move(state, 0, move_temple(1, 8, 0, 0))
    assert temples(moved) == {(1, 8), (4, 0), (0, 2), (0, 4), (0, 6)}
    assert {(m["column"], m["slot"]) for m in ENGINE.legal_moves(moved, 0)} == {(1, 1), (1, 2)}


def test_a_group_whose_temple_moved_away_may_be_scored_again() -> None:
    # §6.6 continued: the terraces (0..2, 0) lost their temple. H01 "T./../.." laid at
    # (2, 0) puts a terrace on the terrace (2, 0) (and building spaces over two arcades).
    relocated = garden(
        "TTT.FFF",
        ".......",
        "AAAA...",
        ".......",
        "PPPPP..",
        ".......",
        "FFFFFF.",
        "T......",
        "TT.....",
        temples=((1, 8), (4, 0), (0, 2), (0, 4), (0, 6)),
    )
    state = position(relocated, display=[1])
    state = ENGINE.apply_move(state, 0, place(1, 0, 2, 0))
    assert top(state)[(2, 2)] == "."
    targets = {
        (m["x"], m["y"]) for m in ENGINE.legal_moves(state, 0) if m["type"] != "skip_scoring"
    }
    assert targets == {(0, 0), (1, 0), (2, 0)}


def test_a_shrunken_group_counts_with_its_size_now_for_relocation() -> None:
    # §7.5, §7.6: the arcades under (0, 2) were 4; this card leaves 2 of them, so that
    # temple becomes the only one on a smallest group.
    state = position(SIX_GROUPS, display=[19])
    # H19 "../F./F." at (2, 1): fountains on (2, 2) and (2, 3), building spaces on
    # (3, 2) and (3, 3); arcades left: (0, 2), (1, 2). No fountain group of 3 touches it.
    state = ENGINE.apply_move(state, 0, place(19, 0, 2, 1))
    assert state.phase == PLACE
    # Next own turn: a new terrace group of 3 with H37 at (0, 7).
    state = ENGINE.load({**ENGINE.dump(state), "turn": 0, "display": [37]})
    state = ENGINE.apply_move(state, 0, place(37, 0, 0, 7))
    sources = {(m["from_x"], m["from_y"]) for m in ENGINE.legal_moves(state, 0) if "from_x" in m}
    assert sources == {(0, 2)}


def test_column_one_empty_and_no_supply_a_group_of_three_gets_five_points() -> None:
    # §6.11, ASSUMPTION §7.9.
    display = [[None, None], ["tiger", "garden"], ["statue", "chalice"]]
    state = position(
        garden("......", "PP....", "......"), display=[5], tile_display=display, supply=[]
    )
    state = ENGINE.apply_move(state, 0, place(5, 0, 2, -1))
    state = ENGINE.apply_move(state, 0, temple(0, 1))
    assert state.missing[0] == 1
    assert state.open_tiles[0] == ()
    assert state.phase == PLACE and state.current == 1
    assert ENGINE.scores(state)["breakdown"][0]["missing"] == 5


def test_column_one_empty_a_group_of_four_takes_from_column_two() -> None:
    display = [[None, None], ["tiger", "garden"], ["statue", "chalice"]]
    state = position(
        garden("......", "PPP...", "......"), display=[5], tile_display=display, supply=[]
    )
    state = ENGINE.apply_move(state, 0, place(5, 0, 3, -1))
    state = ENGINE.apply_move(state, 0, temple(0, 1))
    assert {(m["column"], m["slot"]) for m in ENGINE.legal_moves(state, 0)} == {(2, 1), (2, 2)}
    state = ENGINE.apply_move(state, 0, take(2, 1))
    assert state.open_tiles[0] == ("tiger",)
    # Nothing left to refill the slot with.
    assert ENGINE.dump(state)["tile_display"][1] == [None, "garden"]
    assert state.missing[0] == 0


def test_a_group_of_six_with_no_supply_left_gets_five_points_and_a_face_up_tile() -> None:
    # §2.7 step 4: the face-down tile is missing, the face-up one is there.
    state = position(FOUR_FOUNTAINS, display=[20], supply=[])
    state = ENGINE.apply_move(state, 0, place(20, 0, 4, 0))
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    assert state.missing[0] == 1
    assert state.phase == TILE
    state = ENGINE.apply_move(state, 0, take(1, 1))
    assert state.open_tiles[0] == ("queen",)


def test_an_empty_slot_cannot_be_taken() -> None:
    display = [["queen", None], ["tiger", "garden"], ["statue", "chalice"]]
    state = position(garden("FFF...", "......"), display=[20], tile_display=display)
    state = ENGINE.apply_move(state, 0, place(20, 0, 3, 0))
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, take(1, 2))
    assert caught.value.code == "empty_slot"
    assert len(ENGINE.legal_moves(state, 0)) == 5


def test_the_supply_running_out_ends_the_game_after_that_round() -> None:
    # §2.10, §6.11: seat 0 takes the last face-down tile as a refill in turn 3 of 4
    # (two players); seat 1 still plays turn 4, then the game is over with cards left.
    state = position(
        garden("FFF...", "......"), display=[20, 1], supply=["gate"], turn=2, deck=[2, 3, 4, 5]
    )
    state = ENGINE.apply_move(state, 0, place(20, 0, 3, 0))
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    state = ENGINE.apply_move(state, 0, take(1, 1))
    assert state.supply == ()
    assert state.phase == PLACE and state.current == 1
    state = ENGINE.apply_move(state, 1, place(1, 2, -1, -2))
    assert state.phase == OVER
    assert state.deck == (2, 3, 4, 5)
    assert ENGINE.to_move(state) == []


def test_temples_per_player_are_five() -> None:
    # §2.1 step 3, §7.13: with 5 placed, a sixth must be a moved one.
    state = ENGINE.new_game(4, seed=1)
    assert all(g.temples_left == 5 for g in state.gardens)
    assert ENGINE.view(state, 0)["gardens"][3]["temples_left"] == 5


def test_the_temple_stays_put_and_blocks_cards() -> None:
    state = position(garden("FFF...", "......"), display=[20, 1])
    state = ENGINE.apply_move(state, 0, place(20, 0, 3, 0))
    state = ENGINE.apply_move(state, 0, temple(4, 0))
    state = ENGINE.apply_move(state, 0, take(1, 1))
    assert temples(state) == {(4, 0)}
    assert state.phase == PLACE


def test_the_temples_that_may_move_are_those_of_the_garden_asked_about() -> None:
    # The answer is kept with the garden; a garden of the same squares whose temple moved
    # (it shares the squares' facts) must get its own: the terraces' temple moved onto the
    # arcades leaves the fountains of (4, 0) as the only smallest group.
    six = Garden.from_json(SIX_GROUPS)
    assert relocatable(six) == [pack(0, 0), pack(4, 0)]
    moved = with_temple(six, pack(1, 2), moved_from=pack(0, 0))
    assert relocatable(moved) == [pack(4, 0)]
    assert relocatable(six) == [pack(0, 0), pack(4, 0)]
