"""Hidden information (tower-of-babel.md §5): hands, offers before the reveal and the decks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.tower_of_babel import ENGINE, data
from games.engines.tower_of_babel.state import OFFERS, OVER, State

from .positions import (
    BLUE,
    GREEN,
    RED,
    SHIP_5,
    YELLOW,
    offer,
    offering,
    play,
    with_secrets_redealt,
)


def states_of_a_game(
    players: int, seed: int, options: dict[str, Any] | None = None, moves: int | None = None
) -> list[State]:
    """The states of a game of random legal moves by whoever may move."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    states = [state]
    while not ENGINE.is_over(state) and (moves is None or len(states) <= moves):
        seat = chooser.choice(ENGINE.to_move(state))
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
        states.append(state)
    return states


@st.composite
def positions_after_random_moves(draw: st.DrawFn) -> State:
    players = draw(st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS))
    options = {"two_type_discs": draw(st.booleans()), "no_action_cards": draw(st.booleans())}
    seed = draw(st.integers(0, 2**64))
    moves = draw(st.integers(0, 250))
    return states_of_a_game(players, seed, options, moves)[-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions_after_random_moves(), st.integers(0, 2**32))
def test_no_view_changes_when_what_it_may_not_see_is_dealt_again(state: State, seed: int) -> None:
    # Whatever another seat holds or secretly offered, and whatever order the decks are
    # in, every seat (and a spectator) sees exactly the same: so no view contains another
    # seat's hand, an unrevealed offer (not even its size) or the decks.
    for viewer in [*range(state.players), None]:
        other = with_secrets_redealt(state, viewer, seed)
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)


def test_the_redeal_really_changes_hidden_things() -> None:
    # Guard for the test above: the redealt states differ from the real one.
    state = states_of_a_game(4, seed=3, moves=40)[-1]
    others = [with_secrets_redealt(state, 0, seed) for seed in range(5)]
    assert any(o.hands[1:] != state.hands[1:] for o in others)
    assert all(o.hands[0] == state.hands[0] for o in others)


def test_an_offer_is_seen_by_its_owner_and_by_others_only_as_made() -> None:
    state = offering(
        SHIP_5,
        hands=[{"ship": 1}, {"ship": 3, "camel": 1}, {"ship": 2}, {}],
        actions=[[], ["offer_bonus"], [], []],
    )
    after = play(state, YELLOW, "offer", **offer({"ship": 2}, trading=True, bonus=True))
    mine = ENGINE.view(after, YELLOW)
    assert mine["build"]["offers"][YELLOW] == offer({"ship": 2}, trading=True, bonus=True)
    assert mine["hand"] == {"camel": 1, "ship": 1}
    for viewer in (RED, GREEN, BLUE, None):
        seen = ENGINE.view(after, viewer)
        assert seen["build"]["offers"][YELLOW] == {"hidden": True}
        assert seen["build"]["offered"] == [None, True, False, False]
        # The hand still counts the offered cards, the trading card still shows at home.
        assert seen["hand_sizes"][YELLOW] == 4
        assert seen["action_counts"][YELLOW] == 1
        assert seen["trading_cards"][YELLOW] is True
        assert "ship" not in json.dumps(seen["build"]["offers"])


def test_offers_are_revealed_to_everyone_when_the_last_one_is_in() -> None:
    state = offering(SHIP_5, hands=[{}, {"ship": 1}, {"ship": 2}, {}])
    state = play(state, YELLOW, "offer", **offer({"ship": 1}))
    state = play(state, GREEN, "offer", **offer({"ship": 2}, trading=True))
    state = play(state, BLUE, "offer", **offer())
    for viewer in (RED, YELLOW, GREEN, BLUE, None):
        seen = ENGINE.view(state, viewer)
        assert seen["build"]["revealed"] is True
        assert seen["build"]["offers"] == [
            None,
            offer({"ship": 1}),
            offer({"ship": 2}, trading=True),
            offer(),
        ]
        assert seen["trading_cards"] == [True, True, False, True]
        assert seen["hand_sizes"] == [0, 0, 0, 0]


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_hands_and_action_cards_of_others_are_only_counted(seat: int | None) -> None:
    states = [s for s in states_of_a_game(3, seed=6) if s.phase != OFFERS]
    for state in states[::10]:
        seen = ENGINE.view(state, seat)
        assert seen["hand_sizes"] == [sum(h) for h in state.hands]
        assert seen["action_counts"] == [len(a) for a in state.actions]
        if seat is None:
            assert seen["hand"] is None and seen["actions"] is None
        else:
            assert seen["hand"] == ENGINE.dump(state)["hands"][seat]
            assert seen["actions"] == list(state.actions[seat])
        assert seen["deck_size"] == len(state.deck)
        assert seen["action_deck_size"] == len(state.action_deck)


def test_at_the_end_every_action_card_is_shown_for_final_scoring() -> None:
    final = states_of_a_game(4, seed=12)[-1]
    assert final.phase == OVER
    seen = ENGINE.view(final, None)
    assert seen["all_actions"] == [list(a) for a in final.actions]
    assert seen["scoring_row"] == "light"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinize_keeps_the_view_and_samples_only_what_is_hidden(players: int) -> None:
    options = {"two_type_discs": players == 4}
    for state in states_of_a_game(players, seed=20 + players, options=options)[::5]:
        for viewer in (0, players - 1, None):
            seen = ENGINE.view(state, viewer)
            sampled = ENGINE.determinize(seen, viewer, 77)
            assert ENGINE.view(sampled, viewer) == seen
            assert ENGINE.to_move(sampled) == ENGINE.to_move(state)
            if viewer is not None:
                assert sampled.hands[viewer] == state.hands[viewer]
                assert sampled.actions[viewer] == state.actions[viewer]


def test_determinize_samples_other_hands_from_the_seed() -> None:
    state = states_of_a_game(4, seed=2, moves=30)[-1]
    seen = ENGINE.view(state, 0)
    samples = {ENGINE.determinize(seen, 0, seed).hands[1:] for seed in range(6)}
    assert len(samples) > 1


def test_a_determinized_state_plays_to_a_legal_end() -> None:
    state = states_of_a_game(5, seed=4, moves=50)[-1]
    sampled = ENGINE.determinize(ENGINE.view(state, 2), 2, seed=5)
    chooser = random.Random(0)
    while not ENGINE.is_over(sampled):
        seat = chooser.choice(ENGINE.to_move(sampled))
        sampled = ENGINE.apply_move(
            sampled, seat, chooser.choice(ENGINE.legal_moves(sampled, seat))
        )
    assert sorted(ENGINE.scores(sampled)["ranking"]) == [0, 1, 2, 3, 4]


def test_views_are_json_safe_at_every_step() -> None:
    for state in states_of_a_game(5, seed=1, options={"two_type_discs": True}):
        for seat in (None, *range(5)):
            json.dumps(ENGINE.view(state, seat))


def test_the_view_lists_the_seats_legal_moves_and_nothing_for_others() -> None:
    for state in states_of_a_game(4, seed=9)[:40]:
        for seat in range(4):
            assert ENGINE.view(state, seat)["legal"] == ENGINE.legal_moves(state, seat)
        assert ENGINE.view(state, None)["legal"] == []
