"""Setup (hanging-gardens.md §2.1), rounds and turn order (§2.2, §6.7) and the end (§2.10)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import ENGINE, data
from games.engines.hanging_gardens.state import OVER, PLACE, State

from .positions import START, garden, place, position


@pytest.mark.parametrize(("players", "revealed"), [(2, 4), (3, 3), (4, 4)])
def test_setup(players: int, revealed: int) -> None:
    state = ENGINE.new_game(players, seed=7)
    # §2.2: cards revealed per round; the rest face down.
    assert len(state.display) == revealed
    assert len(state.deck) == 60 - revealed
    assert sorted(state.display + state.deck) == list(range(1, 61))
    # §2.1 step 5: 6 tiles face up, 43 face down, all 49 of them.
    assert None not in state.tile_display
    assert len(state.supply) == 43
    assert Counter(state.tile_display + state.supply) == Counter(data.TILE_COUNTS)
    # §2.1 steps 2-3: the start card and five temples each; seat 0 starts (§7.14).
    dumped = ENGINE.dump(state)
    assert (
        dumped["gardens"] == [{"x": 0, "y": 0, "rows": ["..", "..", ".."], "temples": []}] * players
    )
    assert ENGINE.to_move(state) == [0]
    assert state.start == 0
    assert state.phase == PLACE


def test_setup_follows_the_seed() -> None:
    assert ENGINE.dump(ENGINE.new_game(3, seed=5)) == ENGINE.dump(ENGINE.new_game(3, seed=5))
    assert ENGINE.dump(ENGINE.new_game(3, seed=5)) != ENGINE.dump(ENGINE.new_game(3, seed=6))


@pytest.mark.parametrize("players", [1, 5, "2"])
def test_player_counts_outside_two_to_four_are_refused(players: object) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, seed=1)  # type: ignore[arg-type]


def test_the_game_has_no_options() -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, options={"long_game": True})
    assert ENGINE.new_game(2, seed=1, options={}) == ENGINE.new_game(2, seed=1)


def first_place_moves(state: State, seat: int, rng: random.Random) -> dict:
    moves = [
        m for m in ENGINE.legal_moves(state, seat) if m["type"] in ("place_card", "discard_card")
    ]
    return rng.choice(moves)


def turn_order(players: int, turns: int, seed: int = 3) -> list[int]:
    """The seat that places a card in each of the first `turns` turns, skipping scoring."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed=seed)
    seats = []
    while len(seats) < turns:
        seat = ENGINE.to_move(state)[0]
        if state.phase == PLACE:
            seats.append(seat)
            state = ENGINE.apply_move(state, seat, first_place_moves(state, seat, rng))
        else:
            state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[-1])
    return seats


def test_two_players_take_two_turns_each_alternating_and_the_flower_passes() -> None:
    # §6.7: A B A B | B A B A | A B A B | ...
    assert turn_order(2, 12) == [0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1]


def test_three_and_four_players_take_one_turn_each_per_round() -> None:
    assert turn_order(3, 9) == [0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert turn_order(4, 8) == [0, 1, 2, 3, 1, 2, 3, 0]


def test_three_players_with_seat_one_starting() -> None:
    # §6.7: start player 1: round 1 = 1, 2, 0; round 2 = 2, 0, 1.
    state = ENGINE.load(
        {
            "players": 3,
            "start": 1,
            "display": [1, 2, 3],
            "deck": [4, 5, 6, 7, 8, 9],
            "supply": ["gate"] * 5,
        }
    )
    seats = []
    for _ in range(6):
        seat = ENGINE.to_move(state)[0]
        seats.append(seat)
        state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert seats == [1, 2, 0, 2, 0, 1]


def test_each_round_reveals_fresh_cards_and_the_display_is_not_refilled_between_turns() -> None:
    state = ENGINE.new_game(2, seed=9)
    first = state.display
    for expected in (3, 2, 1):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, first_place_moves(state, seat, random.Random(0)))
        while state.phase != PLACE:
            seat = ENGINE.to_move(state)[0]
            state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[-1])
        assert len(state.display) == expected
        assert set(state.display) < set(first)
    seat = ENGINE.to_move(state)[0]
    deck = state.deck
    state = ENGINE.apply_move(state, seat, first_place_moves(state, seat, random.Random(0)))
    while state.phase != PLACE:
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[-1])
    assert state.round == 2
    assert state.display == deck[:4]
    assert state.deck == deck[4:]


@pytest.mark.parametrize(("players", "rounds"), [(2, 15), (3, 20), (4, 15)])
def test_a_game_without_scoring_lasts_until_the_deck_is_used_up(players: int, rounds: int) -> None:
    # §6.7: 15 x 4, 20 x 3 and 15 x 4 turns. Never scoring keeps the supply full.
    rng = random.Random(players)
    state = ENGINE.new_game(players, seed=players)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        if state.phase == PLACE:
            state = ENGINE.apply_move(state, seat, first_place_moves(state, seat, rng))
        else:
            state = ENGINE.apply_move(state, seat, {"type": "skip_scoring"})
    assert state.round == rounds
    assert state.turns_played == 60
    assert state.deck == () and state.display == ()
    assert state.phase == OVER


def test_the_last_player_of_a_round_has_no_choice_of_card() -> None:
    state = position(START, display=[5], turn=3)
    assert {m["card"] for m in ENGINE.legal_moves(state, state.current)} == {5}


def test_a_discarded_card_counts_as_played_for_the_end() -> None:
    # §7.11: the last card of the last round cannot be placed (§2.9) and is discarded; the
    # deck is used up, so the game is over.
    stuck = garden("AAA", temples=((1, 0),))
    state = position(stuck, others=[stuck], display=[16], turn=3, deck=[])
    assert ENGINE.legal_moves(state, 1) == [{"type": "discard_card", "card": 16}]
    state = ENGINE.apply_move(state, 1, {"type": "discard_card", "card": 16})
    assert state.phase == OVER


def test_moves_by_the_wrong_seat_or_in_the_wrong_step_are_refused() -> None:
    state = position(START, display=[1, 2])
    for seat, move, code in [
        (1, place(1, 0, 0, 0), "not_your_turn"),
        (0, {"type": "skip_scoring"}, "wrong_phase"),
        (0, {"type": "take_tile", "column": 1, "slot": 1}, "wrong_phase"),
        (0, place(1, 4, 0, 0), "bad_move"),
        (0, place(1, 0, 10**9, 0), "too_far"),
    ]:
        with pytest.raises(IllegalMove) as caught:
            ENGINE.apply_move(state, seat, move)
        assert caught.value.code == code
