"""What a Tower of Babel seat's holdings are likely to be worth at the end, as they stand
(no build in progress): the static part of the bots' evaluation (`evaluate.py`).

Worth that depends on the future shrinks as the game nears its end (some type running out
of discs); `Context` holds what it depends on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.bots import memo
from games.engines.tower_of_babel import data
from games.engines.tower_of_babel.scoring import disc_set_bonus, set_bonus, wonder_awards
from games.engines.tower_of_babel.state import State

# Share of the gap between "3 for taking part" and the current majority's award that a
# seat is credited with, by the number of discs still on the wonder (more: the last entry).
CONFIDENCE = (0.8, 0.55, 0.35)
# A building card while builds of its type remain, at the start of the game.
CARD = 1.3
# A card of a type no disc on the board needs any more.
DEAD_CARD = 0.1
# A begun set (one disc of a type) while discs of that type remain.
BEGUN_SET = 1.5
# The hard bot's outlook on sets (`Weights.hope`): share of the bonus the next disc
# of a begun type would add, while discs of that type remain, at the start of the game.
# Chosen by matches of a greedy bot judging by this outlook against three plain greedy
# bots (200 four-player games each, seats rotated): it won 25% with 0.3, 34% with 0.5,
# 33% with 0.7 and with 1.0, 44% (and 42% on other seeds) with 1.5, 35% with 2.0.
SET_HOPE = 1.5
# The outlook's `CONFIDENCE`: a majority on an unfinished wonder is less sure than the greedy
# judgement takes it to be. Chosen by the same matches (docs/benchmarks.md, "Bot matches",
# 8 December 2026).
OUTLOOK_CONFIDENCE = (0.5, 0.3, 0.2)
# Action cards whose worth is their use, at the start of the game.
ACTION_USE = {
    data.CARD_EXCHANGE: 1.0,
    data.JOKER: 3.0,
    data.OFFER_BONUS: 3.0,
    data.DRAW_THREE: 3.5,
    data.DOUBLE_TURN: 2.5,
}
# Discs a seat may still collect, for the disc bonus card, at the start of the game.
MORE_DISCS = 3.0


@memo.releasing
@lru_cache(maxsize=4096)
def _board(wonders: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Discs on the board needing each type, and the cards they need of each type."""
    counts = [0, 0, 0, 0]
    demand = [0, 0, 0, 0]
    for discs in wonders:
        for disc in discs:
            needs = data.DISCS[disc]
            for k in range(4):
                if needs[k]:
                    counts[k] += 1
                    demand[k] += needs[k]
    return tuple(counts), tuple(demand)


@dataclass(frozen=True, slots=True)
class Weights:
    """How a judgement weighs what holdings may lead to.

    `hope`: with it (the hard bot's outlook, `SET_HOPE`), every begun set is also credited
    with that share of what its next disc would add, instead of the flat `BEGUN_SET` for a
    single disc: the greedy bot judges sets as they stand, the hard bot by where they lead.
    `confidence`: how much of a current majority on an unfinished wonder is counted on, by
    the discs still on it (`CONFIDENCE`).
    """

    hope: float = 0.0
    confidence: tuple[float, ...] = CONFIDENCE


# The greedy bot's judgement (and the hard bot's model of the other seats), and the hard bot's.
PLAIN = Weights()
OUTLOOK = Weights(SET_HOPE, OUTLOOK_CONFIDENCE)


class Context:
    """What the worth of holdings depends on: how much of the game is left, which types the
    board still needs, and the judgement's `Weights`."""

    __slots__ = ("left", "values", "open_types", "hope", "confidence")

    def __init__(
        self,
        wonders: tuple[tuple[int, ...], ...],
        two_type_discs: bool,
        weights: Weights = PLAIN,
    ) -> None:
        self.hope = weights.hope
        self.confidence = weights.confidence
        counts, demand = _board(wonders)
        # 1 at the start, towards 0 as the type with fewest discs on the board runs out.
        self.left = min(counts) / (7 if two_type_discs else 6)
        live = CARD * min(1.0, 0.25 + self.left)
        self.values = [live if demand[k] else DEAD_CARD for k in range(4)]
        self.open_types = [demand[k] > 0 for k in range(4)]

    def hand(self, cards: Sequence[int]) -> float:
        v = self.values
        return cards[0] * v[0] + cards[1] * v[1] + cards[2] * v[2] + cards[3] * v[3]

    def sets(self, discs: tuple[int, ...]) -> float:
        value = float(disc_set_bonus(discs))
        counts = [0, 0, 0, 0]
        for disc in discs:
            for k, needed in enumerate(data.DISC_TYPES[disc]):
                counts[k] += needed
        for k in range(4):
            held = counts[k]
            if not held or not self.open_types[k]:
                continue
            if self.hope:
                value += self.hope * (set_bonus(held + 1) - set_bonus(held)) * self.left
            elif held == 1:
                value += BEGUN_SET * self.left
        return value

    def actions(self, kinds: tuple[str, ...], discs: int) -> float:
        value = 0.0
        for kind in kinds:
            if kind == data.FIVE_POINTS:
                value += data.FIVE_POINTS_VALUE
            elif kind == data.DISC_BONUS:
                value += data.DISC_BONUS_PER_DISC * (discs + MORE_DISCS * self.left)
            else:
                value += ACTION_USE[kind] * self.left
        return value


def context(state: State, weights: Weights = PLAIN) -> Context:
    return Context(state.wonders, state.options.two_type_discs, weights)


def wonder_estimate(
    units: tuple[int, ...] | list[int],
    remaining: int,
    completed: int,
    confidence: tuple[float, ...] = CONFIDENCE,
) -> list[float] | None:
    """A seat's likely points from an unfinished wonder (None when nobody built there)."""
    if not any(units):
        return None
    row = data.WONDER_ROWS[min(completed + remaining - 1, len(data.WONDER_ROWS) - 1)]
    awards = wonder_awards(tuple(units), row)
    c = confidence[min(remaining, len(confidence)) - 1]
    others = data.OTHERS_POINTS
    return [others + c * (a - others) if u else 0.0 for a, u in zip(awards, units, strict=True)]


def wonder_shares(
    state: State, completed: int, confidence: tuple[float, ...] = CONFIDENCE, skip: int = -1
) -> list[float]:
    result = [0.0] * state.players
    for i, (discs, units) in enumerate(zip(state.wonders, state.units, strict=True)):
        if discs and i != skip:
            shares = wonder_estimate(units, len(discs), completed, confidence)
            if shares is not None:
                for s in range(state.players):
                    result[s] += shares[s]
    return result


def estimates(state: State, weights: Weights = PLAIN) -> list[float]:
    ctx = context(state, weights)
    result = wonder_shares(state, state.completed, ctx.confidence)
    for s in range(state.players):
        result[s] += (
            state.wonder_points[s]
            + state.offer_points[s]
            + ctx.sets(state.discs[s])
            + ctx.hand(state.hands[s])
            + ctx.actions(state.actions[s], len(state.discs[s]))
        )
    return result
