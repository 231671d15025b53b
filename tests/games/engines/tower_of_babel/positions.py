"""Hand-built Tower of Babel positions, through the documented state JSON (state.py).

Seats in the spec's examples: Red 0 (the active player), Yellow 1, Green 2, Blue 3.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.engines.base import Rng
from games.engines.tower_of_babel import ENGINE, data, legal
from games.engines.tower_of_babel.state import OFFERS, OVER, Offer, State

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3

# Disc ids (data.py): 1-6 camel 3,4,4,5,5,6; 7-12 crane; 13-18 ship; 19-24 stonemason;
# 25-28 the two-type discs D1-D4.
CAMEL_3, CAMEL_4, CAMEL_5 = 1, 2, 4
CRANE_4, CRANE_6 = 8, 12
SHIP_3, SHIP_4, SHIP_5 = 13, 14, 16
STONEMASON_3, STONEMASON_4 = 19, 20
D1, D2, D3, D4 = 25, 26, 27, 28

# A board on which every type stays available: wonder w holds one disc of each of three
# types, and no wonder is complete.
FULL_BOARD = [
    [1, 7, 13],
    [2, 8, 14],
    [3, 9, 15],
    [4, 10, 19],
    [5, 11, 20],
    [6, 17, 21],
    [12, 18, 22],
    [16, 23, 24],
]


def offer(
    cards: dict[str, int] | None = None, trading: bool = False, bonus: bool = False
) -> dict[str, Any]:
    return {"cards": cards or {}, "trading_card": trading, "offer_bonus": bonus}


def position(players: int = 4, **fields: Any) -> State:
    """A position from state-JSON fields; unlisted fields are a quiet game in progress:
    the full board above, empty hands, a deck of 40 cards in a known order."""
    payload: dict[str, Any] = {
        "players": players,
        "wonders": [list(w) for w in FULL_BOARD],
        "units": [[0] * players for _ in FULL_BOARD],
        "deck": ["camel", "crane", "ship", "stonemason"] * 10,
    }
    payload.update(fields)
    return ENGINE.load(payload)


def resolving(
    disc: int,
    offers: dict[int, dict[str, Any]],
    *,
    wonder: int = 8,
    players: int = 4,
    **fields: Any,
) -> State:
    """Red's build of `disc` on `wonder` with every offer revealed (the resolve step).
    `offers` maps seats to offers; other seats offered nothing. The disc is put on the
    wonder (in place of that wonder's first disc) if it is not there yet."""
    wonders = [list(w) for w in fields.pop("wonders", FULL_BOARD)]
    if disc not in wonders[wonder - 1]:
        for w in wonders:
            if disc in w:
                w.remove(disc)
        wonders[wonder - 1][0:1] = [disc]
    all_offers: list[dict[str, Any] | None] = [
        None if seat == RED else offers.get(seat, offer()) for seat in range(players)
    ]
    return position(
        players,
        phase="resolve",
        wonders=wonders,
        build={"wonder": wonder, "disc": disc, "offers": all_offers, "waiting": []},
        **fields,
    )


def offering(disc: int, *, wonder: int = 8, players: int = 4, **fields: Any) -> State:
    """Red's build of `disc` on `wonder`, with every other player still to offer."""
    state = resolving(disc, {}, wonder=wonder, players=players, **fields)
    payload = ENGINE.dump(state)
    payload["phase"] = "offers"
    payload["build"]["offers"] = [None] * players
    payload["build"]["waiting"] = [(RED + k) % players for k in range(1, players)]
    return ENGINE.load(payload)


def play(state: State, seat: int, move_type: str, **keys: Any) -> State:
    return ENGINE.apply_move(state, seat, {"type": move_type, **keys})


def hand(state: State, seat: int) -> dict[str, int]:
    return ENGINE.dump(state)["hands"][seat]


def points(state: State, seat: int) -> dict[str, int]:
    return ENGINE.scores(state)["breakdown"][seat]


def hidden_offer(state: State, seat: int, viewer: int | None) -> Offer | None:
    if state.phase != OFFERS or state.build is None or seat == viewer:
        return None
    return state.build.offers[seat]


def with_secrets_redealt(state: State, viewer: int | None, seed: int) -> State:
    """Another state `viewer` cannot tell apart from `state`: the building cards the viewer
    cannot see (other hands, offers not yet revealed, the deck) and the unseen action
    cards are dealt again at random in the same numbers, every hidden offer is replaced
    by a random legal offer (of any size, with or without the trading card), and the
    generator for later reshuffles changes."""
    chooser = random.Random(seed)
    secret = [s for s in range(state.players) if s != viewer]
    over = state.phase == OVER  # at the end the action cards are shown
    cards = list(state.deck)
    kinds = list(state.action_deck)
    sizes, counts = {}, {}
    for s in secret:
        hidden = hidden_offer(state, s, viewer)
        extra = hidden.cards if hidden is not None else (0, 0, 0, 0)
        bonus = ["offer_bonus"] if hidden is not None and hidden.offer_bonus else []
        cards += [k for k in range(4) for _ in range(state.hands[s][k] + extra[k])]
        sizes[s] = sum(state.hands[s]) + sum(extra)
        if not over:
            kinds += [*state.actions[s], *bonus]
            counts[s] = len(state.actions[s]) + len(bonus)
    chooser.shuffle(cards)
    chooser.shuffle(kinds)
    hands, actions = list(state.hands), list(state.actions)
    offers = list(state.build.offers) if state.build is not None else []
    for s in secret:
        dealt = [cards.pop() for _ in range(sizes[s])]
        hand = [dealt.count(k) for k in range(4)]
        held = list(actions[s]) if over else [kinds.pop() for _ in range(counts[s])]
        if hidden_offer(state, s, viewer) is not None:
            assert state.build is not None
            needs = data.DISCS[state.build.disc]
            choice = chooser.choice(legal.offers(needs, tuple(hand), "offer_bonus" in held))
            hand = [hand[k] - choice.cards[k] for k in range(4)]
            if choice.offer_bonus:
                held.remove("offer_bonus")
            offers[s] = choice
        hands[s] = (hand[0], hand[1], hand[2], hand[3])
        actions[s] = tuple(sorted(held, key=data.ACTION_KINDS.index))
    build = None if state.build is None else replace(state.build, offers=tuple(offers))
    return replace(
        state,
        hands=tuple(hands),
        actions=tuple(actions),
        deck=tuple(cards),
        action_deck=tuple(kinds),
        build=build,
        rng=Rng(chooser.getrandbits(64)),
    )
