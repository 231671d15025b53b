"""Tower of Babel turn flow (spec §2): setup, moves, their checks, and the engine object.

Moves (JSON dicts; a card set is an object from type name to a positive count)::

    {"type": "pass"}                                       # §2.3, phase "turn"
    {"type": "build", "wonder": 8, "disc": 17}             # §2.4 step 1, phase "turn"
    {"type": "offer", "cards": {"ship": 2},                # §2.4 step 2, phase "offers";
     "trading_card": false, "offer_bonus": false}          #   {} is no offer
    {"type": "accept", "offers": [1, 3],                   # §2.4 steps 3-4, phase "resolve":
     "jokers": {"ship": 1}}                                #   seats whose offers are taken,
                                                           #   ascending; the rest comes from
                                                           #   the hand (jokers count 2 each)
    {"type": "abandon"}                                    # §2.5, phase "resolve"
    {"type": "double_turn"}                                # §3.4, phase "double_turn"
    {"type": "end_turn"}                                   # phase "double_turn": no extra turn
    {"type": "card_exchange", "cards": {"camel": 2}}       # §3.4, whenever the holder moves
    {"type": "draw_three"}                                 # §3.4, whenever the holder moves
"""

from __future__ import annotations

from typing import Any

from games.engines.base import EngineDefaults, IllegalMove, Rng, move_type
from games.engines.tower_of_babel import data, legal, scoring, state, table, view
from games.engines.tower_of_babel.state import (
    DOUBLE_TURN,
    NO_CARDS,
    OFFERS,
    OVER,
    RESOLVE,
    TURN,
    Cards,
    Offer,
    Options,
    State,
    cards_to_json,
)

PASS = "pass"
BUILD = "build"
OFFER = "offer"
ACCEPT = "accept"
ABANDON = "abandon"
PLAY_DOUBLE_TURN = "double_turn"
END_TURN = "end_turn"
CARD_EXCHANGE = "card_exchange"
DRAW_THREE = "draw_three"
MOVE_TYPES = (
    PASS,
    BUILD,
    OFFER,
    ACCEPT,
    ABANDON,
    PLAY_DOUBLE_TURN,
    END_TURN,
    CARD_EXCHANGE,
    DRAW_THREE,
)
# Move type -> (key, kind) pairs besides "type".
_MOVE_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    PASS: (),
    BUILD: (("wonder", "int"), ("disc", "int")),
    OFFER: (("cards", "cards"), ("trading_card", "bool"), ("offer_bonus", "bool")),
    ACCEPT: (("offers", "seats"), ("jokers", "cards")),
    ABANDON: (),
    PLAY_DOUBLE_TURN: (),
    END_TURN: (),
    CARD_EXCHANGE: (("cards", "cards"),),
    DRAW_THREE: (),
}
_KEY_NAMES = {kind: tuple(name for name, _ in keys) for kind, keys in _MOVE_KEYS.items()}
_PHASE_OF_MOVE = {
    PASS: TURN,
    BUILD: TURN,
    OFFER: OFFERS,
    ACCEPT: RESOLVE,
    ABANDON: RESOLVE,
    PLAY_DOUBLE_TURN: DOUBLE_TURN,
    END_TURN: DOUBLE_TURN,
}
_PASS_MOVE = {"type": PASS}
_ABANDON_MOVE = {"type": ABANDON}


class TowerOfBabel(EngineDefaults):
    slug = "tower-of-babel"
    name = "Tower of Babel"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    move_types = MOVE_TYPES
    reveals_steps = True

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
            raise ValueError(
                f"Tower of Babel is for {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, "
                f"not {players!r}."
            )
        opts = Options.from_dict(options)
        dealt = table.deal(Rng.from_seed(seed), players, opts.two_type_discs, opts.use_action_cards)
        return State(
            players=players,
            options=opts,
            phase=TURN,
            active=data.FIRST_PLAYER_SEAT,
            extra_turn=False,
            turn=1,
            wonders=dealt["wonders"],
            units=tuple((0,) * players for _ in data.WONDER_IDS),
            hands=dealt["hands"],
            actions=((),) * players,
            discs=((),) * players,
            wonder_points=(0,) * players,
            offer_points=(0,) * players,
            deck=dealt["deck"],
            discard=NO_CARDS,
            action_deck=dealt["action_deck"],
            action_discard=(),
            build=None,
            last_build=None,
            rng=dealt["rng"],
        )

    def to_move(self, s: State) -> list[int]:
        if s.phase == OVER:
            return []
        if s.phase == OFFERS:
            assert s.build is not None
            return list(s.build.waiting)
        return [s.active]

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def holds_turn(self, s: State, seat: int) -> bool:
        """The builder's turn goes on while the others make their offers (§2.4 steps 2-3):
        choosing the disc may be taken back until an offer is in."""
        return s.phase == OFFERS and s.active == seat

    def legal_moves(self, s: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_move(s):
            return []
        if s.phase == TURN:
            moves: list[dict[str, Any]] = [dict(_PASS_MOVE)]
            for i, discs in enumerate(s.wonders):
                for disc in discs:
                    moves.append({"type": BUILD, "wonder": i + 1, "disc": disc})
        elif s.phase == OFFERS:
            assert s.build is not None
            needs = data.DISCS[s.build.disc]
            has_bonus = data.OFFER_BONUS in s.actions[seat]
            moves = [
                {
                    "type": OFFER,
                    "cards": cards_to_json(o.cards),
                    "trading_card": o.trading_card,
                    "offer_bonus": o.offer_bonus,
                }
                for o in legal.offers(needs, s.hands[seat], has_bonus)
            ]
        elif s.phase == RESOLVE:
            moves = [
                {"type": ACCEPT, "offers": list(seats), "jokers": cards_to_json(jokers)}
                for seats, jokers in accept_options(s)
            ]
            moves.append(dict(_ABANDON_MOVE))
        else:
            moves = [{"type": PLAY_DOUBLE_TURN}, {"type": END_TURN}]
        held = s.actions[seat]
        if data.CARD_EXCHANGE in held:
            moves.extend(
                {"type": CARD_EXCHANGE, "cards": cards_to_json(c)}
                for c in legal.exchanges(s.hands[seat])
            )
        if data.DRAW_THREE in held:
            moves.append({"type": DRAW_THREE})
        return moves

    def apply_move(self, s: State, seat: int, move: dict[str, Any]) -> State:
        kind = _check_shape(move)
        if s.phase == OVER:
            raise IllegalMove("game_over", "The game is over.")
        if seat not in self.to_move(s):
            raise IllegalMove("not_your_turn", "It is not this seat's turn.", seat=seat)
        if kind == CARD_EXCHANGE:
            return _card_exchange(s, seat, _cards_of(move["cards"]))
        if kind == DRAW_THREE:
            _require_action(s, seat, data.DRAW_THREE)
            return table.draw_three(s, seat)
        if _PHASE_OF_MOVE[kind] != s.phase:
            raise IllegalMove("wrong_phase", f"A {kind} move is not possible now.", phase=s.phase)
        if kind == PASS:
            return table.pass_turn(s)
        if kind == BUILD:
            return _build(s, move["wonder"], move["disc"])
        if kind == OFFER:
            offer = Offer(_cards_of(move["cards"]), move["trading_card"], move["offer_bonus"])
            return _offer(s, seat, offer)
        if kind == ACCEPT:
            return _accept(s, tuple(move["offers"]), _cards_of(move["jokers"]))
        if kind == ABANDON:
            return table.abandon(s)
        if kind == PLAY_DOUBLE_TURN:
            _require_action(s, seat, data.DOUBLE_TURN)
            return table.play_double_turn(s)
        return table.decline_double_turn(s)

    def scores(self, s: State) -> dict[str, Any]:
        return scoring.scores(s)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat, self.legal_moves(s, seat) if seat is not None else [])

    def dump(self, s: State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, payload: dict[str, Any]) -> State:
        return state.load(payload)

    def determinize(self, seen: dict[str, Any], seat: int | None, seed: int) -> State:
        return view.determinize(seen, seat, seed)

    def reveals(self, s: State, seat: int, move: dict[str, Any]) -> bool:
        """Whether the step shows something hidden, so that it cannot be taken back. Hidden
        are the hands, the action cards, the order of both decks and the offers until the
        last one is in (§2.4 step 2). Only choosing a disc to build (§2.4 step 1), an offer
        that is not the last, and playing a Double turn (§3.4: its window already showed
        the card) show nothing. Every other step draws cards (a pass, the draws that end a
        turn, §2.2), plays an action card from a hidden hand, opens the Double turn window
        of a holder, shows the offers, or ends the game. An illegal move raises."""
        after = self.apply_move(s, seat, move)
        kind = move["type"]
        if kind == OFFER:
            return after.phase != OFFERS
        return kind not in (BUILD, PLAY_DOUBLE_TURN)


def accept_options(s: State) -> list[tuple[tuple[int, ...], Cards]]:
    """Every legal (accepted seats, jokers per type) of the resolve step (§2.4 steps 3-4)."""
    build = s.build
    assert build is not None
    needs = data.DISCS[build.disc]
    offered = [(seat, o) for seat, o in enumerate(build.offers) if o is not None and o.size]
    hand = s.hands[s.active]
    jokers = s.actions[s.active].count(data.JOKER)
    found = []
    for seats, missing in legal.selections(needs, offered):
        for split in legal.joker_splits(missing, hand, jokers):
            found.append((seats, split))
    return found


def _check_shape(move: Any) -> str:
    kind = move_type(move, _KEY_NAMES)
    for name, shape in _MOVE_KEYS[kind]:
        value = move[name]
        if shape == "int" and type(value) is not int:
            raise IllegalMove("bad_move", f"{name!r} must be an integer.", key=name)
        if shape == "bool" and type(value) is not bool:
            raise IllegalMove("bad_move", f"{name!r} must be true or false.", key=name)
        if shape == "cards" and not _is_card_set(value):
            raise IllegalMove(
                "bad_move",
                f"{name!r} must map card types ({', '.join(data.TYPES)}) to positive counts.",
                key=name,
            )
        if shape == "seats" and not (
            isinstance(value, list)
            and all(type(v) is int for v in value)
            and value == sorted(set(value))
        ):
            raise IllegalMove(
                "bad_move", f"{name!r} must list seats in ascending order, once each.", key=name
            )
    return kind


def _is_card_set(value: Any) -> bool:
    return isinstance(value, dict) and all(
        k in data.TYPE_INDEX and type(n) is int and 0 < n <= 1_000 for k, n in value.items()
    )


def _cards_of(value: dict[str, int]) -> Cards:
    counts = [0, 0, 0, 0]
    for name, n in value.items():
        counts[data.TYPE_INDEX[name]] = n
    return (counts[0], counts[1], counts[2], counts[3])


def _require_action(s: State, seat: int, kind: str) -> None:
    if kind not in s.actions[seat]:
        raise IllegalMove("no_action_card", f"You hold no {kind} card.", card=kind)


def _build(s: State, wonder: int, disc: int) -> State:
    if wonder not in data.WONDERS:
        raise IllegalMove("no_such_wonder", f"There is no wonder {wonder}.", wonder=wonder)
    if disc not in s.wonders[wonder - 1]:
        raise IllegalMove(
            "no_such_disc",
            f"Wonder {wonder} has no disc {disc} left.",
            wonder=wonder,
            disc=disc,
        )
    return table.start_build(s, wonder, disc)


def _offer(s: State, seat: int, offer: Offer) -> State:
    assert s.build is not None
    needs = data.DISCS[s.build.disc]
    problem = legal.is_legal_offer(needs, s.hands[seat], offer, data.OFFER_BONUS in s.actions[seat])
    if problem is not None:
        raise IllegalMove(problem, _OFFER_PROBLEMS[problem], needs=cards_to_json(needs))
    return table.make_offer(s, seat, offer)


_OFFER_PROBLEMS = {
    "wrong_type": "An offer holds only cards of the types the disc needs.",
    "offer_too_large": "An offer holds at most the disc's number of cards of each type.",
    "not_in_hand": "You do not hold those cards.",
    "offer_needs_cards": "A trading card or an offer bonus card needs building cards with it.",
    "no_action_card": "You hold no offer bonus card.",
}


def _accept(s: State, seats: tuple[int, ...], jokers: Cards) -> State:
    build = s.build
    assert build is not None
    for seat in seats:
        offer = build.offers[seat] if 0 <= seat < s.players else None
        if offer is None or offer.size == 0:
            raise IllegalMove("no_such_offer", f"Seat {seat} made no offer.", seat=seat)
    if (seats, jokers) in accept_options(s):
        return table.accept(s, seats, jokers)
    needs = data.DISCS[build.disc]
    chosen = [build.offers[seat] for seat in seats]
    if sum(o.trading_card for o in chosen if o is not None) > 1:
        raise IllegalMove("two_trading_cards", "At most one chosen offer may hold a trading card.")
    total = [sum(o.cards[k] for o in chosen if o is not None) for k in range(4)]
    if any(total[k] > needs[k] for k in range(4)):
        raise IllegalMove(
            "too_many_cards",
            "The chosen offers hold more cards than the disc needs.",
            needs=cards_to_json(needs),
        )
    if sum(jokers) > s.actions[s.active].count(data.JOKER):
        raise IllegalMove("no_action_card", "You do not hold that many jokers.", card=data.JOKER)
    missing = [needs[k] - total[k] for k in range(4)]
    if any(data.JOKER_CARDS * jokers[k] > missing[k] for k in range(4)):
        raise IllegalMove("joker_does_not_fit", "A joker must stand for two missing cards.")
    raise IllegalMove(
        "cannot_complete",
        "Your hand cannot complete the disc with these offers.",
        missing=cards_to_json(_cards_tuple(missing)),
    )


def _cards_tuple(values: list[int]) -> Cards:
    return (values[0], values[1], values[2], values[3])


def _card_exchange(s: State, seat: int, cards: Cards) -> State:
    _require_action(s, seat, data.CARD_EXCHANGE)
    if not 1 <= sum(cards) <= data.CARD_EXCHANGE_MAX:
        raise IllegalMove(
            "exchange_size",
            f"A card exchange trades 1 to {data.CARD_EXCHANGE_MAX} cards.",
            most=data.CARD_EXCHANGE_MAX,
        )
    if any(cards[k] > s.hands[seat][k] for k in range(4)):
        raise IllegalMove("not_in_hand", "You do not hold those cards.")
    return table.card_exchange(s, seat, cards)
