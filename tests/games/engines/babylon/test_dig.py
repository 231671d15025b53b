"""Digging (spec §2.3): the rulebook examples §6.1, the derived cases §6.2, the round
effects on the dig (§2.8) and the supply limit (§2.12)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.babylon import ENGINE, data
from games.engines.babylon.state import State
from games.engines.base import IllegalMove

LAYERS = {1: "B", 2: "G", 3: "C"}


def quarry_of(heights: list[list[int]], tops: dict[tuple[int, int], str]) -> list[list[list]]:
    """Stacks of the given heights (rows y0..y3), each layer its material; `tops` names
    the top tile of some stacks, the rest get distinct tiles of the right material."""
    used = set(tops.values())
    free = {
        layer: [t for t in data.TERRACE_TILES if t[0] == prefix and t not in used]
        for layer, prefix in LAYERS.items()
    }
    rows = []
    for y, row in enumerate(heights):
        stacks = []
        for x, height in enumerate(row):
            named = tops.get((x, y))
            below = height - 1 if named else height
            stack = [free[layer].pop() for layer in range(1, below + 1)]
            if named:
                assert named[0] == LAYERS[height]
                stack.append(named)
            stacks.append(stack)
        rows.append(stacks)
    return rows


# §6.1: the quarry of the rulebook digging examples.
EXAMPLE_HEIGHTS = [[3, 3, 3, 3], [1, 2, 2, 3], [3, 0, 1, 1], [3, 3, 3, 2]]
AA = "G01"  # granite at (1, 1), orange: not Linda's white
BB = "B05"  # basalt at (3, 2), pink: János's flower


def digging(
    heights: list[list[int]],
    tops: dict[tuple[int, int], str],
    flowers: list[str],
    effect: str | None = None,
    supply: dict[str, int] | None = None,
) -> State:
    payload: dict[str, Any] = {
        "players": len(flowers),
        "flowers": flowers,
        "quarry": quarry_of(heights, tops),
        "boards": [{"tiles": []} for _ in flowers],
        "phase": "dig",
        "current": 0,
        "revealed": [effect] if effect else [],
        "tokens": ["none"],
    }
    if supply:
        payload["supply"] = supply
    return ENGINE.load(payload)


def dig(state: State, x: int, y: int) -> State:
    return ENGINE.apply_move(state, 0, {"type": "dig", "x": x, "y": y})


@pytest.mark.parametrize(
    ("flower", "stack", "effect", "expected"),
    [
        ("white", (1, 1), None, 3),  # Linda / Laura takes AA
        ("pink", (3, 2), None, 3),  # János / Jacek takes BB
        ("white", (1, 1), "dig_minus_one", 2),
        ("pink", (3, 2), "flower_double", 4),
        ("pink", (3, 2), "dig_minus_one", 2),
    ],
)
def test_rulebook_digging_examples(
    flower: str, stack: tuple[int, int], effect: str | None, expected: int
) -> None:
    state = digging(EXAMPLE_HEIGHTS, {(1, 1): AA, (3, 2): BB}, [flower, "orange"], effect)
    after = dig(state, *stack)
    assert after.boards[0].singles == expected
    assert after.turn.taken == (AA if stack == (1, 1) else BB)
    assert after.quarry[stack[1] * 4 + stack[0]] == state.quarry[stack[1] * 4 + stack[0]][:-1]
    assert after.supply.singles == 148 - expected
    assert after.phase == "build"


def test_the_view_shows_each_visible_tiles_yield_for_the_viewer() -> None:
    state = digging(EXAMPLE_HEIGHTS, {(1, 1): AA, (3, 2): BB}, ["white", "pink"])
    yields = {(e["x"], e["y"]): e["yield"] for e in ENGINE.view(state, 0)["quarry"]}
    assert yields[(1, 1)] == 3
    assert yields[(1, 2)] is None  # the empty stack
    pink = {(e["x"], e["y"]): e["yield"] for e in ENGINE.view(state, 1)["quarry"]}
    assert pink[(3, 2)] == 3
    assert all(e["yield"] is None for e in ENGINE.view(state, None)["quarry"])


def test_untouched_four_player_quarry_yields_four_plus_the_flower() -> None:
    # §6.2: every stack yields 4, 5 with a flower match.
    state = ENGINE.new_game(4, seed=12)
    for seat in range(4):
        for entry in ENGINE.view(state, seat)["quarry"]:
            match = entry["top"]["flower"] == state.flowers[seat]
            assert entry["yield"] == 4 + match


def test_two_player_quarry_after_removals() -> None:
    # §6.2: clay removed at (0,0) (1,0) (2,0) (3,0) (0,1) (1,1).
    state = ENGINE.new_game(2, seed=6)
    for x, y in [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]:
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, {"type": "remove_clay", "x": x, "y": y})
    heights = [[len(state.quarry[y * 4 + x]) for x in range(4)] for y in range(4)]
    assert heights == [[2, 2, 2, 2], [2, 2, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]]
    view = ENGINE.view(state, 0)
    for (x, y), expected in {(2, 1): 4, (1, 0): 4, (1, 1): 2, (0, 0): 4}.items():
        entry = view["quarry"][y * 4 + x]
        match = entry["top"]["flower"] == "orange"
        assert entry["yield"] == expected + match


def test_basalt_in_the_middle_among_full_stacks_yields_only_the_flower() -> None:
    heights = [[3, 3, 3, 3], [3, 1, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]]
    own = digging(heights, {(1, 1): "B13"}, ["white", "pink"])  # white basalt
    other = digging(heights, {(1, 1): "B01"}, ["white", "pink"])  # orange basalt
    assert dig(own, 1, 1).boards[0].singles == 1
    assert dig(other, 1, 1).boards[0].singles == 0
    # D4: dig_minus_one never goes below zero.
    minus = digging(heights, {(1, 1): "B01"}, ["white", "pink"], "dig_minus_one")
    assert dig(minus, 1, 1).boards[0].singles == 0


def test_gain_single_and_gain_double_pay_at_the_dig() -> None:
    # D5: the extra pillar comes with the dig, on top of the yield.
    heights = [[3] * 4] * 4
    single = dig(digging(heights, {(0, 0): "C01"}, ["white", "pink"], "gain_single"), 0, 0)
    assert single.boards[0].singles == 5
    assert single.turn.doubles == 0
    double = dig(digging(heights, {(0, 0): "C01"}, ["white", "pink"], "gain_double"), 0, 0)
    assert double.boards[0].singles == 4
    assert double.turn.doubles == 1
    assert double.supply.doubles == 59


def test_a_short_supply_gives_what_remains() -> None:
    # §2.12, D24.
    state = digging([[3] * 4] * 4, {(0, 0): "C01"}, ["white", "pink"], supply={"singles": 2})
    after = dig(state, 0, 0)
    assert after.boards[0].singles == 2
    assert after.supply.singles == 0


def test_digging_an_empty_stack_is_refused() -> None:
    state = digging(EXAMPLE_HEIGHTS, {}, ["white", "pink"])
    assert {"type": "dig", "x": 1, "y": 2} not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as caught:
        dig(state, 1, 2)
    assert caught.value.code == "empty_stack"


def test_the_pool_keeps_stored_singles() -> None:
    state = digging([[3] * 4] * 4, {(0, 0): "C01"}, ["white", "pink"])
    payload = ENGINE.dump(state)
    payload["boards"][0]["singles"] = 5
    assert dig(ENGINE.load(payload), 0, 0).boards[0].singles == 9
