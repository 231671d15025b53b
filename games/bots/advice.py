"""The hard bot's judgement of one decision, for the post-game review and the hint.

DESIGN.md principle 9: advice sees what the seat saw. Everything here starts from the
seat's `view` at the moment of the decision; the search only ever looks at
determinizations of that view, and its seed is drawn from the view itself, so two games
that differ only in what the seat could not know get the same advice, byte for byte.

A decision is judged in two searches of the same view with the same seed:

* the hard bot's own search (`turn_mcts.search`, exactly as it plays): its choice;
* one appraisal that values the candidates (the bot's choice and the move made) in turn:
  iteration i plays only turns beginning with candidate i mod n, in the determinization of
  sample i div n, so both are valued by one set of rankings and one evaluation over the same
  hidden draws, each from a root of its own that opens turns as a search of it alone would.

The value of a move is the mean estimated final score difference (own score minus the best
other, in points; the engine's `evaluate` before the end, the real difference after it) over
the iterations of the best turn that begins with it. The best of a decision is the candidate
valued highest, the move made when it is valued at least as high as the bot's choice; its
cost is `best_value - value`, so never below zero, and zero for the best. These are
estimates of a search over random draws: a good decision can look bad when the draws that
followed were unlucky.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.bots import memo, turn_mcts
from games.bots.evaluation import (
    Move,
    canonical_json,
    knowledge_for,
    move_key,
)
from games.bots.turn_mcts import Node, Search, Turn, TurnKey
from games.engines.base import Engine

# Iterations per search when the caller gives no budget.
DEFAULT_ITERATIONS = 8
# Costs below the first threshold are "none", from the second on "large" (points), unless
# the game's bot knowledge sets its own `REVIEW_THRESHOLDS`.
DEFAULT_THRESHOLDS = registry.BotDefaults.REVIEW_THRESHOLDS


@dataclass(slots=True)
class Appraisal(Search):
    """A search whose root plays only turns beginning with one of `firsts`, each in turn
    over the same determinizations, keeping per turn at the root the sum of the final score
    differences it estimated."""

    firsts: list[Move] = field(default_factory=list)
    # Each candidate's own root (with its count of turns and its centre), so each opens and
    # weighs turns as a search of it alone would.
    roots: dict[Any, tuple[Node, int, float]] = field(default_factory=dict)
    points: dict[TurnKey, float] = field(default_factory=dict)
    last_points: float = 0.0
    root_key: Any = None

    @property
    def first(self) -> Move:
        """The candidate this iteration tries."""
        return self.firsts[self.iterations % len(self.firsts)]

    def iterate(self) -> None:
        if not self.seeds:
            # Each sample's seed once per candidate in a row: the candidates are compared
            # over the same draws (Search.iterate takes seeds[iterations % len(seeds)]).
            drawn = [self.rng.getrandbits(62) for _ in range(self.settings.samples)]
            self.seeds = [seed for seed in drawn for _ in self.firsts]
        candidate = move_key(self.first)
        self.root, self.root_choices, self.origin = self.roots.get(candidate, (Node(), 0, 0.0))
        before = {key: child.visits for key, child in self.root.children.items()}
        Search.iterate(self)
        self.roots[candidate] = (self.root, self.root_choices, self.origin)
        for key, child in self.root.children.items():
            if child.visits != before.get(key, 0):
                self.points[key] = self.points.get(key, 0.0) + self.last_points
                break

    def value_of(self, first: Move) -> float:
        """The mean points of the most visited turn beginning with `first` (the best mean
        among equals)."""
        root = self.roots.get(move_key(first), (Node(), 0, 0.0))[0]
        tried = [
            (child.visits, self.points.get(key, 0.0) / child.visits)
            for key, child in root.children.items()
            if child.visits
        ]
        return max(tried)[1] if tried else 0.0

    def _ranked(self, state: Any, mover: int) -> list[Turn]:
        if not self.firsts or mover != self.seat:
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
            "cost": round(best_value - value, 2),
            "iterations": self.iterations,
        }


def view_seed(view: dict[str, Any], seat: int) -> int:
    """The search's seed, drawn from what the seat sees and nothing else."""
    digest = hashlib.blake2b(f"{seat}:{canonical_json(view)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def choice(engine: Engine, view: dict[str, Any], seat: int, *, iterations: int) -> Move:
    """The hard bot's choice for `seat` from its `view`: its search, seeded by the view."""
    found = turn_mcts.search(engine, view, seat, seed=view_seed(view, seat), iterations=iterations)
    return dict(found.best_turn()[0])


def appraise(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    firsts: list[Move],
    *,
    seed: int,
    iterations: int,
    rankings: dict[Any, list[Turn]] | None = None,
) -> list[float]:
    """The estimated final score difference for `seat` if its turn begins with each of
    `firsts`, from one search giving each `iterations` iterations over the same draws.

    `rankings` may be another search's of the same view: a ranking depends only on the
    mover's information set, so the searches of one decision share theirs."""
    found = turn_mcts.prepare(engine, view, seat, seed=seed, kind=Appraisal)
    assert isinstance(found, Appraisal)
    found.firsts = [dict(first) for first in firsts]
    if rankings is not None:
        found.rankings = rankings
    for _ in range(iterations * len(firsts)):
        found.iterate()
    return [found.value_of(first) for first in found.firsts]


def advise(
    engine: Engine, view: dict[str, Any], seat: int, made: Move | None, *, iterations: int
) -> Advice:
    """The best move from `view` and what it and `made` (if given) are worth: the bot's
    choice, or `made` where the appraisal values it at least as high."""
    try:
        return _advise(engine, view, seat, made, iterations=iterations)
    finally:
        memo.release()  # the searches' trees go with them; the caches they filled too


def _advise(
    engine: Engine, view: dict[str, Any], seat: int, made: Move | None, *, iterations: int
) -> Advice:
    seed = view_seed(view, seat)
    found = turn_mcts.search(engine, view, seat, seed=seed, iterations=iterations)
    chosen = dict(found.best_turn()[0])
    shared = found.rankings
    if made is None or move_key(dict(made)) == move_key(chosen):
        (value,) = appraise(
            engine, view, seat, [chosen], seed=seed, iterations=iterations, rankings=shared
        )
        return Advice(chosen, value, value, 0.0, iterations)
    chosen_value, value = appraise(
        engine, view, seat, [chosen, dict(made)], seed=seed, iterations=iterations, rankings=shared
    )
    if value >= chosen_value:
        return Advice(dict(made), value, value, 0.0, iterations)
    return Advice(chosen, chosen_value, value, chosen_value - value, iterations)


def review_move(engine: Engine, state: Any, seat: int, made: Move, *, iterations: int) -> Advice:
    """The review of `made`, played by `seat` in `state`: judged from the seat's view only."""
    return advise(engine, engine.view(state, seat), seat, made, iterations=iterations)


def thresholds(engine: Engine) -> tuple[float, float]:
    """Costs (points) from which a decision counts as a small, then a large loss."""
    small, large = knowledge_for(engine).REVIEW_THRESHOLDS
    return (float(small), float(large))


def mark(engine: Engine, cost: float) -> str:
    small, large = thresholds(engine)
    if cost >= large:
        return "large"
    return "small" if cost >= small else "none"
