"""Property tests over random seeds, player counts and options (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.akropolis import ENGINE, data
from games.engines.akropolis.state import State
from games.engines.base import IllegalMove

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# §2.5: turns in a whole game by (players, long game).
TURNS = {(2, False): 36, (3, False): 48, (4, False): 60, (2, True): 60, (3, True): 60}


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, Any]]:
    players = draw(st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS))
    long_game = players in data.LONG_GAME_PLAYER_COUNTS and draw(st.booleans())
    options = {
        "variants": draw(st.lists(st.sampled_from(list(data.VARIANTS)), unique=True)),
        "long_game": long_game,
        "lake_counts_as_edge": draw(st.booleans()),
        "lake_is_enclosed_region": draw(st.booleans()),
    }
    return players, draw(st.integers(0, 2**64)), options


def play(state: State, chooser: random.Random, steps: int = 10_000) -> list[tuple[int, dict]]:
    moves = []
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_move(state)[0]
        move = chooser.choice(ENGINE.legal_moves(state, seat))
        moves.append((seat, move))
        state = ENGINE.apply_move(state, seat, move)
    return moves


def replay(state: State, moves: list[tuple[int, dict]]) -> State:
    for seat, move in moves:
        state = ENGINE.apply_move(state, seat, move)
    return state


@SETTINGS
@given(setups())
def test_games_end_after_the_right_number_of_turns(setup: tuple[int, int, dict]) -> None:
    players, seed, options = setup
    start = ENGINE.new_game(players, seed, options)
    final = replay(start, play(start, random.Random(seed)))
    assert ENGINE.is_over(final)
    assert final.turns_played == TURNS[(players, options["long_game"])]
    scores = ENGINE.scores(final)
    assert scores["totals"] == [sum(b.values()) for b in scores["breakdown"]]
    assert [b["stones"] for b in scores["breakdown"]] == list(final.stones)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 35))
def test_legal_moves_are_exactly_the_placements_the_rules_allow(seed: int, turn: int) -> None:
    # Brute force over every anchor near the city and every rotation: apply_move accepts
    # exactly the moves that legal_moves lists, each listed once.
    start = ENGINE.new_game(2, seed)
    chooser = random.Random(seed)
    state = replay(start, play(start, chooser, steps=2 * turn))
    if ENGINE.is_over(state):
        return
    seat = ENGINE.to_move(state)[0]
    state = ENGINE.apply_move(state, seat, {"type": "take_tile", "index": 0})
    legal = ENGINE.legal_moves(state, seat)
    keys = {(m["q"], m["r"], m["rotation"]) for m in legal}
    assert len(keys) == len(legal)
    cells = ENGINE.dump(state)["cities"][seat]
    qs = [c["q"] for c in cells]
    rs = [c["r"] for c in cells]
    accepted = set()
    for q in range(min(qs) - 3, max(qs) + 4):
        for r in range(min(rs) - 3, max(rs) + 4):
            for k in range(6):
                move = {"type": "place_tile", "q": q, "r": r, "rotation": k}
                try:
                    ENGINE.apply_move(state, seat, move)
                except IllegalMove:
                    continue
                accepted.add((q, r, k))
    assert accepted == keys
