"""Building terrace tiles (spec §2.4): the board of §6.4 built step by step, its negative
cases, the statue used as a pillar (§6.8), paying with exchanges, and the belvedere."""

from __future__ import annotations

import pytest

from games.engines.babylon import ENGINE
from games.engines.babylon.state import State
from games.engines.base import IllegalMove

from .positions import (
    board,
    building,
    corner_symbols,
    decorate,
    next_tile,
    piece,
    place_move,
    tile,
)

# §6.4 with real tiles whose rotations show the symbols the spec names:
# T1 orange B02 (SBTF, r0): bridge on (1,0), fountain on (0,1).
# T2 pink C07 (SB--, r3 -> B--S): bridge on (3,0), stairs on (3,1).
# T4 white C14 (FT--, r0): fountain on (0,2).
# T3 blue B10 (SFTB, r1 -> BSFT): stairs on (2,1), statue symbol on (1,2).
T1, T2, T3, T4, T5 = "B02", "C07", "B10", "C14", "G05"


def test_the_chosen_rotations_show_the_symbols_of_the_spec() -> None:
    assert corner_symbols(T1, 0) == "SBTF"
    assert corner_symbols(T2, 3) == "B--S"
    assert corner_symbols(T4, 0) == "FT--"
    assert corner_symbols(T3, 1) == "BSFT"


def play(state: State, move: dict) -> State:
    return ENGINE.apply_move(state, 0, move)


def step_1() -> State:
    state = building(board(singles=4), taken=T1, flowers=["white", "orange"])
    return play(state, place_move(0, 0, 1, rotation=0))


def step_2() -> State:
    state = play(next_tile(step_1(), T2, singles=4), place_move(3, 0, 1, rotation=3))
    return play(state, decorate("bridge", (1, 0), (3, 0)))


def step_3(fountain: bool = True) -> State:
    state = play(next_tile(step_2(), T4, singles=4), place_move(0, 2, 1, rotation=0))
    return play(state, decorate("fountain", (0, 1), (0, 2))) if fountain else state


def step_4(singles: int = 2, doubles: int = 1) -> State:
    state = next_tile(step_3(), T3, singles=singles, doubles=doubles)
    state = play(state, place_move(1, 1, 2, rotation=1, open_corner=2))
    state = play(state, decorate("stairs", (2, 1), (3, 1)))
    return play(state, decorate("statue", (1, 2)))


def kinds_at(state: State) -> dict[tuple[int, int, int], str]:
    return {
        tuple(p["at"][0]): p["kind"]
        for p in ENGINE.dump(state)["boards"][0]["pieces"]
        if len(p["at"]) == 1
    }


def test_step_1_four_singles_on_the_board() -> None:
    state = step_1()
    assert state.boards[0].singles == 0
    assert kinds_at(state) == {(x, y, 0): "single" for x, y in [(0, 0), (1, 0), (1, 1), (0, 1)]}
    assert state.boards[0].tiles[0].level == 1
    assert state.supply.singles == 148  # the pool came from a hand-written position


def test_step_2_bridge_over_the_empty_notch_between_t1_and_t2() -> None:
    state = step_2()
    bridges = [p for p in ENGINE.dump(state)["boards"][0]["pieces"] if p["kind"] == "bridge"]
    assert bridges == [{"kind": "bridge", "at": [[1, 0, 1], [3, 0, 1]]}]
    assert state.supply.bridges == 14


def test_step_3_fountain_between_t1_and_t4() -> None:
    state = step_3()
    assert state.supply.fountains == 14


def test_step_4_t3_on_two_singles_a_double_and_a_belvedere() -> None:
    state = step_4()
    placed = kinds_at(state)
    assert placed[(1, 1, 1)] == "single"  # on T1's field
    assert placed[(2, 1, 0)] == "double"  # on the notch
    assert placed[(1, 2, 1)] == "single"  # on T4's field
    assert placed[(2, 2, 2)] == "belvedere"  # on T3's own open corner
    assert placed[(1, 2, 2)] == "statue"
    assert state.boards[0].singles == 0
    assert state.turn.doubles == 0
    assert state.supply.belvederes == 37


def test_step_4_can_be_paid_with_four_singles_by_exchange() -> None:
    state = step_4(singles=4, doubles=0)
    assert state.boards[0].singles == 0
    # Two singles went back to the supply for the double taken from it.
    assert state.supply.singles == 150
    assert state.supply.doubles == 59


def test_step_4_with_three_singles_and_no_double_is_too_poor() -> None:
    state = next_tile(step_3(), T3, singles=3)
    with pytest.raises(IllegalMove) as caught:
        play(state, place_move(1, 1, 2, rotation=1, open_corner=2))
    assert caught.value.code == "not_enough_pillars"
    legal = ENGINE.legal_moves(state, 0)
    assert place_move(1, 1, 2, rotation=1, open_corner=2) not in legal


def rich(state: State) -> State:
    return next_tile(state, T5, singles=6, doubles=3)


@pytest.mark.parametrize(
    ("anchor", "level", "reason"),
    [
        ((1, 1), 3, "same footprint as T3"),
        ((0, 2), 3, "same footprint as T4"),
        ((2, 0), 2, "(2,1) has surface 2; (2,0) is spanned; (3,0) holds a bridge end"),
        ((2, 1), 3, "stairs ends on (2,1) and (3,1)"),
        ((1, 0), 1, "a cell on (1,1) whose surface is 2"),
    ],
)
def test_illegal_placements_on_the_step_4_board(
    anchor: tuple[int, int], level: int, reason: str
) -> None:
    state = rich(step_4())
    before = ENGINE.dump(state)
    legal = ENGINE.legal_moves(state, 0)
    for corner in (None, 0, 1, 2, 3):
        move = place_move(*anchor, level, open_corner=corner)
        assert move not in legal, reason
        with pytest.raises(IllegalMove) as caught:
            play(state, move)
        assert caught.value.code == "cannot_place", reason
    assert ENGINE.dump(state) == before


def test_level_three_needs_a_tile_at_level_two_first() -> None:
    # Before step 4 the board only has level 1: (0,1) could hold a level-2 tile on four
    # singles, and a level-3 tile on four doubles would stand, but the level rule forbids it.
    state = next_tile(step_3(fountain=False), T5, singles=6, doubles=4)
    legal = ENGINE.legal_moves(state, 0)
    assert place_move(0, 1, 2) in legal
    assert place_move(0, 1, 3) not in legal
    with pytest.raises(IllegalMove):
        play(state, place_move(0, 1, 3))


def test_t5_on_one_single_and_three_doubles() -> None:
    state = next_tile(step_4(), T5, singles=1, doubles=3)
    after = play(state, place_move(4, 1, 2))
    placed = kinds_at(after)
    assert placed[(4, 1, 1)] == "single"
    assert all(placed[(x, y, 0)] == "double" for x, y in [(5, 1), (4, 2), (5, 2)])
    assert after.boards[0].singles == 0
    assert after.turn.doubles == 0
    option = {
        "x": 4,
        "y": 1,
        "level": 2,
        "open_corner": None,
        "supports": ["single", "double", "double", "double"],
        "singles": 1,
        "doubles": 3,
        "exchanges": 0,
    }
    assert option in ENGINE.view(state, 0)["legal"]["place"]


def test_t5_by_exchange_needs_seven_singles() -> None:
    poor = next_tile(step_4(), T5, singles=6)
    assert place_move(4, 1, 2) not in ENGINE.legal_moves(poor, 0)
    enough = next_tile(step_4(), T5, singles=7)
    after = play(enough, place_move(4, 1, 2))
    assert after.boards[0].singles == 0
    assert after.supply.doubles == 57


def test_no_belvedere_left_means_no_tile_on_three_pillars() -> None:
    payload = ENGINE.dump(next_tile(step_3(), T3, singles=4))
    payload["supply"]["belvederes"] = 0
    state = ENGINE.load(payload)
    legal = ENGINE.legal_moves(state, 0)
    assert all(m["open_corner"] is None for m in legal if m["type"] == "place")
    with pytest.raises(IllegalMove) as caught:
        play(state, place_move(1, 1, 2, rotation=1, open_corner=2))
    assert caught.value.code == "no_belvedere"


def test_an_open_corner_may_be_chosen_on_a_supportable_corner() -> None:
    state = building(board(singles=3), taken=T1)
    after = play(state, place_move(5, 5, 1, open_corner=0))
    assert kinds_at(after)[(5, 5, 1)] == "belvedere"
    assert after.boards[0].singles == 0


def test_every_rotation_is_allowed() -> None:
    # D26: 270 degrees too; the symbols follow the rotation.
    for rotation in range(4):
        state = play(building(board(singles=4), taken=T3), place_move(2, 2, 1, rotation))
        assert state.boards[0].tiles[0].symbols == corner_symbols(T3, rotation)


def test_the_stored_tile_can_be_built_and_leaves_the_slot() -> None:
    state = building(board(stored="S-white", singles=8), taken=T1)
    after = play(state, place_move(0, 0, 1, which="stored"))
    assert after.boards[0].stored is None
    assert after.boards[0].tiles[0].id == "S-white"
    after = play(after, place_move(4, 4, 1))
    assert [t.id for t in after.boards[0].tiles] == ["S-white", T1]
    assert not [m for m in ENGINE.legal_moves(after, 0) if m["type"] == "place"]
    with pytest.raises(IllegalMove) as caught:
        play(after, place_move(2, 4, 1, which="stored"))
    assert caught.value.code == "tile_unavailable"


# --- §6.8: a statue used as a pillar ---------------------------------------------------


def statue_on_a() -> State:
    """Tile A (B02, r0: statue symbol on (1,1)) at (0,0), level 1, with its statue."""
    state = play(building(board(singles=4), taken="B02"), place_move(0, 0, 1))
    return play(state, decorate("statue", (1, 1)))


def test_a_statue_supports_a_corner_one_level_up() -> None:
    # G05 (BTF-) at r1 shows its statue symbol on corner 2, (2,2).
    state = next_tile(statue_on_a(), "G05", singles=0, doubles=3)
    after = play(state, place_move(1, 1, 2, rotation=1))
    placed = kinds_at(after)
    assert placed[(1, 1, 1)] == "statue_pillar"
    assert all(placed[(x, y, 0)] == "double" for x, y in [(2, 1), (1, 2), (2, 2)])
    assert after.supply.statues == 37  # the statue was never returned
    scores = ENGINE.scores(after)["breakdown"][0]
    assert scores["statues"] == 0
    # The only statue is a pillar now, so the next one may go anywhere.
    assert decorate("statue", (2, 2)) in ENGINE.legal_moves(after, 0)


def test_a_covered_statue_still_anchors_the_line_rule() -> None:
    # D17: with the statue left under the open corner (hidden, not a pillar), a statue on
    # (2,2) is in neither its row nor its column.
    state = next_tile(statue_on_a(), "G05", singles=0, doubles=3)
    after = play(state, place_move(1, 1, 2, rotation=1, open_corner=0))
    assert kinds_at(after)[(1, 1, 1)] == "statue"
    assert decorate("statue", (2, 2)) not in ENGINE.legal_moves(after, 0)
    assert ENGINE.scores(after)["breakdown"][0]["statues"] == 0  # hidden: no points


def test_a_statue_cannot_hold_a_double_gap() -> None:
    # D10: a statue is as tall as a single pillar. Around the statue on (1,1) (level 1)
    # every field is at level 1 and a level-2 tile exists elsewhere: at level 2 the statue
    # holds its corner, at level 3 that corner can only stay open.
    garden = board(
        tiles=[
            tile("B02", 0, 0, 1),
            tile("C08", 2, 1, 1),
            tile("C14", 0, 2, 1),
            tile("C02", 5, 5, 1),
            tile("G05", 4, 4, 2),
        ],
        pieces=[piece("statue", (1, 1, 1))],
        singles=8,
    )
    state = building(garden, taken="B05", doubles=4)
    options = [
        (o["level"], o["open_corner"], o["supports"][0])
        for o in ENGINE.view(state, 0)["legal"]["place"]
        if (o["x"], o["y"]) == (1, 1)
    ]
    assert (2, None, "statue") in options
    assert sorted(o[:2] for o in options if o[0] == 3) == [(3, 0)]
