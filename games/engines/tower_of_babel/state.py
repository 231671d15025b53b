"""Tower of Babel state: immutable values, and their JSON form (`dump` / `load`).

State JSON (what `ENGINE.dump` returns and `ENGINE.load` accepts)::

    {
      "players": 4,                         # N, 3..5; seats 0..N-1 clockwise from the start player
      "options": {"two_type_discs": false,  # §2.8 variant
                  "no_action_cards": false},# §2.11: the action cards stay in the box
      "phase": "turn",                      # "turn" (pass or build), "offers", "resolve",
                                            # "double_turn" (end-of-turn window), "over"
      "active": 0,                          # seat whose column is lowest (the active player)
      "extra_turn": false,                  # true during the extra turn of a Double turn
      "turn": 1,                            # 1-based number of the turn being played
      "wonders": [[1, 9, 20], ...],         # 8 lists: disc ids still on wonders 1..8
      "units": [[0, 0, 0, 0], ...],         # 8 lists: building-part units per seat
      "hands": [{"camel": 2, "ship": 2}, ...],          # building cards per seat (hidden)
      "actions": [["joker"], [], ...],      # action cards per seat (hidden)
      "discs": [[3], [], ...],              # collected building discs per seat
      "points": [{"wonders": 8, "rejected_offers": 2}, ...],  # scored during play
      "deck": ["ship", "camel", ...],       # face-down building deck, top card first
      "discard": {"ship": 5},               # face-up building discard pile
      "action_deck": ["double_turn", ...],  # face-down action deck, top card first
      "action_discard": ["joker"],          # played action cards, oldest first
      "build": null,                        # the build in progress (phases offers, resolve):
          # {"wonder": 8, "disc": 17,
          #  "offers": [null, {"cards": {"ship": 1}, "trading_card": false,
          #                    "offer_bonus": false}, null, ...],  # per seat; null for the
          #                    # active seat and for seats that have not offered yet
          #  "waiting": [2, 3]}                # seats still to offer
      "last_build": null,                   # the last resolved build, for the board:
          # {"seat": 0, "wonder": 8, "disc": 17, "offers": [...as above...],
          #  "accepted": [1, 2], "jokers": {"ship": 1},
          #  "taker": 2,                       # who got the disc; null: failed build
          #  "awards": [8, 4, 0, 3] | null}    # wonder scoring, when it completed the wonder
      "rng": 12345                          # `base.Rng` state, for reshuffles
    }

Disc ids and their needs are in `data.DISCS` (1-24 single-type, 25-28 the two-type
discs D1-D4). A card multiset is a JSON object from type name to a positive count; inside
the engine it is a tuple of four counts in the order of `data.TYPES`. A wonder whose
disc list is empty is complete; the number of complete wonders is the row of the wonder
scoring table in use. Offered cards leave the hand when offered and come back if the
offer is not used.

To score a hand-written position only `players` is required; every other key defaults
to: default options, phase "turn", active 0, no extra turn, turn 1, all eight wonders
complete (empty lists) with no units, empty hands, no action cards, no discs, no points,
empty decks and piles, no build, no last build, rng 0. With `"phase": "over"` the final
scoring of §2.9 is added by `ENGINE.scores`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.base import Rng
from games.engines.tower_of_babel import data

TURN = "turn"
OFFERS = "offers"
RESOLVE = "resolve"
DOUBLE_TURN = "double_turn"
OVER = "over"
PHASES = (TURN, OFFERS, RESOLVE, DOUBLE_TURN, OVER)

Cards = tuple[int, int, int, int]
NO_CARDS: Cards = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Options:
    two_type_discs: bool = False
    no_action_cards: bool = False

    @property
    def use_action_cards(self) -> bool:
        return not self.no_action_cards

    @classmethod
    def from_dict(cls, options: dict[str, Any] | None) -> Options:
        """Validate host options; raise ValueError with a readable message when they are bad."""
        if options is None:
            return cls()
        if not isinstance(options, dict):
            raise ValueError("Options must be a JSON object.")
        unknown = sorted(set(options) - set(data.DEFAULT_OPTIONS))
        if unknown:
            raise ValueError(
                f"Unknown option(s) {unknown}; allowed: {sorted(data.DEFAULT_OPTIONS)}."
            )
        values = {}
        for name, default in data.DEFAULT_OPTIONS.items():
            value = options.get(name, default)
            if not isinstance(value, bool):
                raise ValueError(f"Option {name!r} must be true or false.")
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, bool]:
        return {"two_type_discs": self.two_type_discs, "no_action_cards": self.no_action_cards}


@dataclass(frozen=True, slots=True)
class Offer:
    cards: Cards
    trading_card: bool = False
    offer_bonus: bool = False

    @property
    def size(self) -> int:
        return sum(self.cards)


@dataclass(frozen=True, slots=True)
class Build:
    wonder: int
    disc: int
    offers: tuple[Offer | None, ...]
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LastBuild:
    seat: int
    wonder: int
    disc: int
    offers: tuple[Offer | None, ...]
    accepted: tuple[int, ...]
    jokers: Cards
    taker: int | None
    awards: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    phase: str
    active: int
    extra_turn: bool
    turn: int
    wonders: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    hands: tuple[Cards, ...]
    actions: tuple[tuple[str, ...], ...]
    discs: tuple[tuple[int, ...], ...]
    wonder_points: tuple[int, ...]
    offer_points: tuple[int, ...]
    deck: tuple[int, ...]
    discard: Cards
    action_deck: tuple[str, ...]
    action_discard: tuple[str, ...]
    build: Build | None
    last_build: LastBuild | None
    rng: Rng

    @property
    def completed(self) -> int:
        """Wonders completed so far: the index of the scoring row in use (§3.3)."""
        return sum(1 for discs in self.wonders if not discs)


# --- JSON -------------------------------------------------------------------------------


def cards_to_json(cards: Cards) -> dict[str, int]:
    return {data.TYPES[i]: n for i, n in enumerate(cards) if n}


def cards_from_json(payload: Any) -> Cards:
    if not isinstance(payload, dict):
        raise ValueError("A set of cards must be a JSON object of type -> count.")
    counts = [0, 0, 0, 0]
    for name, n in payload.items():
        if name not in data.TYPE_INDEX:
            raise ValueError(f"Unknown card type {name!r}.")
        if type(n) is not int or n < 0:
            raise ValueError(f"The count of {name!r} must be a whole number from 0.")
        counts[data.TYPE_INDEX[name]] = n
    return (counts[0], counts[1], counts[2], counts[3])


def offer_to_json(offer: Offer | None) -> dict[str, Any] | None:
    if offer is None:
        return None
    return {
        "cards": cards_to_json(offer.cards),
        "trading_card": offer.trading_card,
        "offer_bonus": offer.offer_bonus,
    }


def offer_from_json(payload: Any) -> Offer | None:
    if payload is None:
        return None
    return Offer(
        cards_from_json(payload["cards"]),
        bool(payload.get("trading_card", False)),
        bool(payload.get("offer_bonus", False)),
    )


def _actions_from_json(kinds: Any) -> tuple[str, ...]:
    for kind in kinds:
        if kind not in data.ACTION_KINDS:
            raise ValueError(f"Unknown action card {kind!r}.")
    return tuple(str(k) for k in kinds)


def dump(state: State) -> dict[str, Any]:
    build = state.build
    last = state.last_build
    return {
        "players": state.players,
        "options": state.options.to_dict(),
        "phase": state.phase,
        "active": state.active,
        "extra_turn": state.extra_turn,
        "turn": state.turn,
        "wonders": [list(discs) for discs in state.wonders],
        "units": [list(units) for units in state.units],
        "hands": [cards_to_json(hand) for hand in state.hands],
        "actions": [list(kinds) for kinds in state.actions],
        "discs": [list(discs) for discs in state.discs],
        "points": [
            {"wonders": w, "rejected_offers": o}
            for w, o in zip(state.wonder_points, state.offer_points, strict=True)
        ],
        "deck": [data.TYPES[t] for t in state.deck],
        "discard": cards_to_json(state.discard),
        "action_deck": list(state.action_deck),
        "action_discard": list(state.action_discard),
        "build": None
        if build is None
        else {
            "wonder": build.wonder,
            "disc": build.disc,
            "offers": [offer_to_json(o) for o in build.offers],
            "waiting": list(build.waiting),
        },
        "last_build": None
        if last is None
        else {
            "seat": last.seat,
            "wonder": last.wonder,
            "disc": last.disc,
            "offers": [offer_to_json(o) for o in last.offers],
            "accepted": list(last.accepted),
            "jokers": cards_to_json(last.jokers),
            "taker": last.taker,
            "awards": None if last.awards is None else list(last.awards),
        },
        "rng": state.rng.state,
    }


def load(payload: dict[str, Any]) -> State:
    players = int(payload["players"])
    if not 1 <= players <= data.MAX_PLAYERS:
        raise ValueError(f"'players' must be 1 to {data.MAX_PLAYERS}.")
    per_seat = range(players)
    phase = payload.get("phase", TURN)
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    wonders = tuple(
        tuple(int(d) for d in discs)
        for discs in payload.get("wonders", [[] for _ in data.WONDER_IDS])
    )
    units = tuple(
        tuple(int(u) for u in row)
        for row in payload.get("units", [[0] * players for _ in data.WONDER_IDS])
    )
    if len(wonders) != len(data.WONDER_IDS) or len(units) != len(data.WONDER_IDS):
        raise ValueError("'wonders' and 'units' need one entry per wonder (8).")
    if any(len(row) != players for row in units):
        raise ValueError("Each row of 'units' needs one entry per player.")
    for wonder_discs in wonders:
        for disc in wonder_discs:
            if disc not in data.DISCS:
                raise ValueError(f"Unknown disc {disc!r}.")
    hands = tuple(cards_from_json(h) for h in payload.get("hands", [{} for _ in per_seat]))
    actions = tuple(_actions_from_json(a) for a in payload.get("actions", [[] for _ in per_seat]))
    discs = tuple(tuple(int(d) for d in ds) for ds in payload.get("discs", [[] for _ in per_seat]))
    points = payload.get("points", [{} for _ in per_seat])
    for name, value in (
        ("hands", hands),
        ("actions", actions),
        ("discs", discs),
        ("points", points),
    ):
        if len(value) != players:
            raise ValueError(f"{name!r} needs one entry per player.")
    build = payload.get("build")
    last = payload.get("last_build")
    if (build is not None) != (phase in (OFFERS, RESOLVE)):
        raise ValueError("'build' is set exactly in the phases 'offers' and 'resolve'.")
    return State(
        players=players,
        options=Options.from_dict(payload.get("options")),
        phase=phase,
        active=int(payload.get("active", 0)),
        extra_turn=bool(payload.get("extra_turn", False)),
        turn=int(payload.get("turn", 1)),
        wonders=wonders,
        units=units,
        hands=hands,
        actions=actions,
        discs=discs,
        wonder_points=tuple(int(p.get("wonders", 0)) for p in points),
        offer_points=tuple(int(p.get("rejected_offers", 0)) for p in points),
        deck=tuple(data.TYPE_INDEX[t] for t in payload.get("deck", [])),
        discard=cards_from_json(payload.get("discard", {})),
        action_deck=_actions_from_json(payload.get("action_deck", [])),
        action_discard=_actions_from_json(payload.get("action_discard", [])),
        build=None
        if build is None
        else Build(
            wonder=int(build["wonder"]),
            disc=int(build["disc"]),
            offers=tuple(offer_from_json(o) for o in build["offers"]),
            waiting=tuple(int(s) for s in build["waiting"]),
        ),
        last_build=None
        if last is None
        else LastBuild(
            seat=int(last["seat"]),
            wonder=int(last["wonder"]),
            disc=int(last["disc"]),
            offers=tuple(offer_from_json(o) for o in last["offers"]),
            accepted=tuple(int(s) for s in last["accepted"]),
            jokers=cards_from_json(last.get("jokers", {})),
            taker=None if last["taker"] is None else int(last["taker"]),
            awards=None if last.get("awards") is None else tuple(int(a) for a in last["awards"]),
        ),
        rng=Rng(int(payload.get("rng", 0))),
    )
