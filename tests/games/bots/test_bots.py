"""Bots on the toy engine: legal moves, views only, greedy judgement, reproducible MCTS."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation, greedy
from tests.games.bots.toy_engine import ENGINE, State

ALL_LEVELS = bots.LEVELS + bots.BOTS
# Small fixed searches keep the tests fast and reproducible.
ITERATIONS = 40


def positions(players: int, seed: int, count: int) -> list[State]:
    """States met in a random game: both steps of the turn, early and late."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed)
    seen = []
    while not ENGINE.is_over(state):
        seen.append(state)
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return rng.sample(seen, count)


def play(state: State, level: str, seed: int) -> dict:
    seat = ENGINE.to_move(state)[0]
    return bots.choose_move(
        ENGINE, ENGINE.view(state, seat), seat, level, seed=seed, iterations=ITERATIONS
    )


@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize("players", [2, 3])
def test_every_bot_returns_a_legal_move(level: str, players: int) -> None:
    for i, state in enumerate(positions(players, seed=players, count=6)):
        seat = ENGINE.to_move(state)[0]
        assert play(state, level, seed=i) in ENGINE.legal_moves(state, seat)


@pytest.mark.parametrize("level", ["easy", "normal", "random"])
def test_a_bot_plays_a_whole_game_to_the_end(level: str) -> None:
    state = ENGINE.new_game(3, seed=11)
    for ply in range(100):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, play(state, level, seed=ply))
    assert ENGINE.is_over(state)


class SpyEngine:
    """The toy engine, recording which states the bot builds for itself."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.determinized: list[tuple[dict, int | None]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def determinize(self, view: dict, seat: int | None, seed: int) -> Any:
        self.determinized.append((view, seat))
        return self._engine.determinize(view, seat, seed)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_bots_build_their_states_from_the_seats_view(level: str) -> None:
    state = positions(2, seed=5, count=1)[0]
    seat = ENGINE.to_move(state)[0]
    view = ENGINE.view(state, seat)
    spy = SpyEngine(ENGINE)
    move = bots.choose_move(spy, view, seat, level, seed=1, iterations=ITERATIONS)
    assert move in ENGINE.legal_moves(state, seat)
    assert spy.determinized
    assert all(v == view and s == seat for v, s in spy.determinized)


def with_hidden_cards_shuffled(state: State, seat: int, seed: int) -> State:
    """The same position for `seat`: other hands and the deck dealt differently."""
    others = [s for s in range(state.players) if s != seat]
    pool = list(state.deck) + [c for s in others for c in state.hands[s]]
    random.Random(seed).shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
    return replace(state, hands=tuple(hands), deck=tuple(pool))


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_a_bots_choice_ignores_what_its_seat_cannot_see(level: str) -> None:
    for i, state in enumerate(positions(2, seed=9, count=4)):
        seat = ENGINE.to_move(state)[0]
        other = with_hidden_cards_shuffled(state, seat, seed=i)
        assert other != state
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert play(other, level, seed=i) == play(state, level, seed=i)


def only_one_take_makes_ten() -> State:
    """Seat 0 to take, row 0 at 6: only the market 4 completes a row of exactly 10.

    The other two 4s lie in seat 1's rows, so no hidden card is a 4, and no market
    card completes a row of seat 1, so taking one denies seat 1 nothing. Taking a card
    scores nothing by itself: only a bot that looks at the whole turn (take, then play)
    sees that the 4 is worth 15 points (toy rules: a row of exactly 10 scores 15).
    """
    return ENGINE.load(
        {
            "players": 2,
            "deck": [1, 1, 2, 2, 3, 3, 5, 5, 6, 6, 7, 7, 7, 8, 8],
            "market": [1, 4, 2],
            "hands": [[3], [8]],
            "rows": [[[6], [], []], [[4], [4], [5]]],
            "current": 0,
            "step": "take",
            "turns_left": 12,
        }
    )


@pytest.mark.parametrize("seed", range(5))
def test_greedy_takes_the_card_that_completes_the_best_turn(seed: int) -> None:
    state = only_one_take_makes_ten()
    move = bots.choose_move(ENGINE, ENGINE.view(state, 0), 0, "normal", seed=seed)
    assert move == {"type": "take_card", "index": 1}
    after = ENGINE.apply_move(state, 0, move)
    play_move = bots.choose_move(ENGINE, ENGINE.view(after, 0), 0, "normal", seed=seed)
    assert play_move == {"type": "play_card", "card": 4, "row": 0}


def test_greedy_values_a_take_by_the_best_play_that_follows() -> None:
    state = only_one_take_makes_ten()
    moves = [{"type": "take_card", "index": i} for i in range(3)]
    values = greedy.turn_values(ENGINE, state, 0, moves, evaluation.evaluator_for(ENGINE))
    # Seat 1's rows score 4 + 4 + 5 = 13. With the 4, seat 0 scores 15 (row 0 at 10);
    # with the 1 or the 2 its best is the 3 on row 0 or beside it: 9.
    assert values == [9 - 13, 15 - 13, 9 - 13]


def test_without_an_evaluate_module_bots_judge_by_the_score_difference() -> None:
    state = only_one_take_makes_ten()
    judge = evaluation.evaluator_for(ENGINE)
    # Toy rules: seat 0's rows are worth 6, seat 1's 4 + 4 + 5 = 13.
    assert judge(state, 0) == 6 - 13
    assert judge(state, 1) == 13 - 6


def test_an_unknown_level_is_refused() -> None:
    state = ENGINE.new_game(2, seed=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose_move(ENGINE, ENGINE.view(state, 0), 0, "grandmaster", seed=1)
