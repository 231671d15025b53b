"""A tiny card game with hidden information, for testing the bots without a real engine.

"Ten rows", 2-3 players. Cards are numbered 1..8, with `players + 1` copies of each.
Each player holds a secret hand of one card and builds three open rows.

A turn has two steps by the same seat:

1. `{"type": "take_card", "index": i}` takes market card i (the market is refilled from
   the top of the face-down deck), or `{"type": "draw_card"}` takes the top deck card
   unseen by the others.
2. `{"type": "play_card", "card": v, "row": r}` plays a card of value v from the hand
   onto row r (0..2).

A row scores its sum if the sum is at most 10, 15 if the sum is exactly 10, and 0 above
10. After `TURNS` turns each, the game ends; the highest total wins, ties broken by more
rows at exactly 10 and then shared.

State JSON (`dump`): `players`, `deck` (top first), `market`, `hands` (one list per seat),
`rows` (per seat, three lists of cards), `current`, `step` ("take" or "play"),
`turns_left` (turns still to be played, all seats together).

The engine implements the site's engine protocol plus `determinize`, which the bots use.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

from games.engines.base import IllegalMove

TAKE_CARD = "take_card"
DRAW_CARD = "draw_card"
PLAY_CARD = "play_card"

VALUES = range(1, 9)
ROWS = 3
TURNS = 6
MARKET = 3
TARGET = 10
EXACT_BONUS = 15


@dataclass(frozen=True, slots=True)
class State:
    players: int
    deck: tuple[int, ...]
    market: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    current: int
    step: str
    turns_left: int


def full_deck(players: int) -> list[int]:
    return [v for v in VALUES for _ in range(players + 1)]


def row_score(row: tuple[int, ...]) -> int:
    total = sum(row)
    if total == TARGET:
        return EXACT_BONUS
    return total if total < TARGET else 0


class ToyEngine:
    slug = "toy-rows"
    name = "Ten rows"
    min_players = 2
    max_players = 3

    def new_game(self, players: int, seed: int, options: dict | None = None) -> State:
        cards = full_deck(players)
        random.Random(seed).shuffle(cards)
        hands = tuple((cards[i],) for i in range(players))
        rest = cards[players:]
        return State(
            players=players,
            deck=tuple(rest[MARKET:]),
            market=tuple(rest[:MARKET]),
            hands=hands,
            rows=tuple(((),) * ROWS for _ in range(players)),
            current=0,
            step="take",
            turns_left=TURNS * players,
        )

    def to_move(self, state: State) -> list[int]:
        return [] if self.is_over(state) else [state.current]

    def legal_moves(self, state: State, seat: int) -> list[dict]:
        if seat not in self.to_move(state):
            return []
        if state.step == "take":
            moves: list[dict] = [{"type": TAKE_CARD, "index": i} for i in range(len(state.market))]
            if state.deck:
                moves.append({"type": DRAW_CARD})
            return moves
        return [
            {"type": PLAY_CARD, "card": card, "row": row}
            for card in sorted(set(state.hands[seat]))
            for row in range(ROWS)
        ]

    def apply_move(self, state: State, seat: int, move: dict) -> State:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("illegal", f"{move!r} is not legal now")
        hand = list(state.hands[seat])
        if move["type"] == PLAY_CARD:
            hand.remove(move["card"])
            rows = list(state.rows[seat])
            rows[move["row"]] = rows[move["row"]] + (move["card"],)
            return replace(
                state,
                hands=self._with(state.hands, seat, tuple(hand)),
                rows=self._with(state.rows, seat, tuple(rows)),
                current=(seat + 1) % state.players,
                step="take",
                turns_left=state.turns_left - 1,
            )
        deck, market = list(state.deck), list(state.market)
        if move["type"] == DRAW_CARD:
            hand.append(deck.pop(0))
        else:
            hand.append(market.pop(move["index"]))
            if deck:
                market.append(deck.pop(0))
        return replace(
            state,
            deck=tuple(deck),
            market=tuple(market),
            hands=self._with(state.hands, seat, tuple(hand)),
            step="play",
        )

    def is_over(self, state: State) -> bool:
        return state.turns_left <= 0

    def scores(self, state: State) -> dict:
        totals = [sum(row_score(r) for r in rows) for rows in state.rows]
        tens = [sum(1 for r in rows if sum(r) == TARGET) for rows in state.rows]
        ranking = sorted(range(state.players), key=lambda s: (-totals[s], -tens[s], s))
        return {
            "totals": totals,
            "breakdown": [{"rows": totals[s], "tens": tens[s]} for s in range(state.players)],
            "ranking": ranking,
        }

    def view(self, state: State, seat: int | None) -> dict:
        return {
            "players": state.players,
            "to_move": self.to_move(state),
            "step": state.step,
            "market": list(state.market),
            "deck_size": len(state.deck),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "rows": [[list(r) for r in rows] for rows in state.rows],
            "turns_left": state.turns_left,
        }

    def determinize(self, view: dict, seat: int | None, seed: int) -> State:
        """A full state matching `view`: unseen cards dealt at random to hands and deck."""
        players = view["players"]
        unseen = Counter(full_deck(players))
        unseen.subtract(view["market"])
        for rows in view["rows"]:
            for row in rows:
                unseen.subtract(row)
        if seat is not None:
            unseen.subtract(view["hand"])
        pool = sorted(unseen.elements())
        random.Random(seed).shuffle(pool)
        hands = []
        for s in range(players):
            if s == seat:
                hands.append(tuple(view["hand"]))
            else:
                size = view["hand_sizes"][s]
                hands.append(tuple(pool[:size]))
                pool = pool[size:]
        to_move = view["to_move"]
        return State(
            players=players,
            deck=tuple(pool[: view["deck_size"]]),
            market=tuple(view["market"]),
            hands=tuple(hands),
            rows=tuple(tuple(tuple(r) for r in rows) for rows in view["rows"]),
            current=to_move[0] if to_move else 0,
            step=view["step"],
            turns_left=view["turns_left"],
        )

    def dump(self, state: State) -> dict:
        return {
            "players": state.players,
            "deck": list(state.deck),
            "market": list(state.market),
            "hands": [list(h) for h in state.hands],
            "rows": [[list(r) for r in rows] for rows in state.rows],
            "current": state.current,
            "step": state.step,
            "turns_left": state.turns_left,
        }

    def load(self, data: dict) -> State:
        return State(
            players=data["players"],
            deck=tuple(data["deck"]),
            market=tuple(data["market"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            rows=tuple(tuple(tuple(r) for r in rows) for rows in data["rows"]),
            current=data["current"],
            step=data["step"],
            turns_left=data["turns_left"],
        )

    @staticmethod
    def _with(items: tuple, index: int, value: object) -> tuple:
        return items[:index] + (value,) + items[index + 1 :]


ENGINE = ToyEngine()


class RowTwoClosed(ToyEngine):
    """Lists moves onto row 2 but refuses them: an engine (or a bot) that breaks the protocol,
    for the arena's tests (here, not in a test module, so a worker process can import it)."""

    def apply_move(self, state: State, seat: int, move: dict) -> State:
        if move.get("row") == 2:
            raise IllegalMove("row_closed", "Row 2 is closed.", row=2)
        return super().apply_move(state, seat, move)


ROW_TWO_CLOSED = RowTwoClosed()
