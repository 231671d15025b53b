"""The bots' entry point for Babylon (`games/bots/evaluation.py` loads it by name).

`evaluate(state, seat)` and `information_key` are the position heuristics of
`heuristics.py`; `turns` (a seat's best complete turns) and `turn_values` (for each legal
move, the value of the best turn it starts) come from the turn planner (`planner.py`); see
`games/bots/turn_mcts.py` and `games/bots/greedy.py`.

The modules stand in layers, each using only those below it: `heuristics`, then
`estimates` (quick values of a placement), then `planner`, then this module.
"""

from __future__ import annotations

from typing import Any

from games.bots.babylon import planner
from games.bots.babylon.heuristics import SCALE, evaluate, information_key
from games.engines.babylon.state import State

# The post-game review marks a decision that cost this many points (estimated) as a small,
# then a large loss (games/bots/advice.py).
REVIEW_THRESHOLDS = (2.0, 6.0)

__all__ = ["REVIEW_THRESHOLDS", "SCALE", "evaluate", "information_key", "turn_values", "turns"]


def turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    return planner.best_turns(state, seat, limit)


def turn_values(state: State, seat: int, moves: list[dict[str, Any]]) -> list[float]:
    return planner.move_values(state, seat, moves)
