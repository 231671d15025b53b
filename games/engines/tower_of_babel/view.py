"""What one seat (or a spectator) may see of a Tower of Babel game, and its inverse for bots.

Spec §5: building cards and action cards in a hand are seen by their owner only (others
see how many); an offer is seen by its owner until every offer is in, the others learn
only *that* it was made (not its size, trading card or bonus card: hand sizes still
count the offered cards while offers are hidden); the decks are face down. Everything
else is public, collected discs included (§5 ASSUMPTION). When the game is over the
action cards are shown, since final scoring counts them.

View JSON (`ENGINE.view(state, seat)`; `seat` is null for a spectator)::

    {
      "game": "tower-of-babel",
      "seat": 1, "players": 4,
      "options": {"two_type_discs": false, "no_action_cards": false},
      "phase": "offers",              # "turn" | "offers" | "resolve" | "double_turn" | "over"
      "is_over": false,
      "turn": 7,                      # turns played so far + 1
      "active": 0, "extra_turn": false,
      "to_move": [1, 3],              # while offers are open: everyone still to offer
      "columns": [0, 1, 2, 3],        # turn-order track, lowest space (active) first
      "scoring_row": 3,               # row of the wonder table in use; "light" at the end
      "completed_wonders": 2,
      "wonders": [{"id": 1, "discs": [{"id": 4, "needs": {"camel": 4}}],
                   "units": [0, 3, 0, 1], "complete": false}, ...],
      "discs": [[{"id": 9, "needs": {"crane": 5}}], [], ...],   # collected, per seat
      "hand": {"camel": 2, "ship": 3},    # this seat's building cards; null for spectators
      "hand_sizes": [5, 5, 6, 4],
      "actions": ["joker"],               # this seat's action cards; null for spectators
      "action_counts": [0, 1, 0, 0],
      "all_actions": null,                # when the game is over: every seat's cards
      "trading_cards": [true, true, true, true],   # in the owner's hand, as this seat sees
      "deck_size": 71, "discard": {"ship": 5},
      "action_deck_size": 13, "action_discard": ["draw_three"],
      "build": {                          # null outside the offers and resolve steps
        "wonder": 8, "disc": 17, "needs": {"ship": 5},
        "revealed": false,
        "waiting": [1, 3],
        "offered": [null, false, true, false],     # per seat; null for the active seat
        "offers": [null, null, {"hidden": true}, null]   # own or revealed offers in full
      },
      "last_build": {...} | null,         # as in the state JSON (public)
      "scores": {"totals": [...], "breakdown": [...], "ranking": [...], "winners": [...],
                 "measures": [{"disc_sets": {"discs": 5}}, ...]},   # discs: at the end
      "legal": [...]                      # this seat's legal moves now ([] if none)
    }
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Rng
from games.engines.tower_of_babel import data, legal, scoring
from games.engines.tower_of_babel.state import (
    NO_CARDS,
    OFFERS,
    OVER,
    Build,
    LastBuild,
    Offer,
    Options,
    State,
    cards_from_json,
    cards_to_json,
    offer_from_json,
    offer_to_json,
)

HIDDEN = {"hidden": True}


def disc_json(disc: int) -> dict[str, Any]:
    return {"id": disc, "needs": cards_to_json(data.DISCS[disc])}


def _offer_visible(state: State, offerer: int, seat: int | None) -> bool:
    return state.phase != OFFERS or offerer == seat


def view(state: State, seat: int | None, legal_moves: list[dict[str, Any]]) -> dict[str, Any]:
    n = state.players
    over = state.phase == OVER
    build = state.build
    hand_sizes = [sum(h) for h in state.hands]
    action_counts = [len(a) for a in state.actions]
    trading = [True] * n
    build_json = None
    if build is not None:
        offers_json: list[dict[str, Any] | None] = []
        for s, offer in enumerate(build.offers):
            if offer is None:
                offers_json.append(None)
            elif _offer_visible(state, s, seat):
                offers_json.append(offer_to_json(offer))
                trading[s] = not offer.trading_card
            else:
                offers_json.append(dict(HIDDEN))
                # Hidden offers stay counted in the hand, so their size stays secret.
                hand_sizes[s] += offer.size
                action_counts[s] += offer.offer_bonus
        build_json = {
            "wonder": build.wonder,
            "disc": build.disc,
            "needs": cards_to_json(data.DISCS[build.disc]),
            "revealed": state.phase != OFFERS,
            "waiting": list(build.waiting),
            "offered": [None if s == state.active else s not in build.waiting for s in range(n)],
            "offers": offers_json,
        }
    last = state.last_build
    return {
        "game": "tower-of-babel",
        "seat": seat,
        "players": n,
        "options": state.options.to_dict(),
        "phase": state.phase,
        "is_over": over,
        "turn": state.turn,
        "active": state.active,
        "extra_turn": state.extra_turn,
        "to_move": _to_move(state),
        "columns": [(state.active + k) % n for k in range(n)],
        "scoring_row": "light" if over else state.completed + 1,
        "completed_wonders": state.completed,
        "wonders": [
            {
                "id": i + 1,
                "discs": [disc_json(d) for d in discs],
                "units": list(units),
                "complete": not discs,
            }
            for i, (discs, units) in enumerate(zip(state.wonders, state.units, strict=True))
        ],
        "discs": [[disc_json(d) for d in discs] for discs in state.discs],
        "hand": None if seat is None else cards_to_json(state.hands[seat]),
        "hand_sizes": hand_sizes,
        "actions": None if seat is None else list(state.actions[seat]),
        "action_counts": action_counts,
        "all_actions": [list(a) for a in state.actions] if over else None,
        "trading_cards": trading,
        "deck_size": len(state.deck),
        "discard": cards_to_json(state.discard),
        "action_deck_size": len(state.action_deck),
        "action_discard": list(state.action_discard),
        "build": build_json,
        "last_build": None if last is None else _last_build_json(last),
        "scores": scoring.scores(state),
        "legal": legal_moves,
    }


def _to_move(state: State) -> list[int]:
    if state.phase == OVER:
        return []
    if state.phase == OFFERS and state.build is not None:
        return list(state.build.waiting)
    return [state.active]


def _last_build_json(last: LastBuild) -> dict[str, Any]:
    return {
        "seat": last.seat,
        "wonder": last.wonder,
        "disc": last.disc,
        "offers": [offer_to_json(o) for o in last.offers],
        "accepted": list(last.accepted),
        "jokers": cards_to_json(last.jokers),
        "taker": last.taker,
        "awards": None if last.awards is None else list(last.awards),
    }


def determinize(seen: dict[str, Any], seat: int | None, seed: int) -> State:
    """A full state matching `seen` (the view of `seat`), hidden parts sampled from `seed`.

    The unseen building cards (all 100 minus the discard pile, the viewer's hand and
    every offer the viewer can see) are dealt at random to the other hands, in their
    shown sizes, and the rest becomes the deck; the unseen action cards likewise. A hidden
    offer is then drawn at random from the legal offers of its owner's sampled cards.
    """
    n = int(seen["players"])
    rng = Rng.from_seed(seed)
    options = Options.from_dict(seen["options"])
    phase = seen["phase"]
    build_seen = seen["build"]
    known_offers: list[Offer | None] = [None] * n
    hidden_offer = [False] * n
    if build_seen is not None:
        for s, entry in enumerate(build_seen["offers"]):
            if entry == HIDDEN:
                hidden_offer[s] = True
            else:
                known_offers[s] = offer_from_json(entry)
    # Building cards: what the viewer cannot place somewhere.
    unseen = [data.CARDS_PER_TYPE] * 4
    for k, count in enumerate(cards_from_json(seen["discard"])):
        unseen[k] -= count
    hands: list[list[int] | None] = [None] * n
    if seat is not None:
        hands[seat] = list(cards_from_json(seen["hand"]))
    for s in range(n):
        for k, count in enumerate(hands[s] or NO_CARDS):
            unseen[k] -= count
        offer = known_offers[s]
        if offer is not None:
            for k in range(4):
                unseen[k] -= offer.cards[k]
    pool = tuple(k for k in range(4) for _ in range(unseen[k]))
    pool, rng = rng.shuffle(pool)
    sizes = [int(x) for x in seen["hand_sizes"]]
    at = 0
    for s in range(n):
        if hands[s] is None:
            hand = [0, 0, 0, 0]
            for card in pool[at : at + sizes[s]]:
                hand[card] += 1
            at += sizes[s]
            hands[s] = hand
    deck = pool[at:]
    if len(deck) != int(seen["deck_size"]):
        raise ValueError("The view's card counts do not add up to the 100 building cards.")
    # Action cards, the same way.
    unseen_actions = dict(data.ACTION_CARD_COUNTS) if options.use_action_cards else {}
    actions: list[list[str] | None] = [None] * n
    if seen["all_actions"] is not None:
        actions = [list(a) for a in seen["all_actions"]]
    elif seat is not None:
        actions[seat] = list(seen["actions"])
    played = list(seen["action_discard"])
    played += [data.OFFER_BONUS for o in known_offers if o is not None and o.offer_bonus]
    for kind in played + [k for a in actions if a is not None for k in a]:
        unseen_actions[kind] -= 1
    action_pool = tuple(k for k in data.ACTION_KINDS for _ in range(unseen_actions.get(k, 0)))
    action_pool, rng = rng.shuffle(action_pool)
    at = 0
    for s in range(n):
        if actions[s] is None:
            count = int(seen["action_counts"][s])
            actions[s] = list(action_pool[at : at + count])
            at += count
    action_deck = action_pool[at:]
    if len(action_deck) != int(seen["action_deck_size"]):
        raise ValueError("The view's action card counts do not add up.")
    # Hidden offers: a random legal offer from the owner's sampled cards.
    offers = list(known_offers)
    if build_seen is not None:
        needs = data.DISCS[int(build_seen["disc"])]
        for s in range(n):
            if not hidden_offer[s]:
                continue
            sampled = hands[s]
            held = actions[s]
            assert sampled is not None and held is not None
            choices = legal.offers(needs, _cards(sampled), data.OFFER_BONUS in held)
            pick, rng = rng.next(len(choices))
            offer = choices[pick]
            for k in range(4):
                sampled[k] -= offer.cards[k]
            if offer.offer_bonus:
                held.remove(data.OFFER_BONUS)
            offers[s] = offer
    breakdown = seen["scores"]["breakdown"]
    last = seen["last_build"]
    return State(
        players=n,
        options=options,
        phase=phase,
        active=int(seen["active"]),
        extra_turn=bool(seen["extra_turn"]),
        turn=int(seen["turn"]),
        wonders=tuple(tuple(int(d["id"]) for d in w["discs"]) for w in seen["wonders"]),
        units=tuple(tuple(int(u) for u in w["units"]) for w in seen["wonders"]),
        hands=tuple(_cards(h) for h in hands if h is not None),
        actions=tuple(
            tuple(sorted(a, key=data.ACTION_KINDS.index)) for a in actions if a is not None
        ),
        discs=tuple(tuple(int(d["id"]) for d in ds) for ds in seen["discs"]),
        wonder_points=tuple(int(b["wonders"]) for b in breakdown),
        offer_points=tuple(int(b["rejected_offers"]) for b in breakdown),
        deck=deck,
        discard=cards_from_json(seen["discard"]),
        action_deck=action_deck,
        action_discard=tuple(seen["action_discard"]),
        build=None
        if build_seen is None
        else Build(
            wonder=int(build_seen["wonder"]),
            disc=int(build_seen["disc"]),
            offers=tuple(offers),
            waiting=tuple(int(s) for s in build_seen["waiting"]),
        ),
        last_build=None
        if last is None
        else LastBuild(
            seat=int(last["seat"]),
            wonder=int(last["wonder"]),
            disc=int(last["disc"]),
            offers=tuple(offer_from_json(o) for o in last["offers"]),
            accepted=tuple(int(s) for s in last["accepted"]),
            jokers=cards_from_json(last["jokers"]),
            taker=None if last["taker"] is None else int(last["taker"]),
            awards=None if last["awards"] is None else tuple(int(a) for a in last["awards"]),
        ),
        rng=rng,
    )


def _cards(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])
