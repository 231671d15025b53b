"""Hidden information (spec §5): the face-down round tokens, the tokens never drawn and
the covered quarry tiles are seen by nobody; everything else is public."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.babylon import ENGINE, data
from games.engines.babylon.state import State
from games.engines.base import Rng


def states_of_a_game(players: int, seed: int) -> list[State]:
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed)
    states = [state]
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
        states.append(state)
    return states


def covered_tiles(state: State) -> set[str]:
    return {t for stack in state.quarry for t in stack[:-1]}


def strings_in(value: object) -> set[str]:
    return set(json.dumps(value).split('"')[1::2])


def with_hidden_reshuffled(state: State, seed: int) -> State:
    """Another state no seat can tell apart: the covered tiles of each layer dealt again,
    and the face-down and never-drawn tokens drawn again from the same unseen tokens."""
    rng = Rng.from_seed(seed)
    quarry = [list(stack) for stack in state.quarry]
    for layer in (1, 2):
        slots = [i for i, stack in enumerate(quarry) if len(stack) > layer]
        tiles, rng = rng.shuffle([quarry[i][layer - 1] for i in slots])
        for i, tile in zip(slots, tiles, strict=True):
            quarry[i][layer - 1] = tile
    unseen, rng = rng.shuffle(state.tokens + state.unused_tokens)
    left = len(state.tokens)
    return replace(
        state,
        quarry=tuple(tuple(s) for s in quarry),
        tokens=unseen[:left],
        unused_tokens=unseen[left:],
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_view_names_no_covered_quarry_tile_and_no_face_down_token(
    players: int, seat: int | None
) -> None:
    for state in states_of_a_game(players, seed=players)[::4]:
        seen = ENGINE.view(state, seat)
        assert strings_in(seen) & covered_tiles(state) == set()
        assert "tokens" not in seen and "unused_tokens" not in seen
        assert seen["tokens_left"] == len(state.tokens)
        assert seen["revealed"] == list(state.revealed)


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_view_does_not_change_when_only_hidden_parts_differ(seat: int | None) -> None:
    changed = 0
    for state in states_of_a_game(3, seed=8)[::5]:
        other = with_hidden_reshuffled(state, seed=1234)
        changed += other != state
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
    assert changed > 5  # the reshuffle really changed something


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 200), st.integers(0, 2**32))
def test_determinize_rebuilds_a_state_with_the_same_view(
    players: int, seed: int, step: int, sample: int
) -> None:
    states = states_of_a_game(players, seed)
    state = states[min(step, len(states) - 1)]
    seat = ENGINE.to_move(state)[0] if not ENGINE.is_over(state) else 0
    seen = ENGINE.view(state, seat)
    sampled = ENGINE.determinize(seen, seat, sample)
    assert ENGINE.view(sampled, seat) == seen
    assert ENGINE.to_move(sampled) == ENGINE.to_move(state)
    assert ENGINE.legal_moves(sampled, seat) == ENGINE.legal_moves(state, seat)
    # The samples put each covered tile on its own material's layer.
    for stack in sampled.quarry:
        assert [data.material(t) for t in stack] == ["basalt", "granite", "clay"][: len(stack)]
    assert sorted(sampled.tokens + sampled.unused_tokens + sampled.revealed) == sorted(
        data.ROUND_TOKENS
    )


def test_determinize_samples_differ_only_in_hidden_parts() -> None:
    state = states_of_a_game(2, seed=3)[20]
    seen = ENGINE.view(state, 0)
    samples = [ENGINE.determinize(seen, 0, s) for s in range(6)]
    assert len({(s.quarry, s.tokens) for s in samples}) > 1
    for sample in samples:
        assert sample.boards == state.boards
        assert [st[-1:] for st in sample.quarry] == [st[-1:] for st in state.quarry]
        assert sample.heights == state.heights
