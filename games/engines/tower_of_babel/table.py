"""The rules that change the table (spec §2.3-§2.9), on a mutable scratch copy of a state.

`apply_move` checks a move first (`engine.py`); the functions here then play it on a
`Table`, a short-lived mutable copy of the state, and `Table.freeze` returns the next
immutable `State`. Nothing here raises for a checked move.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Rng
from games.engines.tower_of_babel import data
from games.engines.tower_of_babel.scoring import wonder_awards
from games.engines.tower_of_babel.state import (
    DOUBLE_TURN,
    NO_CARDS,
    OFFERS,
    OVER,
    RESOLVE,
    TURN,
    Build,
    Cards,
    LastBuild,
    Offer,
    State,
)


class Table:
    """A mutable copy of the parts of a state a move changes."""

    __slots__ = (
        "s",
        "phase",
        "active",
        "extra_turn",
        "turn",
        "wonders",
        "units",
        "hands",
        "actions",
        "discs",
        "wonder_points",
        "offer_points",
        "deck",
        "discard",
        "action_deck",
        "action_discard",
        "build",
        "last_build",
        "rng",
    )

    def __init__(self, s: State) -> None:
        self.s = s
        self.phase = s.phase
        self.active = s.active
        self.extra_turn = s.extra_turn
        self.turn = s.turn
        self.wonders = list(s.wonders)
        self.units = list(s.units)
        self.hands = [list(h) for h in s.hands]
        self.actions = [list(a) for a in s.actions]
        self.discs = list(s.discs)
        self.wonder_points = list(s.wonder_points)
        self.offer_points = list(s.offer_points)
        self.deck = s.deck
        self.discard = list(s.discard)
        self.action_deck = s.action_deck
        self.action_discard = s.action_discard
        self.build = s.build
        self.last_build = s.last_build
        self.rng = s.rng

    def freeze(self) -> State:
        hands: list[Cards] = [(h[0], h[1], h[2], h[3]) for h in self.hands]
        d = self.discard
        return State(
            players=self.s.players,
            options=self.s.options,
            phase=self.phase,
            active=self.active,
            extra_turn=self.extra_turn,
            turn=self.turn,
            wonders=tuple(self.wonders),
            units=tuple(self.units),
            hands=tuple(hands),
            actions=tuple(tuple(_sorted_actions(a)) for a in self.actions),
            discs=tuple(self.discs),
            wonder_points=tuple(self.wonder_points),
            offer_points=tuple(self.offer_points),
            deck=self.deck,
            discard=(d[0], d[1], d[2], d[3]),
            action_deck=self.action_deck,
            action_discard=self.action_discard,
            build=self.build,
            last_build=self.last_build,
            rng=self.rng,
        )

    # --- cards --------------------------------------------------------------------------

    def draw(self, seat: int, count: int) -> None:
        """A11: draw from the deck; an empty deck is refilled from the shuffled discard
        pile; with both empty the draw is skipped."""
        hand = self.hands[seat]
        for _ in range(count):
            if not self.deck:
                if not any(self.discard):
                    return
                pile = tuple(t for t in range(4) for _ in range(self.discard[t]))
                self.deck, self.rng = self.rng.shuffle(pile)
                self.discard = [0, 0, 0, 0]
            hand[self.deck[0]] += 1
            self.deck = self.deck[1:]

    def to_discard(self, seat: int, cards: Cards) -> None:
        hand = self.hands[seat]
        for t in range(4):
            hand[t] -= cards[t]
            self.discard[t] += cards[t]

    def play_action(self, seat: int, kind: str) -> None:
        self.actions[seat].remove(kind)
        self.action_discard = (*self.action_discard, kind)

    def draw_action(self, seat: int) -> None:
        # §2.6, A21: automatic; with an empty action deck there is no draw.
        if self.s.options.use_action_cards and self.action_deck:
            self.actions[seat].append(self.action_deck[0])
            self.action_deck = self.action_deck[1:]


def _sorted_actions(kinds: list[str]) -> list[str]:
    return sorted(kinds, key=data.ACTION_KINDS.index)


# --- the turn ---------------------------------------------------------------------------


def pass_turn(s: State) -> State:
    # §2.3: the active player draws one card, then the turn ends as usual.
    t = Table(s)
    t.draw(t.active, data.PASS_CARDS)
    return end_turn(t, game_over=False)


def start_build(s: State, wonder: int, disc: int) -> State:
    # §2.4 step 1; step 2: every other player offers, clockwise from the active player.
    n = s.players
    waiting = tuple((s.active + k) % n for k in range(1, n))
    build = Build(wonder=wonder, disc=disc, offers=(None,) * n, waiting=waiting)
    t = Table(s)
    t.build = build
    t.phase = OFFERS
    return t.freeze()


def make_offer(s: State, seat: int, offer: Offer) -> State:
    # §2.4 step 2: the offered cards (and an offer bonus card) leave the hand face down;
    # when the last offer is in, all are revealed at once.
    assert s.build is not None
    t = Table(s)
    hand = t.hands[seat]
    for k in range(4):
        hand[k] -= offer.cards[k]
    if offer.offer_bonus:
        t.actions[seat].remove(data.OFFER_BONUS)
    offers = list(s.build.offers)
    offers[seat] = offer
    waiting = tuple(w for w in s.build.waiting if w != seat)
    t.build = Build(s.build.wonder, s.build.disc, tuple(offers), waiting)
    if not waiting:
        t.phase = RESOLVE
    return t.freeze()


def accept(s: State, accepted: tuple[int, ...], jokers: Cards, *, finish: bool = True) -> State:
    """§2.4 steps 3-5 for a checked selection: parts, disc, wonder scoring, game end.

    With `finish=False` the turn stops before its end (no Double turn window, rotation or
    draws): the position the bots judge a choice by."""
    build = s.build
    assert build is not None
    t = Table(s)
    active = t.active
    needs = data.DISCS[build.disc]
    n = s.players
    units = list(t.units[build.wonder - 1])
    taker = active
    from_offers = [0, 0, 0, 0]
    for seat in accepted:
        offer = build.offers[seat]
        assert offer is not None
        for k in range(4):
            from_offers[k] += offer.cards[k]
            t.discard[k] += offer.cards[k]
        # Trading card: its owner takes the disc and the active player places the parts.
        if offer.trading_card:
            taker = seat
            units[active] += offer.size
        else:
            units[seat] += offer.size
    own = tuple(needs[k] - from_offers[k] - data.JOKER_CARDS * jokers[k] for k in range(4))
    t.to_discard(active, (own[0], own[1], own[2], own[3]))
    for _ in range(sum(jokers)):
        t.play_action(active, data.JOKER)
    units[active] += sum(own) + data.JOKER_CARDS * sum(jokers)
    t.discs[taker] = (*t.discs[taker], build.disc)
    remaining = tuple(d for d in t.wonders[build.wonder - 1] if d != build.disc)
    t.wonders[build.wonder - 1] = remaining
    awards = None
    if remaining:
        t.units[build.wonder - 1] = tuple(units)
    else:
        # §2.6, A23: the wonder scores now with the current row; parts go home, the active
        # player draws an action card (A10: also when this build ends the game).
        row = data.WONDER_ROWS[s.completed]
        awards = wonder_awards(tuple(units), row)
        for seat in range(n):
            t.wonder_points[seat] += awards[seat]
        t.units[build.wonder - 1] = (0,) * n
        t.draw_action(active)
    _settle_offers(t, build, set(accepted))
    t.last_build = LastBuild(
        seat=active,
        wonder=build.wonder,
        disc=build.disc,
        offers=build.offers,
        accepted=accepted,
        jokers=jokers,
        taker=taker,
        awards=awards,
    )
    t.build = None
    return end_turn(t, game_over=game_ends(t.wonders), finish=finish)


def abandon(s: State, *, finish: bool = True) -> State:
    # §2.5: the disc stays, nobody builds, every offer scores and goes back to its owner.
    build = s.build
    assert build is not None
    t = Table(s)
    _settle_offers(t, build, set())
    t.last_build = LastBuild(
        seat=t.active,
        wonder=build.wonder,
        disc=build.disc,
        offers=build.offers,
        accepted=(),
        jokers=NO_CARDS,
        taker=None,
        awards=None,
    )
    t.build = None
    return end_turn(t, game_over=False, finish=finish)


def _settle_offers(t: Table, build: Build, accepted: set[int]) -> None:
    # §2.4 step 5.2-5.3: rejected offers score 1 per card (A7: 3 with the offer bonus card)
    # and go back to the hand; every offer bonus card is discarded; trading cards return.
    for seat, offer in enumerate(build.offers):
        if offer is None:
            continue
        if offer.offer_bonus:
            t.action_discard = (*t.action_discard, data.OFFER_BONUS)
        if seat in accepted:
            continue
        per_card = data.OFFER_BONUS_POINTS if offer.offer_bonus else data.REJECTED_OFFER_POINTS
        t.offer_points[seat] += per_card * offer.size
        hand = t.hands[seat]
        for k in range(4):
            hand[k] += offer.cards[k]


def game_ends(wonders: list[tuple[int, ...]] | tuple[tuple[int, ...], ...]) -> bool:
    """§2.9: some type has no disc left on the board (a two-type disc counts for both)."""
    present = [False, False, False, False]
    for discs in wonders:
        for disc in discs:
            needs = data.DISCS[disc]
            for k in range(4):
                if needs[k]:
                    present[k] = True
    return not all(present)


def end_turn(t: Table, *, game_over: bool, finish: bool = True) -> State:
    if not finish:
        t.phase = OVER if game_over else TURN
        return t.freeze()
    if game_over:
        # §2.9: the end-of-turn draws and any Double turn are skipped; final scoring is
        # part of `scoring.scores` for a finished game.
        t.phase = OVER
        return t.freeze()
    holder = t.s.options.use_action_cards and data.DOUBLE_TURN in t.actions[t.active]
    if holder and not t.extra_turn:
        t.phase = DOUBLE_TURN
        return t.freeze()
    return _rotate(t)


def _rotate(t: Table) -> State:
    # §2.2: the columns move (the next seat clockwise becomes active); then every player
    # draws, the old active player first, then clockwise (§2.3 step 3, §2.4 step 5.5, A11).
    n = t.s.players
    for k in range(n):
        t.draw((t.active + k) % n, data.END_OF_TURN_CARDS)
    t.active = (t.active + 1) % n
    t.extra_turn = False
    t.turn += 1
    t.phase = TURN
    return t.freeze()


def play_double_turn(s: State) -> State:
    # §3.4 Double turn: one more turn now; the draws and the rotation wait until after it.
    t = Table(s)
    t.play_action(t.active, data.DOUBLE_TURN)
    t.extra_turn = True
    t.phase = TURN
    return t.freeze()


def decline_double_turn(s: State) -> State:
    return _rotate(Table(s))


def card_exchange(s: State, seat: int, cards: Cards) -> State:
    # §3.4: discard the chosen cards, then draw as many.
    t = Table(s)
    t.play_action(seat, data.CARD_EXCHANGE)
    t.to_discard(seat, cards)
    t.draw(seat, sum(cards))
    return t.freeze()


def draw_three(s: State, seat: int) -> State:
    t = Table(s)
    t.play_action(seat, data.DRAW_THREE)
    t.draw(seat, data.DRAW_THREE_CARDS)
    return t.freeze()


def deal(rng: Rng, players: int, two_type_discs: bool, use_action_cards: bool) -> dict[str, Any]:
    """§2.1: discs onto the wonders, shuffled decks, starting hands (a partial state)."""
    discs, rng = rng.shuffle(data.discs_in_play(two_type_discs))
    per = data.DISCS_PER_WONDER
    wonders = tuple(
        tuple(sorted(discs[i * per : (i + 1) * per])) for i in range(len(data.WONDER_IDS))
    )
    deck, rng = rng.shuffle(tuple(t for t in range(4) for _ in range(data.CARDS_PER_TYPE)))
    actions: tuple[str, ...] = ()
    if use_action_cards:
        kinds = tuple(k for k in data.ACTION_KINDS for _ in range(data.ACTION_CARD_COUNTS[k]))
        actions, rng = rng.shuffle(kinds)
    hands = []
    for seat in range(players):
        hand = [0, 0, 0, 0]
        for card in deck[seat * data.STARTING_HAND : (seat + 1) * data.STARTING_HAND]:
            hand[card] += 1
        hands.append((hand[0], hand[1], hand[2], hand[3]))
    return {
        "wonders": wonders,
        "deck": deck[players * data.STARTING_HAND :],
        "action_deck": actions,
        "hands": tuple(hands),
        "rng": rng,
    }
