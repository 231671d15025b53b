"""How bots judge a position: a game's own evaluation, or the score difference.

Each registered game's bot knowledge (`games/bots/<pkg>/evaluate.py`, the `BotKnowledge`
Protocol of `games/registry.py`) may offer `evaluate(state, seat) -> float`, higher being
better for `seat`, in points, and `SCALE`, the number of points that counts as a clear lead;
MCTS uses it to turn evaluations into rewards between 0 and 1. An engine no game registers
(a test's toy) is judged with the defaults of `registry.BotDefaults`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable
from typing import Any

from games import registry
from games.engines.base import Engine

Evaluate = Callable[[Any, int], float]
Move = dict[str, Any]

_UNREGISTERED = registry.BotDefaults()


def knowledge_for(engine: Engine) -> registry.BotKnowledge:
    """The bots' knowledge of the engine's game; the defaults for an engine no game has."""
    if registry.is_registered(engine.slug):
        return registry.bots(engine.slug)
    return _UNREGISTERED


def evaluator_for(engine: Engine) -> Evaluate:
    evaluate = knowledge_for(engine).evaluate
    if evaluate is not None:
        return evaluate
    return lambda state, seat: score_difference(engine, state, seat)


def scale_for(engine: Engine) -> float:
    return float(knowledge_for(engine).SCALE)


def score_difference(engine: Engine, state: Any, seat: int) -> float:
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


def outcome(engine: Engine, state: Any) -> list[float]:
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
