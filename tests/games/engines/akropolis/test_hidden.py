"""Hidden information (akropolis.md §5): only the face-down stacks are secret."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.akropolis import ENGINE, data
from games.engines.akropolis.state import State
from games.engines.base import Rng


def states_of_a_game(
    players: int, seed: int, options: dict[str, Any] | None = None, moves: int | None = None
) -> list[State]:
    """The states of a game of random legal moves: the whole game, or its first `moves`."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    states = [state]
    while not ENGINE.is_over(state) and (moves is None or len(states) <= moves):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
        states.append(state)
    return states


def tile_ids_in(view: Any) -> set[int]:
    """Every value under a "tile" key anywhere in the view."""
    found: set[int] = set()
    if isinstance(view, dict):
        for key, value in view.items():
            if key == "tile":
                found.add(value)
            else:
                found |= tile_ids_in(value)
    elif isinstance(view, list):
        for item in view:
            found |= tile_ids_in(item)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_view_names_no_tile_of_the_face_down_stacks(players: int, seat: int | None) -> None:
    for state in states_of_a_game(players, seed=players)[::5]:
        hidden = {t for stack in state.stacks for t in stack}
        seen = ENGINE.view(state, seat)
        assert tile_ids_in(seen) & hidden == set()
        assert seen["stacks_left"] == len(state.stacks)
        assert seen["face_down_tiles"] == len(hidden)


def with_stacks_shuffled(state: State, seed: int) -> State:
    """The same state with the face-down tiles dealt into the same stack sizes in another
    order: a state no seat can tell apart from `state`."""
    flat = [t for stack in state.stacks for t in stack]
    shuffled, _ = Rng.from_seed(seed).shuffle(flat)
    stacks, start = [], 0
    for stack in state.stacks:
        stacks.append(shuffled[start : start + len(stack)])
        start += len(stack)
    return replace(state, stacks=tuple(stacks))


@pytest.mark.parametrize("seat", [0, 1, None])
def test_view_does_not_change_when_only_the_stacks_differ(seat: int | None) -> None:
    for state in states_of_a_game(2, seed=8)[::6]:
        other = with_stacks_shuffled(state, seed=1234)
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


@st.composite
def positions_after_random_moves(draw: st.DrawFn) -> State:
    """Any player count, long game where allowed, and a random number of random moves."""
    players = draw(st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS))
    long_game = players in data.LONG_GAME_PLAYER_COUNTS and draw(st.booleans())
    seed = draw(st.integers(0, 2**64))
    moves = draw(st.integers(0, 2 * 60))  # two moves per turn, at most 60 turns
    return states_of_a_game(players, seed, {"long_game": long_game}, moves)[-1]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions_after_random_moves(), st.integers(0, 2**64))
def test_no_view_reveals_the_face_down_stacks(state: State, shuffle_seed: int) -> None:
    hidden = {t for stack in state.stacks for t in stack}
    other = with_stacks_shuffled(state, shuffle_seed)
    for seat in [*range(state.players), None]:
        seen = ENGINE.view(state, seat)
        assert tile_ids_in(seen) & hidden == set()
        assert seen["stacks_left"] == len(state.stacks)
        assert seen["face_down_tiles"] == len(hidden)
        # Whatever order the face-down tiles lie in, every seat sees exactly the same.
        assert ENGINE.view(other, seat) == seen


def test_everything_else_is_public_to_every_seat_and_spectators() -> None:
    state = states_of_a_game(3, seed=2)[20]
    views = [ENGINE.view(state, seat) for seat in (0, 1, 2, None)]
    for view in views:
        del view["seat"], view["legal"]
    assert all(view == views[0] for view in views)
    assert views[0]["stones"] == list(state.stones)
    assert [entry["tile"] for entry in views[0]["site"]] == list(state.site)


def test_covered_hexes_are_public() -> None:
    state = states_of_a_game(2, seed=5)[-1]
    city = ENGINE.view(state, None)["cities"][0]
    stacks = {(c["q"], c["r"]): [h["tile"] for h in c["stack"]] for c in city}
    dumped = {
        (c["q"], c["r"]): [tile for _, tile in c["stack"]] for c in ENGINE.dump(state)["cities"][0]
    }
    assert stacks == dumped


def test_view_is_json_safe_at_every_step() -> None:
    for state in states_of_a_game(4, seed=1):
        for seat in (None, *range(4)):
            json.dumps(ENGINE.view(state, seat))


def test_legal_summary_matches_legal_moves_for_the_seat_to_move() -> None:
    for state in states_of_a_game(2, seed=3)[:10]:
        seat = state.current
        legal = ENGINE.view(state, seat)["legal"]
        moves = ENGINE.legal_moves(state, seat)
        as_moves = [{"type": "take_tile", "index": i} for i in legal["take"]] + [
            {"type": "place_tile", "q": p["q"], "r": p["r"], "rotation": p["rotation"]}
            for p in legal["place"]
        ]
        assert as_moves == moves
        other = ENGINE.view(state, 1 - seat)["legal"]
        assert other == {"take": [], "place": []}


def test_place_summary_shows_where_each_hex_of_the_taken_tile_lands() -> None:
    state = ENGINE.apply_move(ENGINE.new_game(2, seed=1), 0, {"type": "take_tile", "index": 0})
    codes = ENGINE.view(state, 0)["taken"]["hexes"]
    for entry in ENGINE.view(state, 0)["legal"]["place"]:
        assert entry["level"] == 1 or entry["level"] == 2
        assert [h["hex"] for h in entry["hexes"]] == list(codes)
        assert (entry["hexes"][0]["q"], entry["hexes"][0]["r"]) == (entry["q"], entry["r"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_the_view_and_samples_only_the_hidden_tiles(players: int) -> None:
    for state in states_of_a_game(players, seed=10 + players)[::9]:
        seen = ENGINE.view(state, 0)
        sampled = ENGINE.determinize(seen, 0, seed=77)
        assert ENGINE.view(sampled, 0) == seen
        assert sorted(t for s in sampled.stacks for t in s) == sorted(
            t for s in state.stacks for t in s
        )
        assert [len(s) for s in sampled.stacks] == [len(s) for s in state.stacks]


def test_determinize_orders_depend_on_the_seed() -> None:
    seen = ENGINE.view(ENGINE.new_game(4, seed=1), 0)
    orders = {ENGINE.determinize(seen, 0, seed=s).stacks for s in range(5)}
    assert len(orders) == 5


def test_a_determinized_state_plays_to_a_legal_end() -> None:
    state = states_of_a_game(3, seed=4)[30]
    sampled = ENGINE.determinize(ENGINE.view(state, 1), 1, seed=5)
    chooser = random.Random(0)
    while not ENGINE.is_over(sampled):
        seat = ENGINE.to_move(sampled)[0]
        move = chooser.choice(ENGINE.legal_moves(sampled, seat))
        sampled = ENGINE.apply_move(sampled, seat, move)
    assert sampled.turns_played == 48
