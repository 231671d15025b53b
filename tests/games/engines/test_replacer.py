"""`records.replacer`: the bots' quick `dataclasses.replace` (games/engines/records.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.state import evolve, evolve_turn
from games.engines.records import replacer


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    label: str = ""


def test_it_makes_what_dataclasses_replace_makes():
    move = replacer(Point)
    p = Point(1, 2, "a")
    moved = move(p, y=5)
    assert moved == dataclasses.replace(p, y=5) == Point(1, 5, "a")
    assert type(moved) is Point
    assert p == Point(1, 2, "a")  # the original is untouched
    assert move(p) == p and move(p) is not p
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.x = 3  # type: ignore[misc]


def test_an_unknown_field_is_refused():
    with pytest.raises(KeyError):
        replacer(Point)(Point(1, 2), z=3)


def test_a_class_that_needs_its_init_is_refused():
    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int
        b: int

        def __post_init__(self) -> None:
            if self.a > self.b:
                raise ValueError("a > b")

    @dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int
        total: int = field(init=False, default=0)

    @dataclass(frozen=True)
    class Unslotted:
        a: int
        b: int

    for cls in (Checked, Derived, Unslotted):
        with pytest.raises(TypeError):
            replacer(cls)


def test_the_hanging_gardens_states_and_turns_replace_as_before():
    """Every state of a game, with each field changed in turn, equals `dataclasses.replace`'s."""
    state = ENGINE.new_game(3, seed=5)
    seen = 0
    while not ENGINE.is_over(state) and seen < 60:
        seat = ENGINE.to_move(state)[0]
        for f in dataclasses.fields(state):
            value = getattr(state, f.name)
            assert evolve(state, **{f.name: value}) == dataclasses.replace(state, **{f.name: value})
        assert evolve(state, turn=state.turn + 1) == dataclasses.replace(state, turn=state.turn + 1)
        if state.last is not None:
            assert evolve_turn(state.last, missing=2) == dataclasses.replace(state.last, missing=2)
        state = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[0])
        seen += 1
    assert seen == 60
