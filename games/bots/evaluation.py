"""How bots judge a position: a game's own `evaluate` module, or the score difference.

A game's bot package (`games/bots/<pkg>/`) may ship `evaluate.py` with
`evaluate(state, seat) -> float`, higher being better for `seat`, in points. It may also set
`SCALE`, the number of points that counts as a clear lead; MCTS uses it to turn evaluations
into rewards between 0 and 1.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable, Hashable
from typing import Any

Evaluate = Callable[[Any, int], float]
Move = dict[str, Any]

DEFAULT_SCALE = 10.0


def package_name(engine: Any) -> str:
    """`hanging-gardens` lives in the package `hanging_gardens` (STYLE.md, Naming)."""
    return str(engine.slug).replace("-", "_")


def evaluation_module(engine: Any) -> Any | None:
    """The engine's `evaluate` module, or None when it ships none."""
    name = f"games.bots.{package_name(engine)}.evaluate"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only a missing evaluate module means "no evaluation"; a broken one must fail loudly.
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise


def evaluator_for(engine: Any) -> Evaluate:
    module = evaluation_module(engine)
    if module is not None and callable(getattr(module, "evaluate", None)):
        return module.evaluate  # type: ignore[no-any-return]
    return lambda state, seat: score_difference(engine, state, seat)


def scale_for(engine: Any) -> float:
    module = evaluation_module(engine)
    return float(getattr(module, "SCALE", DEFAULT_SCALE)) if module else DEFAULT_SCALE


def score_difference(engine: Any, state: Any, seat: int) -> float:
    """Own total minus the best other total: positive means `seat` is ahead."""
    totals = engine.scores(state)["totals"]
    others = [t for s, t in enumerate(totals) if s != seat]
    return float(totals[seat] - (max(others) if others else 0))


def winners(scores: dict[str, Any]) -> list[int]:
    """Seats that share first place.

    The ranking already applies the game's tie-break; when the engine reports
    `"winners"` (a shared victory), that list is used as it is.
    """
    if "winners" in scores:
        return list(scores["winners"])
    return [scores["ranking"][0]]


def outcome(engine: Any, state: Any) -> list[float]:
    """Final result per seat: 1 for a win, 1/k for a victory shared by k seats, else 0."""
    scores = engine.scores(state)
    won = winners(scores)
    return [1.0 / len(won) if s in won else 0.0 for s in range(len(scores["totals"]))]


def squash(value: float, scale: float) -> float:
    """Map an evaluation in points to a reward in (0, 1); `scale` points ahead gives ~0.73."""
    return 1.0 / (1.0 + math.exp(-value / scale))


MoveKey = Hashable


def canonical_json(value: Any) -> str:
    """`value` as JSON text that is equal exactly when the values are equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def move_key(move: Move) -> MoveKey:
    """A move's identity in a search tree: equal moves give equal keys.

    The sorted items identify a move exactly as its canonical JSON would, at a fraction
    of the cost (bots build keys for hundreds of moves per position); moves holding lists
    fall back to the JSON text.
    """
    key = tuple(sorted(move.items()))
    try:
        hash(key)
    except TypeError:
        return canonical_json(move)
    return key
