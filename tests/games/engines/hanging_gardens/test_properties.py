"""Property tests over random seeds, player counts and moves (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove
from games.engines.hanging_gardens import ENGINE, data, garden
from games.engines.hanging_gardens.state import PLACE, State

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
@given(st.integers(2, 4), st.integers(0, 2**64))
def test_random_games_end_after_whole_rounds(players: int, seed: int) -> None:
    start = ENGINE.new_game(players, seed)
    final = replay(start, play(start, random.Random(seed)))
    assert ENGINE.is_over(final)
    per_round = data.CARDS_PER_ROUND[players]
    # §2.10: at the end of a round, when the deck or the face-down supply is used up.
    assert final.turns_played == final.round * per_round
    assert final.turns_played == 60 or not final.supply
    assert final.turns_played == 60 - len(final.deck)
    scores = ENGINE.scores(final)
    assert scores["totals"] == [sum(b.values()) for b in scores["breakdown"]]
    assert sorted(scores["ranking"]) == list(range(players))
    # Every tile is somewhere, once.
    tiles = [k for k in final.tile_display if k] + list(final.supply)
    for s in range(players):
        tiles += final.open_tiles[s] + final.hidden_tiles[s]
    assert sorted(tiles) == sorted(k for k, n in data.TILE_COUNTS.items() for _ in range(n))
    # No more temples than five each, and each on a motif.
    for g in final.gardens:
        assert len(g.temples) <= data.TEMPLES_PER_PLAYER
        assert all(g.top[t] in data.MOTIFS for t in g.temples)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 50))
def test_legal_placements_are_exactly_those_the_rules_allow(
    players: int, seed: int, turns: int
) -> None:
    # Brute force over every anchor around the garden, every rotation and display card:
    # apply_move accepts exactly the placements legal_moves lists, each listed once.
    start = ENGINE.new_game(players, seed)
    chooser = random.Random(seed)
    state = start
    while not ENGINE.is_over(state) and (state.phase != PLACE or state.turns_played < turns):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
    if ENGINE.is_over(state):
        return
    seat = state.current
    legal = ENGINE.legal_moves(state, seat)
    keys = {(m["card"], m["rotation"], m["x"], m["y"]) for m in legal if m["type"] == "place_card"}
    # Either every move is a distinct placement, or (§2.9) none fits and each is a discard.
    assert len(keys) == len(legal) or all(m["type"] == "discard_card" for m in legal)
    rows = ENGINE.dump(state)["gardens"][seat]
    x0, y0 = rows["x"], rows["y"]
    width = max(len(r) for r in rows["rows"])
    accepted = set()
    for card in state.display:
        for k in range(4):
            for x in range(x0 - 4, x0 + width + 2):
                for y in range(y0 - 4, y0 + len(rows["rows"]) + 2):
                    move = {"type": "place_card", "card": card, "rotation": k, "x": x, "y": y}
                    try:
                        ENGINE.apply_move(state, seat, move)
                    except IllegalMove:
                        continue
                    accepted.add((card, k, x, y))
    assert accepted == keys


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_groups_worked_out_from_the_previous_garden_match_a_fresh_count(
    players: int, seed: int
) -> None:
    # garden.groups recomputes only the groups near the new card; a garden loaded from
    # JSON has no history and counts all of them.
    state = ENGINE.new_game(players, seed)
    chooser = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
        if chooser.random() < 0.3:
            fresh = ENGINE.load(ENGINE.dump(state))
            for derived, counted in zip(state.gardens, fresh.gardens, strict=True):
                assert sorted(map(sorted, garden.groups(derived))) == sorted(
                    map(sorted, garden.groups(counted))
                )
