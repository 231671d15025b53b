"""What the rules allow in each step (spec §2.4, §3.4), as plain tuples.

The engine turns these into move dicts (`engine.py`); the checks of `apply_move` use the
same functions, so a move is legal exactly when it is listed. Results that depend only on
small inputs (a hand, a disc) are cached, since bots ask for them again and again.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from games.engines.tower_of_babel import data
from games.engines.tower_of_babel.state import Cards, Offer


def _cards(values: list[int] | tuple[int, ...]) -> Cards:
    return (values[0], values[1], values[2], values[3])


@lru_cache(maxsize=4096)
def offer_cards(needs: Cards, hand: Cards) -> tuple[Cards, ...]:
    """§2.4 step 2, A5, A25: every non-empty set of correct cards, at most the disc's
    number of each type, that the hand holds (the empty offer is listed apart)."""
    ranges = [range(min(needs[k], hand[k]) + 1) for k in range(4)]
    found = [_cards(c) for c in product(*ranges) if any(c)]
    found.sort(key=lambda c: (sum(c), c))
    return tuple(found)


def offers(needs: Cards, hand: Cards, has_bonus: bool) -> list[Offer]:
    """Every legal offer: nothing, or cards, each with or without the trading card, and
    with or without the offer bonus card when the player holds one (A5, A7)."""
    result = [Offer((0, 0, 0, 0))]
    flags = (False, True)
    for cards in offer_cards(needs, hand):
        for trading in flags:
            for bonus in flags if has_bonus else (False,):
                result.append(Offer(cards, trading, bonus))
    return result


def is_legal_offer(needs: Cards, hand: Cards, offer: Offer, has_bonus: bool) -> str | None:
    """None when the offer is legal, else the IllegalMove code that says why."""
    if any(offer.cards[k] and not needs[k] for k in range(4)):
        return "wrong_type"
    if any(offer.cards[k] > needs[k] for k in range(4)):
        return "offer_too_large"
    if any(offer.cards[k] > hand[k] for k in range(4)):
        return "not_in_hand"
    if (offer.trading_card or offer.offer_bonus) and offer.size == 0:
        return "offer_needs_cards"
    if offer.offer_bonus and not has_bonus:
        return "no_action_card"
    return None


def joker_splits(missing: Cards, hand: Cards, jokers: int) -> list[Cards]:
    """§2.4 step 4, §3.4, A8: the ways to fill `missing` from the hand with some jokers,
    each joker standing for exactly 2 cards of one type. Returns the jokers per type."""
    per_type: list[list[int]] = []
    for k in range(4):
        need = missing[k]
        low = max(0, (need - hand[k] + 1) // 2)
        high = min(need // 2, jokers)
        if low > high:
            return []
        per_type.append(list(range(low, high + 1)))
    return [_cards(split) for split in product(*per_type) if sum(split) <= jokers]


def selections(
    needs: Cards, offered: list[tuple[int, Offer]]
) -> list[tuple[tuple[int, ...], Cards]]:
    """§2.4 step 3: every allowed subset of the non-empty offers (whole offers, at most
    one with a trading card, no type above the disc's number), with the cards still
    missing. Subsets are listed in order of their bit masks over `offered`."""
    result = []
    for mask in range(1 << len(offered)):
        trading = 0
        total = [0, 0, 0, 0]
        seats = []
        for i, (seat, offer) in enumerate(offered):
            if mask >> i & 1:
                seats.append(seat)
                trading += offer.trading_card
                for k in range(4):
                    total[k] += offer.cards[k]
        if trading > 1 or any(total[k] > needs[k] for k in range(4)):
            continue
        result.append((tuple(seats), _cards([needs[k] - total[k] for k in range(4)])))
    return result


@lru_cache(maxsize=4096)
def exchanges(hand: Cards) -> tuple[Cards, ...]:
    """§3.4 card exchange: every multiset of 1 to 5 cards of the hand."""
    limit = data.CARD_EXCHANGE_MAX
    ranges = [range(min(hand[k], limit) + 1) for k in range(4)]
    found = [_cards(c) for c in product(*ranges) if 1 <= sum(c) <= limit]
    found.sort(key=lambda c: (sum(c), c))
    return tuple(found)
