"""Taking back a step, on the engine side (DESIGN.md principle 8): which steps show
something hidden (`reveals`), and which may be taken back (`base.can_take_back_step`).

Whether a step showed something is checked here without the engine's own answer: a step
that shows a viewer nothing hidden gives that viewer the same view whatever the hidden
parts were. So the step is played again in states sampled from each viewer's view before
it (`determinize`); if one of them leads to another view after it, the step showed that
viewer something, and the engine must say so.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engines
from games.engines.base import Engine, IllegalMove, can_take_back_step, turn_goes_on

TAKING_BACK = [e for e in engines.all() if hasattr(e, "reveals")]
PROPERTY = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
SAMPLES = (1, 2, 3)


def by_slug(engine: Engine) -> str:
    return engine.slug


def playout(engine: Engine, seed: int, players: int, steps: int) -> list[tuple[Any, int, dict]]:
    """(state before, seat, move) for each step of a uniformly random game."""
    chooser = random.Random(seed)
    state = engine.new_game(players, seed=seed)
    played = []
    for _ in range(steps):
        if engine.is_over(state):
            break
        seat = chooser.choice(engine.to_move(state))
        move = chooser.choice(engine.legal_moves(state, seat))
        played.append((state, seat, move))
        state = engine.apply_move(state, seat, move)
    return played


def shows_something(
    engine: Engine, players: int, before: Any, seat: int, move: dict, after: Any
) -> bool:
    """True when some viewer's view after the step depends on what that viewer could not
    see before it (the step, played in states sampled from the view, gives another view)."""
    viewers: list[int | None] = [*range(players), None]
    for viewer in viewers:
        seen, expected = engine.view(before, viewer), engine.view(after, viewer)
        for sample_seed in SAMPLES:
            sample = engine.determinize(seen, viewer, sample_seed)
            try:
                sampled_after = engine.apply_move(sample, seat, move)
            except IllegalMove:
                continue  # a sample the view allows but the step's own position rules out
            if engine.view(sampled_after, viewer) != expected:
                return True
    return False


def dumped(engine: Engine, state: Any) -> str:
    return json.dumps(engine.dump(state))


@pytest.mark.parametrize("engine", TAKING_BACK, ids=by_slug)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_step_that_shows_something_hidden_is_said_to_reveal(
    engine: Engine, seed: int, data: st.DataObject
) -> None:
    players = data.draw(st.integers(engine.min_players, engine.max_players), label="players")
    for before, seat, move in playout(engine, seed, players, steps=400):
        after = engine.apply_move(before, seat, move)
        # Only a step after which the seat's turn goes on could be taken back.
        if not turn_goes_on(engine, after, seat):
            continue
        if shows_something(engine, players, before, seat, move, after):
            assert engine.reveals(before, seat, move), move
            assert not can_take_back_step(engine, before, seat, move, after)


@pytest.mark.parametrize("engine", TAKING_BACK, ids=by_slug)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_taking_back_the_last_steps_one_by_one_restores_each_state_exactly(
    engine: Engine, seed: int, data: st.DataObject
) -> None:
    players = data.draw(st.integers(engine.min_players, engine.max_players), label="players")
    played = playout(engine, seed, players, steps=data.draw(st.integers(1, 300), label="steps"))
    log = [(seat, move) for _, seat, move in played]
    state = engine.apply_move(*played[-1]) if played else None
    # Taken back as the site does: the log without its last step, replayed from the seed.
    while played:
        before, seat, move = played[-1]
        if not can_take_back_step(engine, before, seat, move, state):
            break
        log.pop()
        played.pop()
        state = engine.new_game(players, seed=seed)
        for mover, step in log:
            state = engine.apply_move(state, mover, json.loads(json.dumps(step)))
        assert dumped(engine, state) == dumped(engine, before)
        assert seat in engine.to_move(state)
