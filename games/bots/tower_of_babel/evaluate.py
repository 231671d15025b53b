"""How good a Tower of Babel position is for one seat, for the bots (`games/bots/`).

`evaluate(state, seat)` is the seat's estimated final score minus the best estimate
among the other seats, in points. A seat's estimate is its score so far plus what its
holdings are likely to be worth at the end (`estimates`, in `estimates.py`):

* building parts on an unfinished wonder: the 3 points any participant is sure of, plus
  part of the difference to what the current majorities would pay, more the closer the
  wonder is to completion, on the row it is likely to be scored with;
* collected discs: their set bonus as it stands (discs never leave), plus a little for a
  type begun while discs of that type remain;
* building cards: each card can still earn points (a rejected offer pays for it and it
  comes back) or parts, while builds of its type remain;
* action cards: 5 points and the disc bonus at their final value, the others by use.

Worth that depends on the future shrinks as the game nears its end (some type running
out of discs). A finished game is judged by its real scores.

A position inside a build (offers open, or offers revealed) is judged after the build:
the players still to offer offer by a simple rule (`policy_offer`), and the active
player takes the choice that is best for him by the same estimates (`best_choice`).
That is how the greedy bot values its build and offer moves. Since the hands that decide
the build are hidden from the judging seat, the build is judged over a few fresh deals of
them (`resampled`). Everything is read from the state it is given, which for a bot is a
determinization of its own view.

The hard bot judges its own positions by `outlook`: `evaluate` with every begun set also
valued by where it may lead (a share of what the next disc of its type would add), and a
current majority on an unfinished wonder counted on for less of its award, for every seat
alike. The greedy bot, and the hard bot's model of its opponents, judge sets as they stand
and majorities at `CONFIDENCE`.

Optional helpers serve the whole-turn search of `games/bots/turn_mcts.py`:
`information_key` (what a seat can see), `turns` (a seat's best complete turns) and
`outlook_turns` (the same, valued by `outlook`). `turn_values` gives the greedy bot the
value of the best turn each move starts, with the card exchanges narrowed as `turns`
narrows them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from games.bots.tower_of_babel.estimates import (
    ACTION_USE,
    OUTLOOK,
    PLAIN,
    Context,
    Weights,
    context,
    estimates,
    wonder_estimate,
    wonder_shares,
)
from games.engines.base import Rng
from games.engines.tower_of_babel import data, table
from games.engines.tower_of_babel.engine import accept_options
from games.engines.tower_of_babel.scoring import disc_set_bonus, scores, wonder_awards
from games.engines.tower_of_babel.state import (
    OFFERS,
    OVER,
    RESOLVE,
    Cards,
    Offer,
    State,
    cards_from_json,
    cards_to_json,
)

Judge = Callable[[State, int], float]

# Points that make a clear lead; MCTS squashes evaluations with it.
SCALE = 4.0
# The post-game review marks a decision that cost this many points (estimated) as a small,
# then a large loss (games/bots/advice.py).
REVIEW_THRESHOLDS = (1.0, 3.0)
# Deals of the hidden hands a position inside a build is judged with (see `resampled`).
SAMPLES = 4
# Turns the whole-turn search may consider at a decision: the best few by `evaluate`. This is
# also the model of the other seats (`turns`): a greedy player picks among its best.
SEARCH_WIDTH = 3
# The hard bot's own turns (`outlook_turns`): its searches mostly settled before the budget
# choosing among three. Six, paired with three on the same deals (docs/benchmarks.md, "Bot
# matches"): +6.5 wins in 100 games at 200 iterations (27 November), +15.7 in 134 at the
# site's 1.3 s (3 December, 95% interval +3.7 to +27.7).
OWN_SEARCH_WIDTH = 6
# The whole-turn search (games/bots/turn_mcts.py) squashes its leaves relative to the root's
# best turn: with four players the bot's estimate is often a dozen points off the best
# other's, where the plain squash would hide what its turns change.
SEARCH = {"centred": True}

# The rule offers of players still to offer: the trading card goes with an offer when the
# disc would raise the offerer's set bonus by at least this much.
TRADE_FOR_SET_GAIN = 5


def evaluate(state: State, seat: int) -> float:
    return _judged(state, seat, PLAIN)


def outlook(state: State, seat: int) -> float:
    """The hard bot's judgement (`games/bots/turn_mcts.py`): `evaluate`, with every begun
    set also valued by where it may lead (`SET_HOPE`) and a majority on an unfinished wonder
    counted on less (`OUTLOOK_CONFIDENCE`), for every seat alike (`estimates.OUTLOOK`). A
    build in progress is settled by the same rules as in `evaluate`, judged with this
    outlook."""
    return _judged(state, seat, OUTLOOK)


def _judged(state: State, seat: int, weights: Weights) -> float:
    samples = resampled(state, seat)
    return sum(_relative(settled_estimates(s, weights), seat) for s in samples) / len(samples)


def resampled(state: State, seat: int) -> list[State]:
    """Inside a build, the position judged with the hands that decide it dealt again.

    The players still to offer and the active player decide how the build ends, and `seat`
    cannot see their hands; one sampled deal (a bot's determinization) would make the
    judgement hang on luck. So those hands and the deck are shuffled together and dealt
    again in the same sizes, `SAMPLES` times from a fixed seed (the same for every move
    compared at one decision), and the judgements are averaged. Nothing `seat` can see
    changes, so nothing hidden leaks in.
    """
    if state.phase not in (OFFERS, RESOLVE) or SAMPLES <= 1:
        return [state]
    assert state.build is not None
    hidden = [s for s in state.build.waiting if s != seat] if state.phase == OFFERS else []
    if state.active != seat:
        hidden.append(state.active)
    if not hidden:
        return [state]
    pool = list(state.deck)
    for s in hidden:
        pool.extend(k for k in range(4) for _ in range(state.hands[s][k]))
    result = []
    for sample in range(SAMPLES):
        rng = Rng.from_seed(state.turn * 1_000_003 + seat * 1_009 + sample)
        cards, _ = rng.shuffle(pool)
        hands = list(state.hands)
        at = 0
        for s in hidden:
            size = sum(state.hands[s])
            dealt = [0, 0, 0, 0]
            for card in cards[at : at + size]:
                dealt[card] += 1
            at += size
            hands[s] = (dealt[0], dealt[1], dealt[2], dealt[3])
        result.append(replace(state, hands=tuple(hands), deck=tuple(cards[at:])))
    return result


def _relative(values: list[float], seat: int) -> float:
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - (max(others) if others else 0.0)


def settled_estimates(state: State, weights: Weights = PLAIN) -> list[float]:
    """Estimates per seat; inside a build, after the build as the rules above play it."""
    if state.phase == OVER:
        return [float(t) for t in scores(state)["totals"]]
    if state.phase == OFFERS:
        state = with_policy_offers(state)
    if state.phase == RESOLVE:
        return best_choice(state, weights)[1]
    return estimates(state, weights)


# --- inside a build ---------------------------------------------------------------------


def policy_offer(state: State, seat: int) -> Offer:
    """A rule offer: every card of the needed types up to the disc's numbers, with the
    trading card when the disc would grow the seat's sets enough (and with the offer
    bonus card, if held, when the offer has three cards or more)."""
    assert state.build is not None
    needs = data.DISCS[state.build.disc]
    hand = state.hands[seat]
    cards = (
        min(needs[0], hand[0]),
        min(needs[1], hand[1]),
        min(needs[2], hand[2]),
        min(needs[3], hand[3]),
    )
    size = sum(cards)
    if not size:
        return Offer((0, 0, 0, 0))
    discs = state.discs[seat]
    gain = disc_set_bonus((*discs, state.build.disc)) - disc_set_bonus(discs)
    bonus = size >= 3 and data.OFFER_BONUS in state.actions[seat]
    return Offer(cards, gain >= TRADE_FOR_SET_GAIN, bonus)


def with_policy_offers(state: State) -> State:
    """The build with every missing offer made by `policy_offer` (phase resolve)."""
    assert state.build is not None
    for seat in state.build.waiting:
        state = table.make_offer(state, seat, policy_offer(state, seat))
    return state


def best_choice(state: State, weights: Weights = PLAIN) -> tuple[dict[str, Any], list[float]]:
    """The active player's best accept or abandon in the resolve step, by his estimates,
    with the estimates it leads to (judged before the end-of-turn draws, which are the
    same whatever he chooses)."""
    active = state.active
    best_move: dict[str, Any] = {"type": "abandon"}
    best = estimates(table.abandon(state, finish=False), weights)
    best_value = _relative(best, active)
    for (seats, jokers), values in zip(*choice_estimates(state, weights), strict=True):
        value = _relative(values, active)
        if value > best_value:
            best_value, best = value, values
            best_move = {"type": "accept", "offers": list(seats), "jokers": cards_to_json(jokers)}
    return best_move, best


def choice_estimates(
    state: State, weights: Weights = PLAIN
) -> tuple[list[tuple[tuple[int, ...], Cards]], list[list[float]]]:
    """Every accept of the resolve step with the estimates right after it: what
    `estimates(table.accept(state, seats, jokers, finish=False))` gives (the exact scores
    when the build ends the game), worked out from the parts that change."""
    options = accept_options(state)
    build = state.build
    assert build is not None
    index = build.wonder - 1
    after = list(state.wonders)
    after[index] = tuple(d for d in after[index] if d != build.disc)
    if table.game_ends(after):
        totals = [
            [float(t) for t in scores(table.accept(state, seats, jokers, finish=False))["totals"]]
            for seats, jokers in options
        ]
        return options, totals
    n = state.players
    active = state.active
    ctx = Context(tuple(after), state.options.two_type_discs, weights)
    completes = not after[index]
    completed = state.completed + completes
    needs = data.DISCS[build.disc]
    base = wonder_shares(state, completed, ctx.confidence, skip=index)
    sets = [ctx.sets(state.discs[s]) for s in range(n)]
    for s in range(n):
        base[s] += (
            state.wonder_points[s]
            + state.offer_points[s]
            + sets[s]
            + ctx.hand(state.hands[s])
            + ctx.actions(state.actions[s], len(state.discs[s]))
        )
    taken_sets = [ctx.sets((*state.discs[s], build.disc)) - sets[s] for s in range(n)]
    disc_bonus = [
        state.actions[s].count(data.DISC_BONUS) * data.DISC_BONUS_PER_DISC for s in range(n)
    ]
    joker_worth = ACTION_USE[data.JOKER] * ctx.left
    drawn = None
    if completes and state.options.use_action_cards and state.action_deck:
        drawn = state.action_deck[0]
    rejected = [(s, o) for s, o in enumerate(build.offers) if o is not None and o.size]
    results = []
    for seats, jokers in options:
        values = list(base)
        units = list(state.units[index])
        taker = active
        got = [0, 0, 0, 0]
        for s in seats:
            offer = build.offers[s]
            assert offer is not None
            for k in range(4):
                got[k] += offer.cards[k]
            if offer.trading_card:
                taker = s
                units[active] += offer.size
            else:
                units[s] += offer.size
        own = [needs[k] - got[k] - data.JOKER_CARDS * jokers[k] for k in range(4)]
        joker_count = jokers[0] + jokers[1] + jokers[2] + jokers[3]
        units[active] += sum(own) + data.JOKER_CARDS * joker_count
        values[active] -= ctx.hand(own) + joker_worth * joker_count
        values[taker] += taken_sets[taker] + disc_bonus[taker]
        for s, offer in rejected:
            if s not in seats:
                per_card = (
                    data.OFFER_BONUS_POINTS if offer.offer_bonus else data.REJECTED_OFFER_POINTS
                )
                values[s] += per_card * offer.size + ctx.hand(offer.cards)
        if completes:
            awards = wonder_awards(tuple(units), data.WONDER_ROWS[state.completed])
            for s in range(n):
                values[s] += awards[s]
            if drawn is not None:
                held = len(state.discs[active]) + (taker == active)
                values[active] += ctx.actions((drawn,), held)
        else:
            shares = wonder_estimate(units, len(after[index]), completed, ctx.confidence)
            if shares is not None:
                for s in range(n):
                    values[s] += shares[s]
        results.append(values)
    return options, results


# --- helpers for the whole-turn search --------------------------------------------------


def information_key(state: State, seat: int) -> Hashable:
    """Equal for states that look the same to `seat` (its view, without building it)."""
    build = state.build
    offers: tuple[Any, ...] = ()
    if build is not None:
        offers = tuple(
            o if (state.phase != OFFERS or s == seat) else (s in build.waiting)
            for s, o in enumerate(build.offers)
        )
        sizes = tuple(
            sum(h) + (o.size if o is not None and state.phase == OFFERS and s != seat else 0)
            for s, (h, o) in enumerate(zip(state.hands, build.offers, strict=True))
        )
    else:
        sizes = tuple(sum(h) for h in state.hands)
    return (
        state.phase,
        state.active,
        state.extra_turn,
        state.turn,
        state.wonders,
        state.units,
        state.hands[seat],
        state.actions[seat],
        tuple(len(a) for a in state.actions),
        state.discs,
        state.wonder_points,
        state.offer_points,
        state.discard,
        len(state.deck),
        len(state.action_deck),
        sizes,
        None if build is None else (build.wonder, build.disc, build.waiting),
        offers,
    )


def turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    """`seat`'s best complete turns, best first, valued like `evaluate` after the turn.

    A turn is the moves `seat` makes while the game waits for it alone. To keep the
    search to the decisions that matter, draw three is played at once when held, and a
    card exchange is considered in one form only: up to five cards of types no disc on the
    board needs (`exchange_choice`). Swapping needed cards for unseen ones gains nothing
    the evaluation can see, so it is not considered."""
    return _best_turns(state, seat, min(limit, SEARCH_WIDTH), evaluate)


def outlook_turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    """`turns`, valued by `outlook`, and more of them: the hard bot's own turns."""
    return _best_turns(state, seat, min(limit, OWN_SEARCH_WIDTH), outlook)


def _best_turns(
    state: State, seat: int, limit: int, judge: Judge
) -> list[tuple[float, list[dict[str, Any]]]]:
    found: list[tuple[float, list[dict[str, Any]]]] = []
    _walk(state, seat, [], found, judge)
    found.sort(key=lambda item: -item[0])
    return found[:limit]


def turn_values(state: State, seat: int, moves: list[dict[str, Any]]) -> list[float]:
    """For the greedy bot: each move valued by the best turn it starts, with the rest of
    the turn chosen as `turns` chooses it. Of the card exchanges, only the one `turns`
    considers is valued; the others (up to 125 ways of picking five cards, each followed by
    every build) are left out, which kept a greedy move holding the card to a fraction of a
    second instead of ten."""
    from games.engines.tower_of_babel import ENGINE

    chosen = exchange_choice(state, seat)
    values = []
    for move in moves:
        if move["type"] == "card_exchange" and cards_from_json(move["cards"]) != chosen:
            values.append(-math.inf)
            continue
        after = ENGINE.apply_move(state, seat, move)
        found: list[tuple[float, list[dict[str, Any]]]] = []
        _walk(after, seat, [move], found, evaluate)
        values.append(max((value for value, _ in found), default=evaluate(after, seat)))
    return values


def _walk(
    state: State,
    seat: int,
    line: list[dict[str, Any]],
    found: list[tuple[float, list[dict[str, Any]]]],
    judge: Judge,
) -> None:
    """Every way `seat` may finish the turn `line` began, reaching `state` (as `turns`
    restricts it), valued."""
    from games.engines.tower_of_babel import ENGINE

    if line and (ENGINE.is_over(state) or ENGINE.to_move(state) != [seat] or len(line) >= 4):
        found.append((judge(state, seat), line))
        return
    for move in _search_moves(state, seat):
        _walk(ENGINE.apply_move(state, seat, move), seat, [*line, move], found, judge)


def _search_moves(state: State, seat: int) -> list[dict[str, Any]]:
    from games.engines.tower_of_babel import ENGINE

    held = state.actions[seat]
    if data.DRAW_THREE in held:
        return [{"type": "draw_three"}]
    moves = [
        m
        for m in ENGINE.legal_moves(state, seat)
        if m["type"] not in ("card_exchange", "draw_three")
    ]
    if data.CARD_EXCHANGE in held:
        cards = exchange_choice(state, seat)
        if cards is not None:
            moves.append({"type": "card_exchange", "cards": cards_to_json(cards)})
    return moves


def exchange_choice(state: State, seat: int) -> Cards | None:
    """The exchange the search considers: up to five cards of types no disc needs."""
    ctx = context(state)
    hand = state.hands[seat]
    budget = data.CARD_EXCHANGE_MAX
    chosen = []
    for k in range(4):
        take = 0 if ctx.open_types[k] else min(hand[k], budget)
        chosen.append(take)
        budget -= take
    if not any(chosen):
        return None
    return (chosen[0], chosen[1], chosen[2], chosen[3])
