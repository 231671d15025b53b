"""Bots that play any engine through the engine protocol (DESIGN.md, Bots).

A bot sees only a seat's `view`. Whatever it searches is built by the engine's
`determinize(view, seat, seed)`, which samples the hidden parts, so a bot can never
read what the seat may not see.

Levels: `easy` is a noisy greedy bot, `normal` the greedy bot and `hard` information-set
MCTS over whole turns (`turn_mcts`). The raw bots `random` and `greedy` can be named as
levels too.
"""

from __future__ import annotations

from typing import Any

from games.bots import greedy, memo, random_bot, turn_mcts
from games.bots.evaluation import Move
from games.engines.base import Engine

LEVELS = ("easy", "normal", "hard")
BOTS = ("random", "greedy")

# Easy: one move in five is random, the rest are judged with a few points of noise
# (evaluations are in game points).
EASY_EPSILON = 0.2
EASY_NOISE = 3.0
# Hard: search time per move. A bot move may take at most 2 s on the site; the rest
# is left for building the view and for a loaded machine (the search itself never
# starts an iteration it expects to end after the deadline).
HARD_SECONDS = 1.3


def choose_move(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    level: str,
    *,
    seed: int,
    budget: float | None = None,
    iterations: int | None = None,
) -> Move:
    """The move `seat` plays at `level`, given only its `view`.

    `budget` is the search time in seconds and `iterations` a fixed number of search
    iterations (which makes MCTS reproducible for a seed); both only affect `hard`.
    Whatever the search kept goes with it: its tree, and the bots' caches (`memo.release`).
    """
    try:
        return _choose_move(
            engine, view, seat, level, seed=seed, budget=budget, iterations=iterations
        )
    finally:
        memo.release()


def _choose_move(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    level: str,
    *,
    seed: int,
    budget: float | None,
    iterations: int | None,
) -> Move:
    if level == "random":
        return random_bot.choose(engine, view, seat, seed=seed)
    if level == "easy":
        return greedy.choose(engine, view, seat, seed=seed, noise=EASY_NOISE, epsilon=EASY_EPSILON)
    if level in ("normal", "greedy"):
        return greedy.choose(engine, view, seat, seed=seed)
    if level == "hard":
        seconds = HARD_SECONDS if budget is None else budget
        return turn_mcts.choose(
            engine, view, seat, seed=seed, seconds=seconds, iterations=iterations
        )
    raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS + BOTS}")
