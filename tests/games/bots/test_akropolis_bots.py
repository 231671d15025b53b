"""Bots on the real Akropolis engine, and its evaluation function."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation

akropolis = pytest.importorskip("games.engines.akropolis")
akropolis_evaluate = pytest.importorskip("games.bots.akropolis.evaluate")
ENGINE = akropolis.ENGINE

ALL_LEVELS = bots.LEVELS + bots.BOTS
ITERATIONS = 8


def positions(seed: int, count: int) -> list[Any]:
    """States of a random 2-player game, in both phases of a turn."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed)
    seen = []
    while not ENGINE.is_over(state):
        seen.append(state)
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return rng.sample(seen, count)


def play(state: Any, level: str, seed: int) -> dict:
    seat = ENGINE.to_move(state)[0]
    return bots.choose_move(
        ENGINE, ENGINE.view(state, seat), seat, level, seed=seed, iterations=ITERATIONS
    )


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_bot_returns_a_legal_akropolis_move(level: str) -> None:
    for i, state in enumerate(positions(seed=3, count=4)):
        seat = ENGINE.to_move(state)[0]
        assert play(state, level, seed=i) in ENGINE.legal_moves(state, seat)


@pytest.mark.parametrize("level", ["hard", "normal", "easy", "random"])
def test_a_bots_choice_does_not_depend_on_the_face_down_stacks(level: str) -> None:
    early = [s for s in positions(seed=8, count=30) if len(s.stacks) >= 2][:3]
    assert len(early) == 3
    for i, state in enumerate(early):
        seat = ENGINE.to_move(state)[0]
        # Deal the same unseen tiles into the stacks in another order (spec §2.2).
        tiles = [t for stack in state.stacks for t in stack]
        random.Random(i).shuffle(tiles)
        size = len(state.stacks[0])
        stacks = tuple(tuple(tiles[j : j + size]) for j in range(0, len(tiles), size))
        other = replace(state, stacks=stacks)
        assert other.stacks != state.stacks
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert play(other, level, seed=i) == play(state, level, seed=i)


def test_bots_find_the_akropolis_evaluation_beside_the_engine() -> None:
    assert evaluation.evaluator_for(ENGINE) is akropolis_evaluate.evaluate


def cell(q: int, r: int, *hexes: tuple[str, int]) -> dict:
    return {"q": q, "r": r, "stack": [list(h) for h in hexes]}


# akropolis.md §6.4: the start tile plus tiles 15, 3, 24, 21, 34, 19, 26 and 12.
EXAMPLE_CITY = [
    cell(0, 0, ("H", 0)),
    cell(0, -1, ("q", 0)),
    cell(1, 0, ("q", 0), ("h", 19)),
    cell(-1, 1, ("q", 0)),
    cell(1, 1, ("g", 15)),
    cell(1, 2, ("m", 15)),
    cell(0, 2, ("h", 15)),
    cell(-1, 2, ("h", 3)),
    cell(-1, 3, ("b", 3)),
    cell(-2, 3, ("q", 3)),
    cell(2, -1, ("q", 24), ("h", 19)),
    cell(1, -1, ("q", 24), ("q", 19)),
    cell(2, -2, ("G", 24)),
    cell(-1, 0, ("t", 21)),
    cell(-2, 1, ("h", 21)),
    cell(-2, 0, ("M", 21)),
    cell(-1, -1, ("h", 34)),
    cell(-1, -2, ("b", 34)),
    cell(0, -2, ("T", 34)),
    cell(3, 0, ("q", 26)),
    cell(3, 1, ("q", 26)),
    cell(2, 1, ("m", 26)),
    cell(-3, 0, ("m", 12)),
    cell(-3, 1, ("h", 12)),
    cell(-4, 1, ("q", 12)),
]
START_CITY = [
    cell(0, 0, ("H", 0)),
    cell(0, -1, ("q", 0)),
    cell(1, 0, ("q", 0)),
    cell(-1, 1, ("q", 0)),
]


@pytest.mark.parametrize(
    ("variants", "expected"),
    [([], 15), (["houses", "markets", "barracks", "temples", "gardens"], 20), (["gardens"], 18)],
)
def test_evaluation_at_the_end_is_the_score_lead(variants: list[str], expected: int) -> None:
    # §6.4: the example city scores 15 (20 with all variants, 18 with gardens only);
    # a bare starting city with no stones scores 0 (no house districts, §2.6).
    state = ENGINE.load(
        {
            "players": 2,
            "options": {"variants": variants},
            "stones": [4, 0],
            "cities": [EXAMPLE_CITY, START_CITY],
        }
    )
    assert ENGINE.is_over(state)
    assert akropolis_evaluate.evaluate(state, 0) == expected
    assert akropolis_evaluate.evaluate(state, 1) == -expected


def test_stones_count_for_more_than_a_point_while_tiles_remain() -> None:
    base = ENGINE.new_game(2, seed=1)
    richer = replace(base, stones=(base.stones[0] + 2, base.stones[1]))
    gain = akropolis_evaluate.evaluate(richer, 0) - akropolis_evaluate.evaluate(base, 0)
    assert gain > 2
