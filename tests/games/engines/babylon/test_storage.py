"""Store / discard at the end of a turn (spec §2.7, §6.9, D23, D32)."""

from __future__ import annotations

import pytest

from games.engines.babylon import ENGINE
from games.engines.babylon.state import State
from games.engines.base import IllegalMove

from .positions import board, building, place_move


def end(state: State, taken: str | None) -> State:
    return ENGINE.apply_move(state, 0, {"type": "end_turn", "taken": taken})


def test_six_singles_are_kept_the_rest_and_every_double_go_back() -> None:
    # §6.9: 9 singles and 1 double in the pool.
    state = building(board(stored="S-white", singles=9), taken="C01", doubles=1)
    after = end(state, "discard")
    assert after.boards[0].singles == 6
    assert after.supply.singles == 148 + 3
    assert after.supply.doubles == 60 + 1
    assert after.turn.doubles == 0


def test_storing_replaces_the_starting_tile_which_is_discarded() -> None:
    state = building(board(stored="S-white"), taken="C01")
    after = end(state, "store")
    assert after.boards[0].stored == "C01"
    assert after.discarded == ("S-white",)


def test_discarding_keeps_the_stored_tile() -> None:
    state = building(board(stored="S-white"), taken="C01")
    after = end(state, "discard")
    assert after.boards[0].stored == "S-white"
    assert after.discarded == ("C01",)


def test_building_both_tiles_leaves_the_slot_empty() -> None:
    state = building(board(stored="G05", singles=8), taken="C01")
    state = ENGINE.apply_move(state, 0, place_move(0, 0, 1, which="stored"))
    state = ENGINE.apply_move(state, 0, place_move(4, 4, 1))
    assert ENGINE.legal_moves(state, 0)[-1] == {"type": "end_turn", "taken": None}
    after = end(state, None)
    assert after.boards[0].stored is None
    assert after.discarded == ()


def test_a_tile_stored_into_an_empty_slot_after_building_the_stored_one() -> None:
    state = building(board(stored="S-white", singles=4), taken="C01")
    state = ENGINE.apply_move(state, 0, place_move(0, 0, 1, which="stored"))
    after = end(state, "store")
    assert after.boards[0].stored == "C01"
    assert after.discarded == ()


def test_the_end_of_turn_must_say_what_happens_to_an_unbuilt_tile() -> None:
    state = building(board(stored="S-white"), taken="C01")
    ends = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "end_turn"]
    assert ends == [
        {"type": "end_turn", "taken": "store"},
        {"type": "end_turn", "taken": "discard"},
    ]
    with pytest.raises(IllegalMove) as caught:
        end(state, None)
    assert caught.value.code == "store_or_discard"


def test_nothing_to_store_once_the_taken_tile_is_built() -> None:
    state = building(board(singles=4), taken="C01")
    state = ENGINE.apply_move(state, 0, place_move(0, 0, 1))
    with pytest.raises(IllegalMove) as caught:
        end(state, "store")
    assert caught.value.code == "nothing_to_store"


def test_a_tile_stored_this_turn_is_not_built_this_turn() -> None:
    # D32: storing is step C, so the new tile waits for the next turn.
    state = building(board(stored="S-white", singles=4), taken="C01")
    after = end(state, "store")
    assert after.current == 1
    assert ENGINE.legal_moves(after, 0) == []


def test_the_stored_tile_is_never_discarded_alone() -> None:
    # D23: no move discards the stored tile without replacing it.
    state = building(board(stored="S-white", singles=4), taken="C01")
    state = ENGINE.apply_move(state, 0, place_move(0, 0, 1))
    assert [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "end_turn"] == [
        {"type": "end_turn", "taken": None}
    ]
    assert end(state, None).boards[0].stored == "S-white"
