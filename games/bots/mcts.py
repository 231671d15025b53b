"""Information-set Monte Carlo tree search (single observer).

One tree is grown for the bot's own information set. Every iteration samples a fresh
determinization of the hidden information from the bot's view (`engine.determinize`),
then walks the tree within that sample: moves are keyed by their content (the same
identity as their canonical JSON, see `move_key`), so a node's children are shared by
every sample in which the move exists. A child's UCB term counts
how often it was *available* rather than how often its parent was visited, because in a
given sample only some children are legal (Cowling, Powley and Whitehouse, 2012).

Each node stores the reward of the seat that made its move, so opponents pick the moves
that are best for them. Rewards lie in [0, 1]: the final outcome at the end of the game,
otherwise the squashed evaluation once the turn in progress is complete (plus an
optional short rollout).

Branching factors of hundreds (Akropolis placements) are handled by progressive
widening: a node ranks its moves once by the one-step evaluation of the seat to move,
opens them best first, and with many moves opens only the best few, more as it gathers
visits. A newly opened node is grown to the end of its mover's turn, so a tile just
taken is valued with its best placement, as the greedy bot would value it.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games.bots.evaluation import (
    Evaluate,
    Move,
    MoveKey,
    evaluator_for,
    move_key,
    outcome,
    scale_for,
    squash,
)

DEFAULT_SECONDS = 1.5


@dataclass(frozen=True, slots=True)
class Settings:
    # Small, because evaluations squashed into [0, 1] differ by a few hundredths.
    exploration: float = 0.1
    # Nodes with at most this many moves open all of them; above it, widening applies.
    widen_above: int = 8
    widen_base: int = 3
    # Moves a rollout plays after the turn in progress is finished, before evaluating.
    rollout_plies: int = 0
    # A rollout move is the best of this many random legal moves by one-step evaluation.
    rollout_sample: int = 6
    # Deeper than the bot's own turn, nodes with many moves rank only this many.
    rank_sample: int = 60
    # Points that make a clear lead; None takes the engine's evaluation SCALE.
    scale: float | None = None


@dataclass(slots=True)
class Node:
    mover: int
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[MoveKey, Node] = field(default_factory=dict)
    ranked: list[MoveKey] = field(default_factory=list)
    ranked_for: frozenset[MoveKey] = frozenset()


@dataclass(slots=True)
class Search:
    engine: Any
    view: dict[str, Any]
    seat: int
    rng: random.Random
    evaluate: Evaluate
    scale: float
    players: int
    settings: Settings = Settings()
    root: Node = field(default_factory=lambda: Node(mover=-1))

    def iterate(self) -> None:
        state = self.engine.determinize(self.view, self.seat, self.rng.getrandbits(62))
        node, path = self.root, []
        own_turn = True
        expanded_by: int | None = None
        while not self.engine.is_over(state):
            mover = self._mover(state)
            # A new node is grown through to the end of its mover's turn, so a tile just
            # taken is judged with its best placement, not a random one.
            if expanded_by is not None and mover != expanded_by:
                break
            own_turn = own_turn and mover == self.seat
            moves = {move_key(m): m for m in self.engine.legal_moves(state, mover)}
            keys = self._candidates(node, state, mover, moves, full=own_turn)
            for key in keys:
                if key in node.children:
                    node.children[key].available += 1
            fresh = [k for k in keys if k not in node.children]
            if fresh:
                key = fresh[0]
                node.children[key] = Node(mover=mover, available=1)
                expanded_by = mover
            else:
                key = self._select(node, keys)
            node = node.children[key]
            path.append(node)
            state = self.engine.apply_move(state, mover, moves[key])
        rewards = self._rollout(state, path[-1].mover if path else None)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.mover]

    def best_move(self) -> Move:
        state = self.engine.determinize(self.view, self.seat, 0)
        legal = {move_key(m): m for m in self.engine.legal_moves(state, self.seat)}
        tried = [(c.visits, c.reward, k) for k, c in self.root.children.items() if k in legal]
        if not tried:
            return dict(self.rng.choice(list(legal.values())))
        return dict(legal[max(tried)[2]])

    def _mover(self, state: Any) -> int:
        seats = self.engine.to_move(state)
        return self.seat if self.seat in seats else seats[0]

    def _candidates(
        self, node: Node, state: Any, mover: int, moves: dict[MoveKey, Move], *, full: bool
    ) -> list[MoveKey]:
        """The moves open at `node`, best first by one-step evaluation.

        A node with many moves opens only the best few, more as it gathers visits. Moves
        of the bot's own current turn are all ranked; deeper in the tree an evenly spread
        sample is ranked instead, which is cheaper and good enough for the replies. The
        sample depends only on the legal moves, not on the search's random stream, so
        sibling nodes facing the same replies rank the same sample, and comparing the
        siblings is not blurred by replies of unequal quality.
        """
        if node.ranked_for != frozenset(moves):
            keys = list(moves)
            if not full and len(keys) > self.settings.rank_sample:
                step = math.ceil(len(keys) / self.settings.rank_sample)
                keys = keys[::step]
            node.ranked = self._rank(state, mover, {k: moves[k] for k in keys})
            node.ranked_for = frozenset(moves)
        if len(node.ranked) <= self.settings.widen_above:
            return node.ranked
        width = self.settings.widen_base + int(math.sqrt(node.visits))
        return node.ranked[:width]

    def _rank(self, state: Any, mover: int, moves: dict[MoveKey, Move]) -> list[MoveKey]:
        scored = [
            (self.evaluate(self.engine.apply_move(state, mover, move), mover), key)
            for key, move in moves.items()
        ]
        scored.sort(key=lambda item: -item[0])
        return [key for _, key in scored]

    def _select(self, node: Node, keys: list[MoveKey]) -> MoveKey:
        def ucb(key: MoveKey) -> float:
            child = node.children[key]
            mean = child.reward / child.visits if child.visits else 1.0
            return mean + self.settings.exploration * math.sqrt(
                math.log(child.available) / max(child.visits, 1)
            )

        return max(keys, key=ucb)

    def _rollout(self, state: Any, last: int | None) -> list[float]:
        plies = 0
        while not self.engine.is_over(state):
            mover = self._mover(state)
            # The turn in progress is finished first: a position between two steps of a
            # turn (Akropolis: tile taken, not yet placed) is not worth judging.
            if plies >= self.settings.rollout_plies and mover != last:
                break
            state = self.engine.apply_move(state, mover, self._rollout_move(state, mover))
            last = mover
            plies += 1
        if self.engine.is_over(state):
            return outcome(self.engine, state)
        return [squash(self.evaluate(state, s), self.scale) for s in range(self.players)]

    def _rollout_move(self, state: Any, mover: int) -> Move:
        moves = self.engine.legal_moves(state, mover)
        sample = self.rng.sample(moves, min(self.settings.rollout_sample, len(moves)))
        return max(
            sample, key=lambda m: self.evaluate(self.engine.apply_move(state, mover, m), mover)
        )


def choose(
    engine: Any,
    view: dict[str, Any],
    seat: int,
    *,
    seed: int,
    seconds: float | None = None,
    iterations: int | None = None,
    settings: Settings | None = None,
) -> Move:
    """Search for `iterations` (reproducible for a seed) or for `seconds` of wall time."""
    players = len(engine.scores(engine.determinize(view, seat, seed))["totals"])
    search = Search(
        engine=engine,
        players=players,
        view=view,
        seat=seat,
        rng=random.Random(seed),
        evaluate=evaluator_for(engine),
        scale=(settings and settings.scale) or scale_for(engine),
        settings=settings or Settings(),
    )
    if iterations is not None:
        for _ in range(iterations):
            search.iterate()
    else:
        deadline = time.perf_counter() + (DEFAULT_SECONDS if seconds is None else seconds)
        search.iterate()
        while time.perf_counter() < deadline:
            search.iterate()
    return search.best_move()
