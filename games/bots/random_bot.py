"""Random bot: a uniform choice among the legal moves."""

from __future__ import annotations

import random
from typing import Any

from games.bots.evaluation import Move
from games.engines.base import Engine


def choose(engine: Engine, view: dict[str, Any], seat: int, *, seed: int) -> Move:
    # Legal moves never depend on what the seat cannot see, so any determinization will do.
    state = engine.determinize(view, seat, seed)
    return dict(random.Random(seed).choice(engine.legal_moves(state, seat)))
