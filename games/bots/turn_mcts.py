"""Information-set MCTS over whole turns, the search behind the `hard` level.

A turn may take several moves by one seat (Akropolis: take a tile, then place it, with hundreds
of placements). Searching move by move spends the whole budget inside the bot's first turn, so
this search treats a complete turn as one action ("macro-action"):

* Every iteration samples a determinization of the hidden information from the bot's own view
  (`engine.determinize(view, seat, seed)`), never the true state, and walks one tree grown for
  the bot's information set (Cowling, Powley and Whitehouse, 2012).
* Tree nodes are the bot's own decision points; a node's children are whole turns, ranked by
  the evaluation after the turn. Only the best few are open, more as the node gathers visits
  (progressive widening); UCB counts how often a child was *available*, as after a refill of
  hidden tiles the legal turns differ between determinizations.
* Opponents are not tree nodes: they play their best turn by their own evaluation (as the
  greedy bot does). The tree is then deep enough to see the bot's next turns and what the
  opponents' replies leave for it.
* After `depth` own turns (or at a newly opened child) and the replies that follow, the
  position is evaluated; the evaluation, squashed into [0, 1], is the reward, and a finished
  game gives its real outcome; or, `centred`, both are squashed relative to the value of the
  root's best turn.

Rankings, the expensive step, are cached per information set of the mover. A game's bot
knowledge (`registry.BotKnowledge`) may speed them up with two helpers beside `evaluate`:

* `information_key(state, seat) -> Hashable`: equal for states that look the same to
  `seat`; by default the canonical JSON of `engine.view(state, seat)`.
* `turns(state, seat, limit) -> list[(value, moves)]`: the best complete turns of `seat`,
  best first, valued like `evaluate` after the turn (default: through `legal_moves`).

It may set `SEARCH`, the `Settings` fields that suit its game (a wider root, a deeper line),
and `choice(move) -> Hashable | None`, what a turn's first move chooses (None: the move
itself), for the `spread` setting.

The opponents are modelled with `evaluate`, the judgement the greedy bot plays by. The bot
may judge its own positions with more: a module's optional `outlook(state, seat)` (in
`evaluate`'s points) also counts what a position promises, at a cost the greedy bot need
not pay. It judges the search's leaves and ranks the bot's own turns, through
`outlook_turns(state, seat, limit)` if the module has one (valued by `outlook`).

A search decides a whole turn, so the rest of the chosen turn is remembered: when the bot's
next view is exactly the one the plan expected (no hidden draw revealed anything new), its
next move is the plan's, without a new search. Any other view is searched.
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from games.bots.evaluation import (
    Evaluate,
    Move,
    MoveKey,
    canonical_json,
    evaluator_for,
    knowledge_for,
    move_key,
    outcome,
    scale_for,
    score_difference,
    squash,
)
from games.engines.base import Engine, IllegalMove

DEFAULT_SECONDS = 1.5
# The clock of a search's deadline: wall time, as a member waits; the arena's `--cpu-clock`
# sets its process's CPU time, so that on a shared machine a budget buys what an idle core's does.
clock: Callable[[], float] = time.perf_counter
# Leaf positions one turn enumeration may evaluate before deeper steps are cut off;
# Akropolis needs (site size) x (placements), a few thousand at most.
TURN_LEAVES = 20_000

# Remembered plans (each later step of a chosen turn, by the view it expects): a few games' worth.
PLANS_KEPT = 256

TurnKey = tuple[MoveKey, ...]
InformationKey = Callable[[Any, int], Hashable]
TurnLister = Callable[[Any, int, int], list[tuple[float, list[Move]]]]
Choice = Callable[[Move], Hashable | None]


@dataclass(frozen=True, slots=True)
class Settings:
    # Evaluations squashed into [0, 1] differ by a few hundredths between good turns.
    exploration: float = 0.1
    # Turns open at an unvisited node: more at the root, where the decision is made, than deeper.
    root_width: int = 5
    width: int = 2
    # Extra open turns per square root of the node's visits.
    widen: float = 0.5
    # Own turns along one line before the position is judged.
    depth: int = 2
    # Turns kept from each ranking; more than any node ever opens.
    keep: int = 12
    # The bot's own turns read from its lister before `keep` are chosen: the best turn of
    # each first step (or of each `choice` of the module's, below) comes first, then the
    # rest by value. The best turns by value often share one first step (Akropolis: a dozen
    # placements of one tile), so the search never weighs the others. 0: the best by value.
    spread: int = 0
    # Determinizations come from this many seeds, so rankings after a refill are kept per seed.
    samples: int = 8
    # Points that make a clear lead; None takes the engine's evaluation SCALE.
    scale: float | None = None
    # Squash leaves (a finished game too, by its score difference) relative to the root's
    # best turn, not to an even game: far behind or ahead, turns still differ.
    centred: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    key: TurnKey
    moves: tuple[Move, ...]
    value: float


@dataclass(slots=True)
class Node:
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[TurnKey, Node] = field(default_factory=dict)


@dataclass(slots=True)
class Search:
    engine: Engine
    view: dict[str, Any]
    seat: int
    rng: random.Random
    scale: float
    information_key: InformationKey
    list_turns: TurnLister
    # The bot's own judgement (`outlook`, else `evaluate`) and its own turns ranked by it;
    # the opponents' replies come from `list_turns`, valued by `evaluate`.
    own_evaluate: Evaluate
    own_turns: TurnLister
    # What a turn's first move chooses, for `spread` (None, or its None: the move itself).
    choice: Choice | None = None
    settings: Settings = Settings()
    root: Node = field(default_factory=Node)
    rankings: dict[Hashable, list[Turn]] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    iterations: int = 0
    # The whole turns opened at the root, by key: what a remembered plan is made of.
    root_turns: dict[TurnKey, Turn] = field(default_factory=dict)
    # How many turns the root's ranking holds (its information set is the bot's own, so
    # every determinization ranks the same turns): one means there is nothing to decide.
    root_choices: int = 0
    # Where a centred search squashes from: the value of the root's best turn.
    origin: float = 0.0

    def iterate(self) -> None:
        if not self.seeds:
            self.seeds = [self.rng.getrandbits(62) for _ in range(self.settings.samples)]
        seed = self.seeds[self.iterations % len(self.seeds)]
        state = self.engine.determinize(self.view, self.seat, seed)
        node, path = self.root, [self.root]
        own_turns = 0
        while not self.engine.is_over(state):
            mover = self._mover(state)
            if mover != self.seat:
                state = self._play(state, mover, self._ranked(state, mover)[0])
                continue
            if own_turns >= self.settings.depth:
                break
            ranked = self._ranked(state, mover)
            if node is self.root and not self.root_choices:
                self.root_choices = len(ranked)
                if self.settings.centred and ranked:
                    self.origin = ranked[0].value
            width = self.settings.root_width if node is self.root else self.settings.width
            width += int(self.settings.widen * math.sqrt(node.visits))
            open_turns = ranked[:width]
            for turn in open_turns:
                if turn.key in node.children:
                    node.children[turn.key].available += 1
            fresh = [t for t in open_turns if t.key not in node.children]
            if fresh:
                turn = fresh[0]
                node.children[turn.key] = Node(available=1)
                if node is self.root:
                    self.root_turns[turn.key] = turn
                # A new child is judged after the replies to it, not searched deeper.
                own_turns = self.settings.depth
            else:
                turn = self._select(node, open_turns)
                own_turns += 1
            node = node.children[turn.key]
            path.append(node)
            state = self._play(state, mover, turn)
        reward = self._reward(state)
        for visited in path:
            visited.visits += 1
            visited.reward += reward
        self.iterations += 1

    @property
    def root_seed(self) -> int:
        """The seed of the determinization the root's turns were ranked in (the first
        iteration's): a turn's later steps may rest on what its earlier ones drew there, so
        a remembered plan expects those draws."""
        return self.seeds[0] if self.seeds else 0

    def best_move(self) -> Move:
        """The first move of the most visited turn (the best mean among equals)."""
        return dict(self.best_turn()[0])

    def best_turn(self) -> tuple[Move, ...]:
        """The moves of the most visited turn (the best mean among equals).

        Every turn at the root was ranked in a determinization of the bot's own view, and
        a seat's legal moves depend only on its view (the engine protocol suite checks
        it), so the first move of each is legal here without listing the legal moves
        again: that listing (thousands of placements in Babylon) would run after the
        search's deadline."""
        tried = [
            (child.visits, child.reward / child.visits, key)
            for key, child in self.root.children.items()
            if child.visits
        ]
        if not tried:
            state = self.engine.determinize(self.view, self.seat, self.root_seed)
            return self._ranked(state, self.seat)[0].moves
        # Ties on visits and mean go to the turn tried first: turn keys may mix tuples and
        # JSON strings, which do not compare with each other.
        best = max(tried, key=lambda entry: (entry[0], entry[1]))
        return self.root_turns[best[2]].moves

    def decided(self, remaining: float) -> bool:
        """True when `remaining` more iterations could not change the most visited turn."""
        visits = sorted((c.visits for c in self.root.children.values()), reverse=True)
        if len(visits) < 2:
            if self.root_choices == 1:
                return True
            return bool(visits) and self.iterations >= self.settings.samples
        return visits[0] - visits[1] > remaining

    def _mover(self, state: Any) -> int:
        seats = self.engine.to_move(state)
        return self.seat if self.seat in seats else seats[0]

    def _ranked(self, state: Any, mover: int) -> list[Turn]:
        """The mover's best turns, best first, shared by states of one information set."""
        key = (mover, self.information_key(state, mover))
        ranked = self.rankings.get(key)
        if ranked is None:
            spread = self.settings.spread if mover == self.seat else 0
            ranked = [
                Turn(tuple(move_key(m) for m in moves), tuple(moves), value)
                for value, moves in self._lister(mover)(
                    state, mover, max(spread, self.settings.keep)
                )
            ]
            if spread:
                ranked = first_steps_first(ranked, self.choice)
            ranked = ranked[: self.settings.keep]
            self.rankings[key] = ranked
        return ranked

    def _play(self, state: Any, mover: int, turn: Turn) -> Any:
        """Play a ranked turn; if a hidden draw inside it made a step illegal, finish the
        turn with the mover's best completion in this determinization instead."""
        for move in turn.moves:
            if self.engine.is_over(state) or self._mover(state) != mover:
                return state
            # The engine refuses an illegal move and changes nothing (the protocol), which
            # is far cheaper than listing every legal move to look this one up.
            try:
                state = self.engine.apply_move(state, mover, move)
            except IllegalMove:
                return self._finish(state, mover)
        return state

    def _finish(self, state: Any, mover: int) -> Any:
        while not self.engine.is_over(state) and self._mover(state) == mover:
            moves = self._lister(mover)(state, mover, 1)[0][1]
            state = self.engine.apply_move(state, mover, moves[0])
        return state

    def _lister(self, mover: int) -> TurnLister:
        return self.own_turns if mover == self.seat else self.list_turns

    def _select(self, node: Node, turns: list[Turn]) -> Turn:
        def ucb(turn: Turn) -> float:
            child = node.children[turn.key]
            mean = child.reward / child.visits if child.visits else 1.0
            return mean + self.settings.exploration * math.sqrt(
                math.log(max(child.available, 1)) / max(child.visits, 1)
            )

        return max(turns, key=ucb)

    def _reward(self, state: Any) -> float:
        points = self._points(state)
        if self.engine.is_over(state) and not self.settings.centred:
            return outcome(self.engine, state)[self.seat]
        return squash(points - self.origin, self.scale)

    def _points(self, state: Any) -> float:
        """The leaf's estimated final score difference (the real one once it is over)."""
        if self.engine.is_over(state):
            return score_difference(self.engine, state, self.seat)
        return self.own_evaluate(state, self.seat)


def first_steps_first(ranked: list[Turn], choice: Choice | None = None) -> list[Turn]:
    """The best turn of each first step (or its `choice`), best first, then the rest."""
    leaders: list[Turn] = []
    others: list[Turn] = []
    seen: set[Hashable] = set()
    for turn in ranked:
        step = None if choice is None else choice(turn.moves[0])
        step = turn.key[0] if step is None else step
        (others if step in seen else leaders).append(turn)
        seen.add(step)
    return leaders + others


def enumerate_turns(engine: Engine, evaluate: Evaluate) -> TurnLister:
    """The generic turn lister: every complete turn through the protocol, best first."""

    def best_turns(state: Any, seat: int, limit: int) -> list[tuple[float, list[Move]]]:
        found: list[tuple[float, list[Move]]] = []
        budget = [TURN_LEAVES]

        def walk(current: Any, moves: list[Move]) -> None:
            for move in engine.legal_moves(current, seat):
                after = engine.apply_move(current, seat, move)
                line = [*moves, move]
                over = engine.is_over(after)
                if over or engine.to_move(after) != [seat] or budget[0] <= 0:
                    budget[0] -= 1
                    found.append((evaluate(after, seat), line))
                else:
                    walk(after, line)

        walk(state, [])
        # Stable sort: among equal values the engine's own move order decides.
        found.sort(key=lambda item: -item[0])
        return found[:limit]

    return best_turns


def view_key(engine: Engine) -> InformationKey:
    """The generic information key: what the seat sees, as canonical JSON."""

    def key(state: Any, seat: int) -> Hashable:
        return canonical_json(engine.view(state, seat))

    return key


_plans: OrderedDict[tuple[str, int, str], Move] = OrderedDict()


def choose(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    *,
    seed: int,
    seconds: float | None = None,
    iterations: int | None = None,
    settings: Settings | None = None,
) -> Move:
    """Search for `iterations` (reproducible for a seed) or for `seconds` of wall time;
    the next step of a turn already decided is taken from its plan."""
    planned = _plans.pop(_plan_key(engine, view, seat), None)
    if planned is not None and _allowed(engine, view, seat, planned):
        return dict(planned)
    found = search(
        engine, view, seat, seed=seed, seconds=seconds, iterations=iterations, settings=settings
    )
    moves = found.best_turn()
    _remember(engine, view, seat, moves, found.root_seed)
    return dict(moves[0])


def forget_plans() -> None:
    """Drop every remembered plan (tests start from a clean slate)."""
    _plans.clear()


def _plan_key(engine: Engine, view: dict[str, Any], seat: int) -> tuple[str, int, str]:
    return (str(engine.slug), seat, canonical_json(view))


def _remember(
    engine: Engine, view: dict[str, Any], seat: int, moves: tuple[Move, ...], seed: int
) -> None:
    """Keep each later step of the turn `moves` starts, under the view it expects: the
    view in the determinization (of `view`, by `seed`) the turn was found in, as a step
    after a hidden draw rests on what was drawn there. Other real draws are searched."""
    state = engine.determinize(view, seat, seed)
    for done, move in enumerate(moves[:-1]):
        try:
            state = engine.apply_move(state, seat, dict(move))
        except IllegalMove:
            return
        if engine.is_over(state) or seat not in engine.to_move(state):
            return
        _plans[_plan_key(engine, engine.view(state, seat), seat)] = moves[done + 1]
    while len(_plans) > PLANS_KEPT:
        _plans.popitem(last=False)


def _allowed(engine: Engine, view: dict[str, Any], seat: int, move: Move) -> bool:
    """The engine's own check of a planned step, in a determinization of the view (a seat's
    legal moves depend on its view alone), instead of listing every legal move."""
    try:
        engine.apply_move(engine.determinize(view, seat, 0), seat, dict(move))
    except IllegalMove:
        return False
    return True


def settings_for(engine: Engine) -> Settings:
    """The default settings with the engine's own `SEARCH` overrides."""
    overrides = knowledge_for(engine).SEARCH
    known = {f.name for f in fields(Settings)}
    unknown = set(overrides) - known
    if unknown:
        raise ValueError(f"unknown search settings {sorted(unknown)} for {engine.slug}")
    return replace(Settings(), **overrides)


def search(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    *,
    seed: int,
    seconds: float | None = None,
    iterations: int | None = None,
    settings: Settings | None = None,
) -> Search:
    found = prepare(engine, view, seat, seed=seed, settings=settings)
    if iterations is not None:
        for done in range(iterations):
            # The rest could not change the most visited turn: the same choice, sooner.
            if found.decided(iterations - done):
                break
            found.iterate()
        return found
    started = clock()
    deadline = started + (DEFAULT_SECONDS if seconds is None else seconds)
    found.iterate()
    slowest = clock() - started
    # An iteration that ranks new positions can take a tenth of a second or more, so
    # none starts unless the slowest one so far would still end before the deadline.
    while (now := clock()) + slowest < deadline:
        # Stop early once the most visited turn cannot be overtaken in the time left,
        # at the rate iterations have run so far: more search could not change the move.
        rate = found.iterations / max(now - started, 1e-9)
        if found.decided(rate * (deadline - now)):
            break
        found.iterate()
        slowest = max(slowest, clock() - now)
    return found


def prepare(
    engine: Engine,
    view: dict[str, Any],
    seat: int,
    *,
    seed: int,
    settings: Settings | None = None,
    kind: type[Search] = Search,
) -> Search:
    """A search of `seat`'s view with the engine's helpers, before its first iteration
    (`kind`: a subclass that records more, like the review's)."""
    settings = settings or settings_for(engine)
    evaluate = evaluator_for(engine)
    knowledge = knowledge_for(engine)
    information_key = knowledge.information_key or view_key(engine)
    list_turns = knowledge.turns or enumerate_turns(engine, evaluate)
    outlook = knowledge.outlook
    own_turns = list_turns
    if outlook is not None:
        own_turns = knowledge.outlook_turns or enumerate_turns(engine, outlook)
    return kind(
        engine=engine,
        view=view,
        seat=seat,
        rng=random.Random(seed),
        scale=settings.scale or scale_for(engine),
        information_key=information_key,
        list_turns=list_turns,
        own_evaluate=outlook or evaluate,
        own_turns=own_turns,
        choice=knowledge.choice,
        settings=settings,
    )
