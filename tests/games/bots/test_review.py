"""The hard bot's review of a decision (games/bots/advice.py), per engine, on small games
with fixed seeds and a fixed number of search iterations."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import engines
from games.bots import greedy
from games.bots.advice import advise, mark, review_move, thresholds
from games.bots.evaluation import knowledge_for

ITERATIONS = 6
SLUGS = [engine.slug for engine in engines.all()]


def players_for(engine: Any) -> int:
    return max(2, engine.min_players)


def position(engine: Any, seed: int, moves: int) -> Any:
    """A game `moves` moves in, played by the greedy bot from each seat's view."""
    state = engine.new_game(players_for(engine), seed)
    for number in range(moves):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        move = greedy.choose(engine, engine.view(state, seat), seat, seed=number)
        state = engine.apply_move(state, seat, move)
    return state


def as_text(advice: Any) -> str:
    return json.dumps(advice.as_dict(), sort_keys=True)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_review_depends_only_on_what_the_seat_saw(slug: str) -> None:
    engine = engines.get(slug)
    state = position(engine, seed=3, moves=6)
    seat = engine.to_move(state)[0]
    view = engine.view(state, seat)
    # The same table for this seat, with everything it cannot see drawn anew.
    other = next(
        sample
        for sample in (engine.determinize(view, seat, s) for s in range(1, 50))
        if json.dumps(engine.dump(sample), sort_keys=True)
        != json.dumps(engine.dump(state), sort_keys=True)
    )
    assert engine.view(other, seat) == view
    made = engine.legal_moves(state, seat)[-1]
    first = review_move(engine, state, seat, made, iterations=ITERATIONS)
    second = review_move(engine, other, seat, made, iterations=ITERATIONS)
    assert as_text(first) == as_text(second)
    assert first.iterations == ITERATIONS


@pytest.mark.parametrize("slug", SLUGS)
def test_the_bots_own_choice_costs_nothing(slug: str) -> None:
    engine = engines.get(slug)
    state = position(engine, seed=4, moves=5)
    seat = engine.to_move(state)[0]
    chosen = advise(engine, engine.view(state, seat), seat, None, iterations=ITERATIONS).best
    found = review_move(engine, state, seat, chosen, iterations=ITERATIONS)
    assert found.best == chosen
    assert found.cost == 0
    assert found.value == found.best_value


def turn_ending_choice(engine: Any, seed: int) -> tuple[Any, int, dict, dict]:
    """A position where a legal move that ends the seat's turn leaves it at least 3 points
    (by the rules' scores right after the move) below another legal move: that move, and
    the highest-scoring one."""
    state = engine.new_game(players_for(engine), seed)
    number = 0
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        moves = engine.legal_moves(state, seat)
        if 1 < len(moves) <= 3000:
            ending, every = [], []
            for move in moves:
                after = engine.apply_move(state, seat, move)
                total = engine.scores(after)["totals"][seat]
                every.append((total, move))
                if engine.is_over(after) or seat not in engine.to_move(after):
                    ending.append((total, move))
            if ending:
                low = min(ending, key=lambda g: g[0])
                high = max(every, key=lambda g: g[0])
                if high[0] - low[0] >= 3:
                    return state, seat, low[1], high[1]
        move = greedy.choose(engine, engine.view(state, seat), seat, seed=number)
        state = engine.apply_move(state, seat, move)
        number += 1
    raise AssertionError(f"no decision with a clearly worse move in {engine.slug}")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_clearly_worse_move_costs_more_than_the_bots_choice(slug: str) -> None:
    engine = engines.get(slug)
    state, seat, worst, _ = turn_ending_choice(engine, seed=2)
    found = review_move(engine, state, seat, worst, iterations=ITERATIONS)
    assert found.best != worst
    assert found.value < found.best_value
    assert found.cost > 0
    own = review_move(engine, state, seat, found.best, iterations=ITERATIONS)
    assert found.cost > own.cost == 0


@pytest.mark.parametrize("slug", SLUGS)
def test_each_engine_sets_its_cost_thresholds(slug: str) -> None:
    engine = engines.get(slug)
    small, large = thresholds(engine)
    assert (small, large) == knowledge_for(engine).REVIEW_THRESHOLDS
    assert 0 < small < large
    assert mark(engine, 0) == "none"
    assert mark(engine, small) == "small"
    assert mark(engine, large) == "large"


@pytest.mark.parametrize("slug", SLUGS)
def test_no_decision_of_a_reviewed_game_values_the_best_below_the_move_made(slug: str) -> None:
    # Issue 32: the move made and the bot's choice are valued by one evaluation, so the
    # best is never worth less than the move made and the cost is exactly the difference.
    engine = engines.get(slug)
    state = engine.new_game(players_for(engine), 5)
    for number in range(16):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        made = greedy.choose(engine, engine.view(state, seat), seat, seed=number)
        found = review_move(engine, state, seat, made, iterations=ITERATIONS).as_dict()
        assert found["best_value"] >= found["value"], (number, found)
        assert found["cost"] == round(found["best_value"] - found["value"], 2), (number, found)
        if found["cost"] == 0:
            assert found["best"] == made, (number, found)
        state = engine.apply_move(state, seat, made)
