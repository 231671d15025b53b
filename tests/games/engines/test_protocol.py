"""One conformance suite for every engine in the registry (open_spiel's games_sim_test)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import engines
from games.engines.base import Engine, IllegalMove

ENGINES = engines.all()
ROOT = Path(__file__).resolve().parents[3]


def by_slug(engine: Engine) -> str:
    return engine.slug


def play_randomly(engine: Engine, seed: int, players: int | None = None) -> list[Any]:
    """States of one uniformly random game, new_game first, with the moves that led there."""
    chooser = random.Random(seed)
    if players is None:
        players = chooser.randint(engine.min_players, engine.max_players)
    state = engine.new_game(players, seed=seed)
    states: list[Any] = [(state, None, None)]
    for _ in range(10_000):
        if engine.is_over(state):
            break
        seat = chooser.choice(engine.to_move(state))
        move = chooser.choice(engine.legal_moves(state, seat))
        state = engine.apply_move(state, seat, move)
        states.append((state, seat, move))
    return states


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@pytest.mark.parametrize("seed", range(6))
def test_random_playout_reaches_the_end_legally(engine: Engine, seed: int) -> None:
    chooser = random.Random(seed)
    players = chooser.randint(engine.min_players, engine.max_players)
    state = engine.new_game(players, seed=seed)
    for _ in range(10_000):
        if engine.is_over(state):
            break
        seat = chooser.choice(engine.to_move(state))
        moves = engine.legal_moves(state, seat)
        assert moves, "a seat that must move has a legal move"
        assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves)
        state = engine.apply_move(state, seat, chooser.choice(moves))
        assert engine.load(engine.dump(state)) == state
        json.dumps(engine.view(state, seat))
        json.dumps(engine.view(state, None))
    assert engine.is_over(state)
    assert engine.to_move(state) == []
    scores = engine.scores(state)
    assert sorted(scores["ranking"]) == list(range(players))
    assert len(scores["totals"]) == players


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_dump_is_json_and_load_round_trips_at_every_step(engine: Engine) -> None:
    for state, _, _ in play_randomly(engine, seed=11):
        payload = engine.dump(state)
        assert json.loads(json.dumps(payload)) == payload
        assert engine.dump(engine.load(payload)) == payload


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_same_seed_and_moves_give_the_same_game(engine: Engine) -> None:
    first = play_randomly(engine, seed=5)
    replayed = engine.new_game(_players(engine, first), seed=5)
    for state, seat, move in first[1:]:
        replayed = engine.apply_move(replayed, seat, move)
        assert engine.dump(replayed) == engine.dump(state)


def _players(engine: Engine, states: list[Any]) -> int:
    return len(engine.scores(states[0][0])["totals"])


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_different_seeds_give_different_setups(engine: Engine) -> None:
    dumps = {
        json.dumps(engine.dump(engine.new_game(engine.min_players, seed=s)), sort_keys=True)
        for s in range(5)
    }
    assert len(dumps) == 5


GARBAGE_MOVES: list[Any] = [
    None,
    [],
    "take_tile",
    {},
    {"type": "no_such_move"},
    {"type": None},
    {"type": []},
    {"type": {"nested": 1}},
    {"type": "take_tile"},
    {"type": "take_tile", "index": "0"},
    {"type": "take_tile", "index": 0.0},
    {"type": "take_tile", "index": True},
    {"type": "take_tile", "index": -1},
    {"type": "take_tile", "index": 10**30},
    {"type": "take_tile", "index": 0, "extra": 1},
    {"type": "place_tile", "q": 0, "r": 0},
    {"type": "place_tile", "q": 10**30, "r": -(10**30), "rotation": 0},
]


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@pytest.mark.parametrize("move", GARBAGE_MOVES, ids=repr)
def test_malformed_move_raises_illegal_move_and_changes_nothing(engine: Engine, move: Any) -> None:
    for state, _, _ in play_randomly(engine, seed=3)[:6]:
        if engine.is_over(state):
            continue
        seat = engine.to_move(state)[0]
        if move in engine.legal_moves(state, seat):
            continue
        before = engine.dump(state)
        with pytest.raises(IllegalMove) as caught:
            engine.apply_move(state, seat, move)
        assert caught.value.code and str(caught.value)
        assert engine.dump(state) == before


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_moving_out_of_turn_raises_illegal_move(engine: Engine) -> None:
    state = engine.new_game(engine.min_players, seed=2)
    movers = engine.to_move(state)
    idle = next(s for s in range(engine.min_players) if s not in movers)
    move = engine.legal_moves(state, movers[0])[0]
    assert engine.legal_moves(state, idle) == []
    with pytest.raises(IllegalMove) as caught:
        engine.apply_move(state, idle, move)
    assert caught.value.code == "not_your_turn"


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_scores_are_consistent_at_every_step(engine: Engine) -> None:
    for state, _, _ in play_randomly(engine, seed=8):
        scores = engine.scores(state)
        totals = [sum(parts.values()) for parts in scores["breakdown"]]
        assert scores["totals"] == totals
        assert set(scores["winners"]) <= set(scores["ranking"])
        assert scores["ranking"][0] in scores["winners"]


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_determinize_agrees_with_the_view(engine: Engine) -> None:
    determinize = getattr(engine, "determinize", None)
    if determinize is None:
        pytest.skip(f"{engine.slug} offers no determinize")
    for state, seat, _ in play_randomly(engine, seed=4)[::7]:
        viewer = 0 if seat is None else seat
        seen = engine.view(state, viewer)
        sampled = determinize(seen, viewer, 99)
        assert engine.view(sampled, viewer) == seen
        assert engine.to_move(sampled) == engine.to_move(state)


def test_the_package_re_exports_the_shared_pieces_of_base() -> None:
    from games.engines import base

    assert engines.IllegalMove is base.IllegalMove
    assert engines.Rng is base.Rng
    assert engines.Engine is base.Engine
    assert set(engines.__all__) == {"ENGINE_MODULES", "Engine", "IllegalMove", "Rng", "get"}


@pytest.mark.parametrize("first", ["games.engines.akropolis", "games.engines.base"])
def test_importing_an_engine_module_first_meets_no_cycle(first: str) -> None:
    # A fresh interpreter, so nothing is already imported when `first` is.
    code = f"import {first}\nfrom games.engines import IllegalMove, Rng, get\nget('akropolis')"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
