"""Greedy bot: the move that starts the best whole turn, judged by the evaluation.

A turn can take several moves by the same seat (Akropolis: take a tile, then place it),
so the first move is worth what the best finished turn after it is worth: the tile
choice accounts for the best placement of that tile.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.evaluation import Evaluate, Move, evaluator_for, knowledge_for
from games.engines.base import Engine

# Leaf evaluations allowed per decision before deeper steps of the turn are cut off;
# Akropolis needs about (site size) x (placements), a few thousand.
TURN_LEAVES = 20_000
TIE = 1e-9


def choose(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    *,
    seed: int,
    noise: float = 0.0,
    epsilon: float = 0.0,
) -> Move:
    """Best-turn move for `seat`; `noise` (points, Gaussian) and `epsilon` weaken it."""
    rng = random.Random(seed)
    state = engine.determinize(view, seat, seed)
    moves = engine.legal_moves(state, seat)
    if epsilon and rng.random() < epsilon:
        return dict(rng.choice(moves))
    values = turn_values(engine, state, seat, moves, evaluator_for(engine))
    if noise:
        values = [v + rng.gauss(0.0, noise) for v in values]
    return dict(rng.choice(best_of(moves, values)))


def best_of(moves: list[Move], values: list[float]) -> list[Move]:
    top = max(values)
    return [m for m, v in zip(moves, values, strict=True) if v >= top - TIE]


def turn_values(
    engine: Engine, state: Any, seat: int, moves: list[Move], evaluate: Evaluate
) -> list[float]:
    """For each move, the evaluation after the best way to finish the turn it starts.

    A game whose turns are too large to enumerate (Babylon: thousands of placements per
    step) may plan them itself: its bot knowledge's `turn_values(state, seat, moves)` then
    gives these values.
    """
    planned = knowledge_for(engine).turn_values
    if planned is not None:
        return [float(v) for v in planned(state, seat, moves)]
    budget = [TURN_LEAVES]
    return [
        _finish_turn(engine, engine.apply_move(state, seat, move), seat, evaluate, budget)
        for move in moves
    ]


def _finish_turn(
    engine: Engine, state: Any, seat: int, evaluate: Evaluate, budget: list[int]
) -> float:
    if engine.is_over(state) or engine.to_move(state) != [seat] or budget[0] <= 0:
        budget[0] -= 1
        return evaluate(state, seat)
    return max(
        _finish_turn(engine, engine.apply_move(state, seat, move), seat, evaluate, budget)
        for move in engine.legal_moves(state, seat)
    )
