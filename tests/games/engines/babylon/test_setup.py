"""Setup and round structure: spec §2.1, §2.8, §2.9 and test cases §6.3."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.babylon import ENGINE, data
from games.engines.babylon.state import State
from games.engines.base import IllegalMove


def test_the_quarry_is_basalt_under_granite_under_clay() -> None:
    state = ENGINE.new_game(4, seed=3)
    assert len(state.quarry) == 16
    for stack in state.quarry:
        assert [data.material(t) for t in stack] == ["basalt", "granite", "clay"]
    assert len({t for stack in state.quarry for t in stack}) == 48


def test_every_player_starts_with_their_starting_tile_stored_and_no_pillars() -> None:
    state = ENGINE.new_game(3, seed=1)
    assert state.flowers == ("orange", "pink", "blue")
    for board, flower in zip(state.boards, state.flowers, strict=True):
        assert board.stored == f"S-{flower}"
        assert board.singles == 0
        assert board.tiles == ()


def test_flowers_option_chooses_the_boards() -> None:
    state = ENGINE.new_game(2, seed=1, options={"flowers": ["white", "blue"]})
    assert state.flowers == ("white", "blue")
    assert state.boards[0].stored == "S-white"
    # The first seats get the chosen flowers, the others the rest in the usual order.
    state = ENGINE.new_game(3, seed=1, options={"flowers": ["blue"]})
    assert state.flowers == ("blue", "orange", "pink")
    assert ENGINE.new_game(2, seed=1, options={"flowers": []}).flowers == ("orange", "pink")
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, options={"flowers": ["white", "white"]})
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, options={"colours": []})


@pytest.mark.parametrize("players", [1, 5, "2"])
def test_player_count_outside_two_to_four_is_refused(players: object) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, seed=1)  # type: ignore[arg-type]


def remove_all(state: State, chooser: random.Random) -> tuple[State, list[int]]:
    seats = []
    while state.phase == "remove":
        seat = ENGINE.to_move(state)[0]
        seats.append(seat)
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
    return state, seats


@pytest.mark.parametrize(
    ("players", "order", "clay_left", "tokens"),
    [(2, [0, 1, 0, 1, 0, 1], 10, 14), (3, [0, 1, 2], 13, 12), (4, [], 16, 10)],
)
def test_clay_removals_tokens_and_first_player(
    players: int, order: list[int], clay_left: int, tokens: int
) -> None:
    # §6.3: removal order, clay left on top, tokens in the stack.
    state = ENGINE.new_game(players, seed=5)
    assert len(state.tokens) == tokens
    assert len(state.tokens) + len(state.unused_tokens) == 14
    assert Counter(state.tokens + state.unused_tokens) == Counter(data.ROUND_TOKENS)
    state, seats = remove_all(state, random.Random(1))
    assert seats == order
    tops = [data.material(stack[-1]) for stack in state.quarry]
    assert tops.count("clay") == clay_left
    assert tops.count("granite") == 16 - clay_left
    assert len(state.removed) == len(order)
    assert state.phase == "dig"
    assert ENGINE.to_move(state) == [0]


def test_only_clay_may_be_removed() -> None:
    state = ENGINE.new_game(2, seed=2)
    state = ENGINE.apply_move(state, 0, {"type": "remove_clay", "x": 2, "y": 2})
    # The stack now shows granite: neither seat may remove it.
    assert {"type": "remove_clay", "x": 2, "y": 2} not in ENGINE.legal_moves(state, 1)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply_move(state, 1, {"type": "remove_clay", "x": 2, "y": 2})
    assert caught.value.code == "not_clay"


def finish_turn(state: State) -> State:
    """The seat to move digs the first stack and ends its turn, discarding the tile."""
    seat = ENGINE.to_move(state)[0]
    state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[0])
    return ENGINE.apply_move(state, seat, {"type": "end_turn", "taken": "discard"})


@pytest.mark.parametrize(("players", "rounds"), [(2, 15), (3, 13), (4, 11)])
def test_the_game_lasts_15_13_11_rounds(players: int, rounds: int) -> None:
    state, _ = remove_all(ENGINE.new_game(players, seed=9), random.Random(2))
    effects = []
    for round_number in range(1, rounds + 1):
        assert state.round == round_number
        effects.append(state.effect)
        for seat in range(players):
            assert ENGINE.to_move(state) == [seat]
            state = finish_turn(state)
    assert ENGINE.is_over(state)
    assert ENGINE.to_move(state) == []
    # Round 1 has no effect; the token revealed after round r governs round r + 1.
    assert effects[0] == "none"
    assert effects[1:] == list(ENGINE.new_game(players, seed=9).tokens)
    # 30 / 39 / 44 tiles taken of 42 / 45 / 48 (§2.1): the quarry never runs dry.
    left = sum(len(stack) for stack in state.quarry)
    assert left == {2: 12, 3: 6, 4: 4}[players]


def test_the_revealed_token_is_public_once_the_round_ends() -> None:
    state, _ = remove_all(ENGINE.new_game(2, seed=4), random.Random(3))
    first_token = state.tokens[0]
    assert ENGINE.view(state, 0)["revealed"] == []
    state = finish_turn(finish_turn(state))
    seen = ENGINE.view(state, 1)
    assert seen["revealed"] == [first_token]
    assert seen["effect"] == first_token
    assert seen["tokens_left"] == 13
