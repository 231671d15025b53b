"""The hard bot's judgement of one decision, for the post-game review and the hint.

DESIGN.md principle 9: advice sees what the seat saw. Everything here starts from the
seat's `view` at the moment of the decision; the search only ever looks at
determinizations of that view, and its seed is drawn from the view itself, so two games
that differ only in what the seat could not know get the same advice, byte for byte.

A decision is judged in three searches of the same view with the same seed (so they
sample the same hidden draws):

* the hard bot's own search (`turn_mcts.search`, exactly as it plays): its choice;
* one search whose root may only play turns that begin with the bot's choice, and
* one whose root may only play turns that begin with the move made (skipped when the two
  are the same move).

The value of a move is the mean estimated final score difference (own score minus the best
other, in points; the engine's `evaluate` before the end, the real difference after it) over
the iterations of the best turn that begins with it. The cost of the move made is how much
less it is worth than the bot's choice, never below zero, and zero when it is the bot's
choice. These are estimates of a search over random draws: a good decision can look bad
when the draws that followed were unlucky.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from games.bots import turn_mcts
from games.bots.evaluation import (
    Move,
    canonical_json,
    evaluation_module,
    move_key,
)
from games.bots.turn_mcts import Search, Turn, TurnKey

# Iterations per search when the caller gives no budget.
DEFAULT_ITERATIONS = 8
# Costs below the first threshold are "none", from the second on "large" (points), unless
# the engine's evaluation module sets its own `REVIEW_THRESHOLDS`.
DEFAULT_THRESHOLDS = (2.0, 6.0)


@dataclass(slots=True)
class Appraisal(Search):
    """A search that also keeps, per turn at the root, the sum of the final score
    differences it estimated; with `first` set, its root plays only turns beginning with
    that move."""

    first: Move | None = None
    points: dict[TurnKey, float] = field(default_factory=dict)
    last_points: float = 0.0
    root_key: Any = None

    def iterate(self) -> None:
        before = {key: child.visits for key, child in self.root.children.items()}
        Search.iterate(self)
        for key, child in self.root.children.items():
            if child.visits != before.get(key, 0):
                self.points[key] = self.points.get(key, 0.0) + self.last_points
                break

    def value(self) -> float:
        """The mean points of the most visited turn (the best mean among equals)."""
        tried = [
            (child.visits, self.points.get(key, 0.0) / child.visits)
            for key, child in self.root.children.items()
            if child.visits
        ]
        return max(tried)[1] if tried else 0.0

    def _ranked(self, state: Any, mover: int) -> list[Turn]:
        if self.first is None or mover != self.seat:
            return Search._ranked(self, state, mover)
        if self.root_key is None:
            start = self.engine.determinize(self.view, self.seat, 0)
            self.root_key = self.information_key(start, self.seat)
        key = self.information_key(state, mover)
        if key != self.root_key:
            return Search._ranked(self, state, mover)
        # Searches of one decision share their rankings: this one is the first move's own.
        slot = ("first", move_key(self.first), key)
        cached = self.rankings.get(slot)
        if cached is None:
            cached = self._beginning_with(state, self.first)
            self.rankings[slot] = cached
        return cached

    def _beginning_with(self, state: Any, first: Move) -> list[Turn]:
        after = self.engine.apply_move(state, self.seat, dict(first))
        if self.engine.is_over(after) or self.engine.to_move(after) != [self.seat]:
            value = self.own_evaluate(after, self.seat)
            return [Turn((move_key(first),), (dict(first),), value)]
        return [
            Turn(
                (move_key(first), *(move_key(m) for m in moves)),
                (dict(first), *moves),
                value,
            )
            for value, moves in self.own_turns(after, self.seat, self.settings.keep)
        ]

    def _points(self, state: Any) -> float:
        self.last_points = Search._points(self, state)
        return self.last_points


@dataclass(frozen=True, slots=True)
class Advice:
    best: Move
    best_value: float
    value: float
    cost: float
    iterations: int

    def as_dict(self) -> dict[str, Any]:
        # Rounded to hundredths of a point, the cost agrees with the two values shown.
        value, best_value = round(self.value, 2), round(self.best_value, 2)
        return {
            "best": self.best,
            "value": value,
            "best_value": best_value,
            "cost": max(0.0, round(best_value - value, 2)),
            "iterations": self.iterations,
        }


def view_seed(view: dict[str, Any], seat: int) -> int:
    """The search's seed, drawn from what the seat sees and nothing else."""
    digest = hashlib.blake2b(f"{seat}:{canonical_json(view)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def choice(engine: Any, view: dict[str, Any], seat: int, *, iterations: int) -> Move:
    """The hard bot's choice for `seat` from its `view`: its search, seeded by the view."""
    found = turn_mcts.search(engine, view, seat, seed=view_seed(view, seat), iterations=iterations)
    return dict(found.best_turn()[0])


def appraise(
    engine: Any,
    view: dict[str, Any],
    seat: int,
    first: Move,
    *,
    seed: int,
    iterations: int,
    rankings: dict[Any, list[Turn]] | None = None,
) -> float:
    """The estimated final score difference for `seat` if its turn begins with `first`.

    `rankings` may be another search's of the same view: a ranking depends only on the
    mover's information set, so the searches of one decision share theirs."""
    found = turn_mcts.prepare(engine, view, seat, seed=seed, kind=Appraisal)
    found.first = dict(first)
    if rankings is not None:
        found.rankings = rankings
    for _ in range(iterations):
        found.iterate()
    return found.value()


def advise(
    engine: Any, view: dict[str, Any], seat: int, made: Move | None, *, iterations: int
) -> Advice:
    """The bot's choice from `view`, and what it and `made` (if given) are worth."""
    seed = view_seed(view, seat)
    found = turn_mcts.search(engine, view, seat, seed=seed, iterations=iterations)
    best = dict(found.best_turn()[0])
    shared = found.rankings
    best_value = appraise(
        engine, view, seat, best, seed=seed, iterations=iterations, rankings=shared
    )
    if made is None or move_key(dict(made)) == move_key(best):
        return Advice(best, best_value, best_value, 0.0, iterations)
    value = appraise(engine, view, seat, made, seed=seed, iterations=iterations, rankings=shared)
    return Advice(best, best_value, value, max(0.0, best_value - value), iterations)


def review_move(engine: Any, state: Any, seat: int, made: Move, *, iterations: int) -> Advice:
    """The review of `made`, played by `seat` in `state`: judged from the seat's view only."""
    return advise(engine, engine.view(state, seat), seat, made, iterations=iterations)


def thresholds(engine: Any) -> tuple[float, float]:
    """Costs (points) from which a decision counts as a small, then a large loss."""
    found = getattr(evaluation_module(engine), "REVIEW_THRESHOLDS", None)
    return (float(found[0]), float(found[1])) if found else DEFAULT_THRESHOLDS


def mark(engine: Any, cost: float) -> str:
    small, large = thresholds(engine)
    if cost >= large:
        return "large"
    return "small" if cost >= small else "none"
