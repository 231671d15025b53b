"""Decorations (spec §2.5) and the symbol effects (§2.8, D20): the statue example of the
rulebook (§6.7), and the rules of stairs, fountains and bridges."""

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
    rotation_with,
    same_turn_tile,
    tile,
)


def play(state: State, move: dict) -> State:
    return ENGINE.apply_move(state, 0, move)


def decorations_offered(state: State) -> list[dict]:
    return [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "decorate"]


def refused(state: State, move: dict, code: str = "cannot_decorate") -> None:
    assert move not in ENGINE.legal_moves(state, 0)
    before = ENGINE.dump(state)
    with pytest.raises(IllegalMove) as caught:
        play(state, move)
    assert caught.value.code == code
    assert ENGINE.dump(state) == before


# --- §6.7: the statue line rule ---------------------------------------------------------
# The spec puts tile E at anchor (7,2) with its statue symbol at (8,3), off the 8x8 board
# (anchors run 0..6). The same example one row lower keeps every relation: E at (6,3)
# with its statue at (7,4), C at (1,3) with its statue at (1,4).
A, B, E, C = "C02", "C06", "C15", "C11"


def turn_one() -> State:
    state = building(board(singles=12), taken=A)
    state = play(state, place_move(0, 0, 1, rotation_with(A, "T", 2)))  # statue (1,1)
    state = same_turn_tile(state, B)
    state = play(state, place_move(5, 1, 1, rotation_with(B, "T", 0)))  # statue (5,1)
    state = same_turn_tile(state, E)
    return play(state, place_move(6, 3, 1, rotation_with(E, "T", 2)))  # statue (7,4)


def test_statue_example_turn_one() -> None:
    state = turn_one()
    assert len(state.turn.placed) == 3
    # 1. The first statue may go on any statue symbol.
    for cell in [(1, 1), (5, 1), (7, 4)]:
        assert decorate("statue", cell) in decorations_offered(state)
    state = play(state, decorate("statue", (1, 1)))
    # 2. The second in line with the first (row 1).
    state = play(state, decorate("statue", (5, 1)))
    # 3. (7,4) shares no row or column with a statue.
    refused(state, decorate("statue", (7, 4)))


def test_statue_example_turn_two() -> None:
    state = play(play(turn_one(), decorate("statue", (1, 1))), decorate("statue", (5, 1)))
    state = next_tile(state, C, singles=4)
    state = play(state, place_move(1, 3, 1, rotation_with(C, "T", 3)))  # statue (1,4)
    # 4. In column 1 with the first statue.
    state = play(state, decorate("statue", (1, 4)))
    # 5. (7,4) is now in row 4 with the new statue, but tile E is from an earlier turn.
    refused(state, decorate("statue", (7, 4)))
    assert ENGINE.scores(state)["breakdown"][0]["statues"] == 3


# --- Stairs, fountains, bridges -----------------------------------------------------------


def garden_with(*tiles: dict, pieces: list[dict] | None = None, singles: int = 0) -> dict:
    return board(tiles=list(tiles), pieces=pieces or [], singles=singles)


def test_stairs_join_fields_exactly_one_level_apart() -> None:
    low = tile("C01", 0, 0, 1, symbols="-S--")  # stairs on (1,0), level 1
    for level, expected in [(2, True), (3, False), (1, False)]:
        high = tile("C09", 2, 0, level, symbols="S---")  # stairs on (2,0)
        state = building(garden_with(low, high), taken=None, placed=[1], taken_placed=True)
        move = decorate("stairs", (1, 0), (2, 0))
        assert (move in decorations_offered(state)) is expected, level
    state = play(
        building(
            garden_with(low, tile("C09", 2, 0, 2, symbols="S---")),
            taken=None,
            placed=[1],
            taken_placed=True,
        ),
        decorate("stairs", (1, 0), (2, 0)),
    )
    assert ENGINE.scores(state)["breakdown"][0]["stairs"] == 3


def test_a_decoration_needs_a_tile_placed_this_turn() -> None:
    garden = garden_with(tile("C01", 0, 0, 1, symbols="-S--"), tile("C09", 2, 0, 2, symbols="S---"))
    state = building(garden, taken="C03", placed=[])
    assert decorations_offered(state) == []
    refused(state, decorate("stairs", (1, 0), (2, 0)))


def test_fields_must_be_empty_and_visible() -> None:
    low = tile("C01", 0, 1, 1, symbols="-S--")  # stairs on (1,1), level 1
    high = tile("C09", 2, 1, 2, symbols="S---")  # stairs on (2,1), level 2
    state = building(garden_with(low, high), taken=None, placed=[1], taken_placed=True)
    assert decorate("stairs", (1, 1), (2, 1)) in decorations_offered(state)
    # A belvedere already stands on (1,1).
    taken = garden_with(low, high, pieces=[piece("belvedere", (1, 1, 1))])
    state = building(taken, taken=None, placed=[1], taken_placed=True)
    refused(state, decorate("stairs", (1, 1), (2, 1)))
    # (1,1) hidden under a level-2 tile that shows no stairs there.
    cover = tile("C05", 0, 0, 2, symbols="----")
    state = building(garden_with(low, high, cover), taken=None, placed=[1], taken_placed=True)
    refused(state, decorate("stairs", (1, 1), (2, 1)))


def test_fountains_join_two_tiles_at_one_level() -> None:
    left = tile("C01", 0, 0, 1, symbols="-F--")  # fountain on (1,0)
    right = tile("C09", 2, 0, 1, symbols="F---")  # fountain on (2,0)
    state = building(garden_with(left, right), taken=None, placed=[1], taken_placed=True)
    state = play(state, decorate("fountain", (1, 0), (2, 0)))
    assert ENGINE.scores(state)["breakdown"][0]["fountains"] == 3
    higher = tile("C09", 2, 0, 2, symbols="F---")
    state = building(garden_with(left, higher), taken=None, placed=[1], taken_placed=True)
    refused(state, decorate("fountain", (1, 0), (2, 0)))


def test_a_fountain_never_lies_on_one_tile() -> None:
    # D14: two fountain symbols side by side on one tile (a round effect made the second).
    garden = garden_with(tile("C09", 3, 3, 1, symbols="FF--"))
    state = building(garden, taken=None, placed=[0], taken_placed=True)
    refused(state, decorate("fountain", (3, 3), (4, 3)))


def bridge_garden(middle_level: int | None) -> dict:
    """Bridge symbols on (2,3) and (4,3) at level 2; the middle cell (3,3) lies under a
    tile at `middle_level` (or is a bare notch). A tile covering (3,3) also covers (2,3)
    or (4,3), so the lower tile sits under the west end's tile."""
    tiles = [
        tile("C02", 1, 3, 2, symbols="-B--"),  # (2,3) bridge, level 2
        tile("C06", 4, 3, 2, symbols="B---"),  # (4,3) bridge, level 2
    ]
    if middle_level is not None:
        tiles.insert(0, tile("C10", 2, 2, middle_level, symbols="----"))
    return garden_with(*tiles)


def test_a_bridge_may_span_a_lower_tile() -> None:
    # D15: only level L and above must be free at the middle cell.
    for middle in (None, 1):
        garden = bridge_garden(middle)
        placed = [len(garden["tiles"]) - 1]
        state = building(garden, taken=None, placed=placed, taken_placed=True)
        state = play(state, decorate("bridge", (2, 3), (4, 3)))
        assert ENGINE.scores(state)["breakdown"][0]["bridges"] == 6


def test_a_bridge_needs_its_middle_free_at_its_level() -> None:
    # The west end's own tile covers the middle cell at the bridge's level.
    garden = garden_with(
        tile("C02", 2, 2, 1, symbols="---B"),  # (2,3) bridge, and (3,3) at level 1
        tile("C06", 4, 3, 1, symbols="B---"),
    )
    state = building(garden, taken=None, placed=[1], taken_placed=True)
    refused(state, decorate("bridge", (2, 3), (4, 3)))


def test_a_bridge_needs_both_ends_at_one_level() -> None:
    garden = garden_with(tile("C02", 1, 3, 1, symbols="-B--"), tile("C06", 4, 3, 2, symbols="B---"))
    state = building(garden, taken=None, placed=[1], taken_placed=True)
    refused(state, decorate("bridge", (2, 3), (4, 3)))


def test_no_two_bridges_span_one_cell() -> None:
    # D16: a level-1 bridge already spans (3,3); a level-2 bridge across it is refused.
    tiles = [
        tile("C02", 1, 3, 1, symbols="-B--"),  # (2,3)
        tile("C06", 4, 3, 1, symbols="B---"),  # (4,3)
        tile("C10", 3, 1, 2, symbols="---B"),  # (3,2), level 2
        tile("C12", 3, 4, 2, symbols="B---"),  # (3,4), level 2
    ]
    crossing = piece("bridge", (2, 3, 1), (4, 3, 1))
    state = building(
        garden_with(*tiles, pieces=[crossing]), taken=None, placed=[3], taken_placed=True
    )
    refused(state, decorate("bridge", (3, 2), (3, 4)))
    free = building(garden_with(*tiles), taken=None, placed=[3], taken_placed=True)
    assert decorate("bridge", (3, 2), (3, 4)) in decorations_offered(free)


def test_an_empty_supply_offers_no_decoration() -> None:
    garden = garden_with(tile("C01", 0, 0, 1, symbols="-F--"), tile("C09", 2, 0, 1, symbols="F---"))
    payload = ENGINE.dump(building(garden, taken=None, placed=[1], taken_placed=True))
    payload["supply"]["fountains"] = 0
    state = ENGINE.load(payload)
    refused(state, decorate("fountain", (1, 0), (2, 0)))


def test_a_far_end_off_the_board_or_a_statue_with_a_direction_is_refused() -> None:
    garden = garden_with(tile("C01", 5, 0, 1, symbols="-F--"), tile("C09", 6, 2, 1))
    state = building(garden, taken=None, placed=[1], taken_placed=True)
    off = {"type": "decorate", "kind": "fountain", "x": 7, "y": 0, "toward": "east"}
    refused(state, off)
    statue = {"type": "decorate", "kind": "statue", "x": 6, "y": 0, "toward": "east"}
    refused(state, statue, code="bad_move")
    stairs = {"type": "decorate", "kind": "stairs", "x": 6, "y": 0, "toward": None}
    refused(state, stairs, code="bad_move")


# --- Round effects that change symbols (§2.8, D20) -----------------------------------------


def test_change_symbol_once_on_a_tile_placed_this_turn_and_it_stays() -> None:
    old = tile("C01", 0, 0, 1, symbols="-F--")  # fountain on (1,0)
    state = building(garden_with(old, singles=4), taken="C09", revealed=["change_symbol"])
    state = play(state, place_move(2, 0, 1))  # C09 SF--: stairs (2,0), fountain (3,0)
    offered = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "set_symbol"]
    cells = {(m["x"], m["y"]) for m in offered}
    assert cells == {(2, 0), (3, 0)}  # the new tile's symbol fields, not (1,0)
    assert {m["symbol"] for m in offered if (m["x"], m["y"]) == (2, 0)} == {"F", "B", "T"}
    state = play(state, {"type": "set_symbol", "x": 2, "y": 0, "symbol": "F"})
    assert state.boards[0].tiles[1].symbols == "FF--"
    # Once per turn.
    with pytest.raises(IllegalMove) as caught:
        play(state, {"type": "set_symbol", "x": 3, "y": 0, "symbol": "T"})
    assert caught.value.code == "symbol_used"
    # The changed field joins the old tile's fountain.
    state = play(state, decorate("fountain", (1, 0), (2, 0)))
    # Permanent: after the turn the symbol is still a fountain.
    state = play(state, {"type": "end_turn", "taken": None})
    assert ENGINE.dump(state)["boards"][0]["tiles"][1]["symbols"] == "FF--"


def test_add_symbol_only_on_blank_fields_of_a_new_tile() -> None:
    state = building(board(singles=4), taken="C09", revealed=["add_symbol"])
    state = play(state, place_move(2, 0, 1))  # SF--: blanks on (3,1) and (2,1)
    offered = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "set_symbol"]
    assert {(m["x"], m["y"]) for m in offered} == {(3, 1), (2, 1)}
    assert len(offered) == 8
    with pytest.raises(IllegalMove) as caught:
        play(state, {"type": "set_symbol", "x": 2, "y": 0, "symbol": "T"})
    assert caught.value.code == "cannot_set_symbol"
    state = play(state, {"type": "set_symbol", "x": 2, "y": 1, "symbol": "T"})
    assert decorate("statue", (2, 1)) in decorations_offered(state)


def test_no_symbol_effect_without_its_token() -> None:
    state = building(board(singles=4), taken="C09", revealed=["gain_single"])
    state = play(state, place_move(2, 0, 1))
    assert not [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "set_symbol"]
    with pytest.raises(IllegalMove) as caught:
        play(state, {"type": "set_symbol", "x": 2, "y": 1, "symbol": "T"})
    assert caught.value.code == "no_symbol_effect"


def test_corner_symbols_helper_matches_the_spec_rotation_rule() -> None:
    # §4.2: printed field i lands on corner (i + r) mod 4.
    assert corner_symbols("C11", 1) == "-ST-"
