"""Property tests over random seeds, player counts and options (hypothesis)."""

from __future__ import annotations

import json
import random
from itertools import product
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove
from games.engines.tower_of_babel import ENGINE, data
from games.engines.tower_of_babel.state import OFFERS, RESOLVE, State

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Moves = list[tuple[int, dict[str, Any]]]


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, bool]]:
    players = draw(st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS))
    options = {"two_type_discs": draw(st.booleans()), "no_action_cards": draw(st.booleans())}
    return players, draw(st.integers(0, 2**64)), options


def play(state: State, chooser: random.Random, steps: int = 5_000) -> Moves:
    """Random legal moves; during offers a random one of the seats still to offer moves."""
    moves = []
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        seat = chooser.choice(ENGINE.to_move(state))
        move = chooser.choice(ENGINE.legal_moves(state, seat))
        moves.append((seat, move))
        state = ENGINE.apply_move(state, seat, move)
    return moves


def replay(state: State, moves: Moves) -> State:
    for seat, move in moves:
        state = ENGINE.apply_move(state, seat, move)
    return state


def cards_total(state: State) -> list[int]:
    """Every building card of one type is somewhere: hands, offers, deck or discard pile."""
    total = list(state.discard)
    for hand in state.hands:
        for k in range(4):
            total[k] += hand[k]
    for card in state.deck:
        total[card] += 1
    if state.build is not None:
        for offer in state.build.offers:
            if offer is not None:
                for k in range(4):
                    total[k] += offer.cards[k]
    return total


@SETTINGS
@given(setups())
def test_random_games_end_and_keep_every_card_and_disc(setup: tuple[int, int, dict]) -> None:
    players, seed, options = setup
    state = ENGINE.new_game(players, seed, options)
    discs = sorted(d for w in state.wonders for d in w)
    for seat, move in play(state, random.Random(seed)):
        state = ENGINE.apply_move(state, seat, move)
        assert cards_total(state) == [25, 25, 25, 25]
        held = [d for w in state.wonders for d in w] + [d for ds in state.discs for d in ds]
        assert sorted(held) == discs
        assert all(n >= 0 for hand in state.hands for n in hand)
    assert ENGINE.is_over(state)
    # §2.9: the game ended because some type has no disc left on the board.
    on_board = [d for w in state.wonders for d in w]
    assert any(all(data.DISCS[d][k] == 0 for d in on_board) for k in range(4))
    # At most 7 wonders can be completed (§2.9).
    assert state.completed <= 7
    scores = ENGINE.scores(state)
    assert scores["totals"] == [sum(b.values()) for b in scores["breakdown"]]
    assert sorted(scores["ranking"]) == list(range(players))


@SETTINGS
@given(setups())
def test_scores_add_up_at_every_step(setup: tuple[int, int, dict]) -> None:
    players, seed, options = setup
    state = ENGINE.new_game(players, seed, options)
    for seat, move in play(state, random.Random(seed)):
        state = ENGINE.apply_move(state, seat, move)
        scores = ENGINE.scores(state)
        assert scores["totals"] == [sum(b.values()) for b in scores["breakdown"]]


def _card_sets(limit: int) -> list[dict[str, int]]:
    sets = []
    for counts in product(range(limit + 1), repeat=4):
        sets.append({data.TYPES[k]: n for k, n in enumerate(counts) if n})
    return sets


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 200), st.booleans())
def test_legal_moves_are_exactly_the_offers_and_choices_the_rules_allow(
    seed: int, steps: int, two_type: bool
) -> None:
    # Brute force over every card set up to 6 of a type (offers) and every subset of
    # seats with every joker split (choices): apply_move accepts exactly the listed moves.
    start = ENGINE.new_game(4, seed, {"two_type_discs": two_type})
    state = replay(start, play(start, random.Random(seed), steps=steps))
    if state.phase not in (OFFERS, RESOLVE):
        return
    seat = ENGINE.to_move(state)[0]
    if state.phase == OFFERS:
        candidates = [
            {"type": "offer", "cards": c, "trading_card": t, "offer_bonus": b}
            for c in _card_sets(6)
            for t in (False, True)
            for b in (False, True)
        ]
    else:
        subsets = [[s for s in range(4) if mask >> s & 1] for mask in range(16)]
        candidates = [
            {"type": "accept", "offers": s, "jokers": j} for s in subsets for j in _card_sets(2)
        ]
    accepted = []
    for move in candidates:
        try:
            ENGINE.apply_move(state, seat, move)
        except IllegalMove:
            continue
        accepted.append(json.dumps(move, sort_keys=True))
    listed = [
        json.dumps(m, sort_keys=True)
        for m in ENGINE.legal_moves(state, seat)
        if m["type"] == candidates[0]["type"]
    ]
    assert sorted(accepted) == sorted(listed)
    assert len(set(listed)) == len(listed)
