"""Taking and placing tiles: akropolis.md §2.3-§2.5 and the cases R1, R2, R5, F7, F8, P1-P8."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.engines.akropolis import ENGINE
from games.engines.akropolis.state import State
from games.engines.base import IllegalMove

from .positions import place, solo_game, visible


def take(state: State, seat: int, index: int) -> State:
    return ENGINE.apply_move(state, seat, {"type": "take_tile", "index": index})


def placement(q: int, r: int, k: int) -> dict[str, Any]:
    return {"type": "place_tile", "q": q, "r": r, "rotation": k}


def test_r1_taking_the_fourth_tile_costs_three_stones() -> None:
    state = replace(ENGINE.new_game(4, seed=1), current=3, chief=3)  # seat 4 holds 4 stones
    chosen = state.site[3]
    after = take(state, 3, 3)
    assert after.stones[3] == 4 - 3
    assert after.taken == chosen
    assert take(state, 3, 0).stones[3] == 4


def test_r5_a_player_without_stones_can_only_take_the_first_tile() -> None:
    state = replace(ENGINE.new_game(2, seed=1), stones=(0, 2))
    assert ENGINE.legal_moves(state, 0) == [{"type": "take_tile", "index": 0}]
    with pytest.raises(IllegalMove) as caught:
        take(state, 0, 1)
    assert caught.value.code == "not_enough_stones"


def test_f7_the_site_closes_up_after_a_tile_is_taken() -> None:
    state = replace(ENGINE.new_game(3, seed=4), stones=(2, 2, 3))
    x0, x1, x2, x3, x4 = state.site
    after = take(state, 0, 2)
    assert after.stones[0] == 0
    assert after.taken == x2
    assert after.site == (x0, x1, x3, x4)
    shown = ENGINE.view(after, None)["site"][2]
    assert (shown["tile"], shown["cost"]) == (x3, 2)


def test_f8_three_stones_and_six_tiles_allow_indices_zero_to_three() -> None:
    state = replace(ENGINE.new_game(4, seed=2), stones=(3, 2, 3, 4))
    indices = [m["index"] for m in ENGINE.legal_moves(state, 0)]
    assert indices == [0, 1, 2, 3]
    assert ENGINE.view(state, 0)["legal"]["take"] == [0, 1, 2, 3]


def test_take_then_place_is_one_turn_and_the_next_seat_moves() -> None:
    state = ENGINE.new_game(2, seed=6)
    after_take = take(state, 0, 0)
    assert ENGINE.to_move(after_take) == [0]
    assert all(m["type"] == "place_tile" for m in ENGINE.legal_moves(after_take, 0))
    after_place = ENGINE.apply_move(after_take, 0, ENGINE.legal_moves(after_take, 0)[0])
    assert ENGINE.to_move(after_place) == [1]
    assert after_place.turns_played == 1


# --- akropolis.md §6.3: placement on a small city ------------------------------------


@pytest.fixture
def base_city() -> State:
    """Start tile plus tile 22 (qqM) at anchor (1,-1), k = 4."""
    return place(solo_game(stones=0), 22, 1, -1, 4)


def test_base_city_has_tile_22_where_the_spec_says(base_city: State) -> None:
    seen = visible(base_city)
    assert seen[(1, -1)] == ("q", 1)
    assert seen[(1, -2)] == ("q", 1)
    assert seen[(2, -2)] == ("M", 1)


def test_p1_covering_three_quarries_gains_three_stones(base_city: State) -> None:
    after = place(base_city, 1, 0, -1, 5)
    assert after.stones[0] == 3
    seen = visible(after)
    assert seen[(0, -1)] == ("b", 2)
    assert seen[(1, -2)] == ("t", 2)
    assert seen[(1, -1)] == ("h", 2)


def test_p2_covering_two_quarries_gains_two_stones_and_hides_the_house_plaza(
    base_city: State,
) -> None:
    # R2 as well: a tile laid on level 2 over two quarries gives two stones at once.
    assert ENGINE.scores(base_city)["breakdown"][0]["house"] == 0  # no house hex yet
    after = place(base_city, 1, 0, -1, 0)
    assert after.stones[0] == 2
    seen = visible(after)
    assert seen[(0, 0)] == ("h", 2)
    assert "H" not in {code for code, _ in seen.values()}
    # House stars dropped to 0: the visible house at level 2 scores nothing.
    assert ENGINE.scores(after)["breakdown"][0]["house"] == 0


def test_r2_a_tile_on_level_2_over_two_quarries_gains_two_stones_at_once() -> None:
    # §6.1 R2, on the §6.3 base city of seat 0 in a two-player game: seat 0 takes tile 1
    # (bth, free at index 0) and lays it at (0,-1), k = 0 over (0,-1), (1,-1), (0,0),
    # heights 1, 1, 1: level 2, covering the quarries (0,-1) and (1,-1) and the plaza.
    start = [
        {"q": 0, "r": 0, "stack": [["H", 0]]},
        {"q": 0, "r": -1, "stack": [["q", 0]]},
        {"q": 1, "r": 0, "stack": [["q", 0]]},
        {"q": -1, "r": 1, "stack": [["q", 0]]},
    ]
    tile_22 = [
        {"q": 1, "r": -1, "stack": [["q", 22]]},
        {"q": 1, "r": -2, "stack": [["q", 22]]},
        {"q": 2, "r": -2, "stack": [["M", 22]]},
    ]
    state = ENGINE.load(
        {
            "players": 2,
            "stones": [1, 2],
            "cities": [start + tile_22, start],
            "site": [1, 5, 7, 9],
            "stacks": [[10, 11, 12]],
        }
    )
    taken = take(state, 0, 0)
    assert taken.stones == (1, 2)  # index 0 is free and nothing is gained yet
    after = ENGINE.apply_move(taken, 0, placement(0, -1, 0))
    # One move later: +2 for seat 0, and it is already seat 1's turn.
    assert after.stones == (1 + 2, 2)
    assert visible(after)[(0, -1)] == ("b", 2)
    assert ENGINE.to_move(after) == [1]
    assert ENGINE.view(after, 1)["stones"] == [3, 2]


@pytest.mark.parametrize(
    ("anchor", "k", "code"),
    [
        ((1, -1), 4, "single_tile_support"),  # P3: all three hexes of tile 22
        ((0, -1), 4, "unsupported"),  # P4: overhangs an empty position
        ((0, 1), 3, "unsupported"),  # P5: partly on the table, partly on the city
        ((3, -1), 0, "not_touching"),  # P6: no edge contact with the city
    ],
)
def test_p3_to_p6_illegal_placements(
    base_city: State, anchor: tuple[int, int], k: int, code: str
) -> None:
    ready = replace(base_city, phase="place", taken=1)
    before = ENGINE.dump(ready)
    move = placement(*anchor, k)
    assert move not in ENGINE.legal_moves(ready, 0)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(ready, 0, move)
    assert caught.value.code == code
    assert str(caught.value)
    assert ENGINE.dump(ready) == before


@pytest.mark.parametrize(
    ("anchor", "k", "targets"),
    [
        ((0, 1), 0, [(0, 1), (1, 1), (0, 2)]),  # P7
        ((2, -1), 0, [(2, -1), (3, -1), (2, 0)]),  # P8
    ],
)
def test_p7_p8_legal_placements_on_the_table(
    base_city: State, anchor: tuple[int, int], k: int, targets: list[tuple[int, int]]
) -> None:
    ready = replace(base_city, phase="place", taken=1)
    assert placement(*anchor, k) in ENGINE.legal_moves(ready, 0)
    after = place(base_city, 1, *anchor, k)
    seen = visible(after)
    assert [seen[t] for t in targets] == [("b", 1), ("t", 1), ("h", 1)]
    assert after.stones[0] == 0


def test_p1_and_p2_are_among_the_legal_moves(base_city: State) -> None:
    ready = replace(base_city, phase="place", taken=1)
    legal = ENGINE.legal_moves(ready, 0)
    assert placement(0, -1, 5) in legal
    assert placement(0, -1, 0) in legal


def test_a_tile_cannot_rest_on_mixed_levels() -> None:
    # §6.3: in the city of §6.4, positions (1,-1), (2,-2), (2,-1) have heights 2, 1, 2.
    state = solo_game()
    for tile, q, r, k in [
        (15, 1, 1, 1),
        (3, -1, 2, 1),
        (24, 2, -1, 3),
        (21, -1, 0, 2),
        (34, -1, -1, 4),
        (19, 2, -1, 2),
    ]:
        state = place(state, tile, q, r, k)
    ready = replace(state, phase="place", taken=26)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(ready, 0, placement(1, -1, 5))
    assert caught.value.code == "mixed_heights"


def test_quarry_stones_arrive_after_paying() -> None:
    # A10: a player with 0 stones cannot pay for a tile with the stones it will produce.
    state = replace(ENGINE.new_game(2, seed=1), stones=(0, 2))
    assert [m["index"] for m in ENGINE.legal_moves(state, 0)] == [0]


# --- malformed and out-of-turn input -------------------------------------------------

BAD_TAKES: list[tuple[Any, str]] = [
    ({"type": "take_tile", "index": 4}, "no_such_tile"),
    ({"type": "take_tile", "index": -1}, "no_such_tile"),
    ({"type": "take_tile", "index": "1"}, "bad_move"),
    ({"type": "take_tile", "index": 1.0}, "bad_move"),
    ({"type": "take_tile", "index": None}, "bad_move"),
    ({"type": "take_tile", "index": False}, "bad_move"),
    ({"type": "take_tile"}, "bad_move"),
    ({"type": "take_tile", "index": 0, "tile": 3}, "bad_move"),
    ({"type": "take"}, "bad_move"),
    ({"index": 0}, "bad_move"),
    ("take_tile", "bad_move"),
    (None, "bad_move"),
    ({"type": "place_tile", "q": 1, "r": 1, "rotation": 0}, "wrong_phase"),
]


@pytest.mark.parametrize(("move", "code"), BAD_TAKES, ids=repr)
def test_bad_input_in_the_take_phase(move: Any, code: str) -> None:
    state = ENGINE.new_game(2, seed=1)
    before = ENGINE.dump(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, move)
    assert caught.value.code == code
    assert ENGINE.dump(state) == before


BAD_PLACES: list[tuple[Any, str]] = [
    ({"type": "take_tile", "index": 0}, "wrong_phase"),
    ({"type": "place_tile", "q": 0, "r": 1, "rotation": 6}, "bad_move"),
    ({"type": "place_tile", "q": 0, "r": 1, "rotation": -1}, "bad_move"),
    ({"type": "place_tile", "q": 0, "r": 1}, "bad_move"),
    ({"type": "place_tile", "q": "0", "r": 1, "rotation": 0}, "bad_move"),
    ({"type": "place_tile", "q": 10**40, "r": 1, "rotation": 0}, "not_touching"),
    ({"type": "place_tile", "q": 1023, "r": -1024, "rotation": 0}, "not_touching"),
    ({"type": "place_tile", "q": 0, "r": 0, "rotation": 0}, "unsupported"),
]


@pytest.mark.parametrize(("move", "code"), BAD_PLACES, ids=repr)
def test_bad_input_in_the_place_phase(move: Any, code: str) -> None:
    state = take(ENGINE.new_game(2, seed=1), 0, 0)
    before = ENGINE.dump(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, move)
    assert caught.value.code == code
    assert ENGINE.dump(state) == before


@pytest.mark.parametrize("seat", [1, 2, -1, None, "0"])
def test_only_the_current_seat_may_move(seat: Any) -> None:
    state = ENGINE.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, seat, {"type": "take_tile", "index": 0})
    assert caught.value.code == "not_your_turn"
    assert ENGINE.legal_moves(state, 1) == []


def test_no_move_is_accepted_after_the_end() -> None:
    state = ENGINE.load(
        {"players": 2, "stones": [0, 0], "cities": [[], []], "site": [5], "phase": "over"}
    )
    assert ENGINE.is_over(state)
    assert ENGINE.to_move(state) == []
    assert ENGINE.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 0, {"type": "take_tile", "index": 0})
    assert caught.value.code == "game_over"


def test_the_last_tile_of_the_last_round_ends_the_game() -> None:
    state = ENGINE.load(
        {
            "players": 2,
            "stones": [1, 1],
            "cities": [
                [{"q": 0, "r": 0, "stack": [["H", 0]]}],
                [{"q": 0, "r": 0, "stack": [["H", 0]]}],
            ],
            "site": [7, 8],
            "chief": 1,
            "current": 1,
            "round": 12,
            "turns_played": 35,
        }
    )
    taken = take(state, 1, 0)
    after = ENGINE.apply_move(taken, 1, placement(1, 0, 0))
    assert ENGINE.is_over(after)
    assert after.site == (8,)
    assert after.turns_played == 36
