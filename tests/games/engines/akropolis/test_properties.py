"""Property tests over random seeds, player counts and options (hypothesis)."""

from __future__ import annotations

import json
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


@SETTINGS
@given(setups(), st.integers(0, 120))
def test_load_of_dump_continues_identically(setup: tuple[int, int, dict], cut: int) -> None:
    players, seed, options = setup
    start = ENGINE.new_game(players, seed, options)
    moves = play(start, random.Random(seed))
    cut = min(cut, len(moves))
    middle = replay(start, moves[:cut])
    reloaded = ENGINE.load(ENGINE.dump(middle))
    assert reloaded == middle
    for seat, move in moves[cut:]:
        assert ENGINE.legal_moves(reloaded, seat) == ENGINE.legal_moves(middle, seat)
        middle = ENGINE.apply_move(middle, seat, move)
        reloaded = ENGINE.apply_move(reloaded, seat, move)
    assert ENGINE.dump(reloaded) == ENGINE.dump(middle)


@SETTINGS
@given(setups())
def test_same_seed_and_moves_give_the_same_game(setup: tuple[int, int, dict]) -> None:
    players, seed, options = setup
    first = ENGINE.new_game(players, seed, options)
    moves = play(first, random.Random(seed), steps=40)
    again = ENGINE.new_game(players, seed, options)
    assert ENGINE.dump(replay(first, moves)) == ENGINE.dump(replay(again, moves))


MOVE_VALUES = st.one_of(
    st.integers(-5, 12), st.none(), st.booleans(), st.text(max_size=2), st.floats(allow_nan=False)
)
MOVES = st.one_of(
    st.fixed_dictionaries({"type": st.just("take_tile"), "index": MOVE_VALUES}),
    st.fixed_dictionaries(
        {
            "type": st.just("place_tile"),
            "q": MOVE_VALUES,
            "r": MOVE_VALUES,
            "rotation": MOVE_VALUES,
        }
    ),
    st.dictionaries(st.sampled_from(["type", "index", "q", "r", "rotation", "x"]), MOVE_VALUES),
    MOVE_VALUES,
)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS),
    st.integers(0, 2**32),
    st.integers(0, 30),
    MOVES,
    st.integers(-1, data.MAX_PLAYERS),
)
def test_any_input_is_either_a_legal_move_or_an_illegal_move_that_changes_nothing(
    players: int, seed: int, steps: int, move: Any, seat: int
) -> None:
    start = ENGINE.new_game(players, seed)
    state = replay(start, play(start, random.Random(seed), steps=steps))
    before = ENGINE.dump(state)
    # Compare as JSON: in Python False == 0, but `false` is not a site index.
    legal = {json.dumps(m, sort_keys=True) for m in ENGINE.legal_moves(state, seat)}
    if json.dumps(move, sort_keys=True) in legal:
        ENGINE.apply_move(state, seat, move)
    else:
        try:
            ENGINE.apply_move(state, seat, move)
        except IllegalMove as exc:
            assert exc.code and str(exc)
        else:
            raise AssertionError(f"{move!r} was accepted but is not in legal_moves")
    assert ENGINE.dump(state) == before


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
