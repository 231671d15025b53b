"""Hidden information (hanging-gardens.md §5): the deck order, the face-down tiles, and each
player's face-down bonus tiles (seen by their owner only)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import Rng
from games.engines.hanging_gardens import ENGINE, data
from games.engines.hanging_gardens.state import State

from .positions import garden, place, position, take, temple


def states_of_a_game(players: int, seed: int) -> list[State]:
    """Every state of a game where seats score whenever they can. Groups of 6 are rare in
    such play, so each seat is also dealt the top face-down tile as a bonus tile when it
    first scores (as a group of 6 would): every tile is still in the game exactly once."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed)
    states = [state]
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        scoring = [m for m in moves if m["type"] in ("place_temple", "move_temple")]
        state = ENGINE.apply_move(state, seat, chooser.choice(scoring or moves))
        if scoring and not state.hidden_tiles[seat] and state.supply:
            hidden = list(state.hidden_tiles)
            hidden[seat] = state.supply[:1]
            state = replace(state, hidden_tiles=tuple(hidden), supply=state.supply[1:])
        states.append(state)
    return states


def hidden_from(state: State, seat: int | None) -> State:
    """`state` with everything `seat` cannot see dealt again: the deck in another order, and
    the face-down supply and the other seats' bonus tiles (same counts; revealed once the
    game is over) drawn afresh from the tiles among them. No view of `seat` can tell it
    from `state`."""
    rng = Rng.from_seed(len(state.deck) * 7919 + state.turns_played)
    deck, rng = rng.shuffle(state.deck)
    over = ENGINE.is_over(state)
    others = [] if over else [s for s in range(state.players) if s != seat]
    pool = list(state.supply) + [k for s in others for k in state.hidden_tiles[s]]
    shuffled, _ = rng.shuffle(pool)
    hidden = list(state.hidden_tiles)
    rest = list(shuffled)
    for s in others:
        count = len(state.hidden_tiles[s])
        hidden[s], rest = tuple(rest[:count]), rest[count:]
    return replace(state, deck=deck, supply=tuple(rest), hidden_tiles=tuple(hidden))


SIX_FOUNTAINS_NEXT = garden("FFFF..", "......")


def after_a_bonus_draw() -> State:
    # §6.4: seat 0 scores a fountain group of 6 and draws the king face down.
    state = position(SIX_FOUNTAINS_NEXT, display=[20, 1], supply=["king", "gate", "tiger"])
    state = ENGINE.apply_move(state, 0, place(20, 0, 4, 0))
    state = ENGINE.apply_move(state, 0, temple(0, 0))
    return ENGINE.apply_move(state, 0, take(1, 1))


def test_a_bonus_tile_is_seen_by_its_owner_only() -> None:
    state = after_a_bonus_draw()
    own = ENGINE.view(state, 0)["tiles"][0]
    assert own == {"open": ["queen"], "hidden": ["king"], "hidden_count": 1, "missing": 0}
    for seat in (1, None):
        other = ENGINE.view(state, seat)["tiles"][0]
        assert other == {"open": ["queen"], "hidden": None, "hidden_count": 1, "missing": 0}


def test_running_scores_count_only_the_tiles_a_viewer_sees() -> None:
    state = after_a_bonus_draw()
    # Seat 0 sees its queen (1) and its king (2); seat 1 and spectators see the queen.
    assert ENGINE.view(state, 0)["scores"]["totals"][0] == 3
    assert ENGINE.view(state, 0)["scores"]["complete"] is True
    assert ENGINE.view(state, 1)["scores"]["totals"][0] == 1
    assert ENGINE.view(state, 1)["scores"]["complete"] is False
    assert ENGINE.view(state, None)["scores"]["totals"][0] == 1


def test_possible_remaining_tiles_include_other_players_bonus_tiles() -> None:
    # §5: the unseen tiles are the supply plus the face-down tiles the viewer cannot see.
    state = after_a_bonus_draw()
    assert ENGINE.view(state, 0)["unseen_tiles"]["king"] == data.TILE_COUNTS["king"] - 2
    assert ENGINE.view(state, 1)["unseen_tiles"]["king"] == data.TILE_COUNTS["king"] - 1


def test_when_the_game_is_over_every_tile_is_revealed() -> None:
    state = replace(after_a_bonus_draw(), phase="over")
    for seat in (0, 1, None):
        seen = ENGINE.view(state, seat)
        assert seen["tiles"][0]["hidden"] == ["king"]
        assert seen["scores"]["totals"] == ENGINE.scores(state)["totals"]


def test_the_deck_is_shown_as_a_sorted_list_and_the_supply_as_a_count() -> None:
    state = ENGINE.new_game(3, seed=12)
    seen = ENGINE.view(state, 1)
    assert seen["deck_cards"] == sorted(state.deck)
    assert seen["deck_count"] == 57
    assert seen["supply_count"] == 43
    assert "supply" not in seen and "deck" not in seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_view_changes_when_what_it_cannot_see_is_dealt_again(players: int) -> None:
    states = states_of_a_game(players, seed=players)
    assert any(any(s.hidden_tiles) for s in states), "the game should have bonus tiles"
    for state in states[::3]:
        for seat in [*range(players), None]:
            other = hidden_from(state, seat)
            assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_agrees_with_the_view_and_ignores_what_the_seat_cannot_see(
    players: int,
) -> None:
    for state in states_of_a_game(players, seed=20 + players)[::4]:
        for seat in range(players):
            seen = ENGINE.view(state, seat)
            sampled = ENGINE.determinize(seen, seat, 5)
            assert ENGINE.view(sampled, seat) == seen
            assert ENGINE.to_move(sampled) == ENGINE.to_move(state)
            assert ENGINE.legal_moves(sampled, seat) == ENGINE.legal_moves(state, seat)
            # The same view gives the same sample whatever the true hidden parts are.
            twin = ENGINE.determinize(ENGINE.view(hidden_from(state, seat), seat), seat, 5)
            assert twin == sampled


def test_determinize_deals_every_tile_once() -> None:
    for state in states_of_a_game(3, seed=4)[::9]:
        for seat in (0, 2, None):
            sampled = ENGINE.determinize(ENGINE.view(state, seat), seat, seed=3)
            every = Counter(k for k in sampled.tile_display if k) + Counter(sampled.supply)
            for s in range(3):
                every.update(sampled.open_tiles[s] + sampled.hidden_tiles[s])
            assert every == Counter(data.TILE_COUNTS)
            assert [len(h) for h in sampled.hidden_tiles] == [len(h) for h in state.hidden_tiles]
            assert sorted(sampled.deck) == sorted(state.deck)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 200))
def test_views_are_json_and_hide_what_they_must(players: int, seed: int, steps: int) -> None:
    states = states_of_a_game(players, seed)
    state = states[min(steps, len(states) - 1)]
    for seat in [*range(players), None]:
        seen = ENGINE.view(state, seat)
        assert json.loads(json.dumps(seen)) == seen
        assert ENGINE.view(hidden_from(state, seat), seat) == seen
        for owner in range(players):
            visible = seen["tiles"][owner]["hidden"]
            if owner != seat and not ENGINE.is_over(state):
                assert visible is None
            assert seen["tiles"][owner]["hidden_count"] == len(state.hidden_tiles[owner])
