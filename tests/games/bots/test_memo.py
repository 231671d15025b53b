"""The bots' caches stay bounded and a search leaves nothing behind: its tree goes with it
and the caches it filled are emptied (games/bots/memo.py). A worker that reviewed a game
kept thousands of boards alive through these caches."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import bots
from games.bots import advice, memo, turn_mcts
from games.bots.babylon import gardens, planner
from games.bots.hanging_gardens import evaluate as gardens_evaluate
from games.engines import babylon, hanging_gardens
from games.engines.base import Engine


@pytest.fixture
def small_limit() -> Iterator[int]:
    before = memo.limit()
    memo.set_limit(3)
    yield 3
    memo.set_limit(before)


def a_position(engine: Engine, seed: int, plies: int) -> tuple[Any, int]:
    """A position `plies` random moves into a two-player game, and the seat to move."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    for _ in range(plies):
        seat = engine.to_move(state)[0]
        state = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return state, engine.to_move(state)[0]


def nodes_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, turn_mcts.Node))


def test_a_cache_never_holds_more_than_its_limit(small_limit: int) -> None:
    cache: memo.BoundedCache[int] = memo.BoundedCache()
    for n in range(10):
        cache.put(n, n)
        assert len(cache) <= small_limit
    assert len(cache) == small_limit


def test_a_cache_forgets_the_least_recently_used_first(small_limit: int) -> None:
    cache: memo.BoundedCache[str] = memo.BoundedCache()
    for key in ("a", "b", "c"):
        cache.put(key, key)
    assert cache.get("a") == "a"  # "a" is now the most recently used
    cache.put("d", "d")
    assert cache.get("b") is None
    assert [cache.get(k) for k in ("a", "c", "d")] == ["a", "c", "d"]


def test_a_lower_limit_shrinks_the_caches_at_once() -> None:
    before = memo.limit()
    cache: memo.BoundedCache[int] = memo.BoundedCache()
    try:
        memo.set_limit(10)
        for n in range(10):
            cache.put(n, n)
        memo.set_limit(4)
        assert len(cache) == 4
    finally:
        memo.set_limit(before)


def test_a_bot_turn_leaves_no_tree_and_empty_caches() -> None:
    engine = babylon.ENGINE
    state, seat = a_position(engine, seed=3, plies=12)
    bots.choose_move(engine, engine.view(state, seat), seat, "hard", seed=1, iterations=6)
    assert nodes_alive() == 0
    assert len(planner._plans) == 0
    assert len(planner._builds) == 0
    assert len(gardens._caches) == 0


def test_a_review_of_a_decision_leaves_no_tree_and_empty_caches() -> None:
    engine = babylon.ENGINE
    state, seat = a_position(engine, seed=5, plies=20)
    made = engine.legal_moves(state, seat)[0]
    advice.review_move(engine, state, seat, made, iterations=4)
    assert nodes_alive() == 0
    assert len(planner._plans) == 0
    assert len(planner._builds) == 0
    assert len(gardens._caches) == 0


def test_memoised_functions_are_emptied_after_a_search() -> None:
    engine = hanging_gardens.ENGINE
    state, seat = a_position(engine, seed=2, plies=6)
    bots.choose_move(engine, engine.view(state, seat), seat, "hard", seed=1, iterations=4)
    assert gardens_evaluate._tile_estimates.cache_info().currsize == 0


def test_a_greedy_bot_turn_leaves_empty_caches() -> None:
    engine = babylon.ENGINE
    state, seat = a_position(engine, seed=4, plies=12)
    bots.choose_move(engine, engine.view(state, seat), seat, "normal", seed=1)
    assert len(gardens._caches) == 0


def test_within_a_search_the_caches_are_used() -> None:
    # The bound must not make the cache useless: a second ranking of the same position
    # finds the planner's plans.
    engine = babylon.ENGINE
    state, seat = a_position(engine, seed=3, plies=12)
    memo.release()
    planner.best_turns(state, seat, 5)
    assert 0 < len(planner._plans) <= memo.limit()
    memo.release()
