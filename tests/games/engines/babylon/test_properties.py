"""Property tests over random seeds and player counts (hypothesis), as for Akropolis."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.babylon import ENGINE, data, geometry, placement
from games.engines.babylon.state import Board, State
from games.engines.base import IllegalMove

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = st.integers(data.MIN_PLAYERS, data.MAX_PLAYERS)
SEEDS = st.integers(0, 2**64)


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


def states_of(state: State, moves: list[tuple[int, dict]]) -> list[State]:
    states = [state]
    for seat, move in moves:
        states.append(ENGINE.apply_move(states[-1], seat, move))
    return states


@SETTINGS
@given(PLAYERS, SEEDS)
def test_random_games_end_after_the_right_number_of_rounds(players: int, seed: int) -> None:
    start = ENGINE.new_game(players, seed)
    moves = play(start, random.Random(seed))
    final = replay(start, moves)
    assert ENGINE.is_over(final)
    assert final.round == data.ROUNDS_BY_PLAYERS[players]
    digs = [m for _, m in moves if m["type"] == "dig"]
    assert len(digs) == players * data.ROUNDS_BY_PLAYERS[players]
    removals = [seat for seat, m in moves if m["type"] == "remove_clay"]
    assert removals == list(data.REMOVAL_ORDER[players])
    scores = ENGINE.scores(final)
    assert scores["totals"] == [sum(b.values()) for b in scores["breakdown"]]
    assert all(list(b) == list(data.CATEGORIES) for b in scores["breakdown"])
    assert sorted(scores["ranking"]) == list(range(players))


def conserved(state: State) -> None:
    """Nothing is created or lost: tiles and every kind of piece add up to the box."""
    tiles: Counter[str] = Counter()
    for stack in state.quarry:
        tiles.update(stack)
    tiles.update(state.removed)
    tiles.update(state.discarded)
    for board in state.boards:
        tiles.update(t.id for t in board.tiles)
        if board.stored:
            tiles.update([board.stored])
    if state.turn.taken and not state.turn.taken_placed:
        tiles.update([state.turn.taken])
    expected = set(data.TERRACE_TILES) | {f"S-{f}" for f in state.flowers}
    assert tiles == Counter(expected)
    on_boards: Counter[str] = Counter()
    for board in state.boards:
        on_boards.update(p.kind for p in board.pieces)
    supply = state.supply
    held = sum(b.singles for b in state.boards)
    assert supply.singles + held + on_boards["single"] == 148
    assert supply.doubles + state.turn.doubles + on_boards["double"] == 60
    assert supply.belvederes + on_boards["belvedere"] == 38
    assert supply.statues + on_boards["statue"] + on_boards["statue_pillar"] == 38
    for kind in ("stairs", "fountain", "bridge"):
        assert getattr(supply, data.SUPPLY_KEY[kind]) + on_boards[kind] == 15


def pillars_hold_tiles(state: State) -> None:
    """§2.4 rule 9: every pillar (and statue used as one) is covered by the tile it holds,
    which stands exactly its height above the pillar's foot."""
    height = {"single": 1, "double": 2, "statue_pillar": 1}
    for board in state.boards:
        for p in board.pieces:
            if p.kind not in height:
                continue
            x, y, level = p.at[0]
            c = y * 8 + x
            assert any(c in t.cells and t.level == level + height[p.kind] for t in board.tiles), p


@SETTINGS
@given(PLAYERS, SEEDS)
def test_pieces_and_tiles_are_conserved_and_pillars_always_covered(players: int, seed: int) -> None:
    start = ENGINE.new_game(players, seed)
    for state in states_of(start, play(start, random.Random(seed)))[::3]:
        conserved(state)
        pillars_hold_tiles(state)
        for board in state.boards:
            assert board.singles <= 6 or (
                state.phase == "build" and board is state.boards[state.current]
            )


def build_step_positions(seed: int, count: int) -> list[State]:
    """Build-step positions of a random 2-player game, the seat holding spare pillars."""
    start = ENGINE.new_game(2, seed)
    chooser = random.Random(seed)
    found = []
    for state in states_of(start, play(start, chooser)):
        if state.phase == "build":
            payload = ENGINE.dump(state)
            payload["boards"][state.current]["singles"] += chooser.randint(0, 6)
            payload["turn"]["doubles"] += chooser.randint(0, 2)
            found.append(ENGINE.load(payload))
    return chooser.sample(found, count)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32))
def test_legal_moves_are_exactly_the_moves_the_engine_accepts(seed: int) -> None:
    # Brute force every placement (all anchors, levels 1..6, open corners, both tiles,
    # two rotations) and every decoration (each kind on every cell or pair of cells):
    # apply_move accepts exactly what legal_moves lists, each listed once.
    for state in build_step_positions(seed, 2):
        seat = state.current
        legal = ENGINE.legal_moves(state, seat)
        keys = {json.dumps(m, sort_keys=True) for m in legal}
        assert len(keys) == len(legal)
        candidates: list[dict[str, Any]] = [
            {
                "type": "place",
                "tile": tile,
                "x": x,
                "y": y,
                "rotation": rotation,
                "level": level,
                "open_corner": corner,
            }
            for tile in ("taken", "stored")
            for x in range(7)
            for y in range(7)
            for level in range(1, 7)
            for corner in (None, 0, 1, 2, 3)
            for rotation in (0, 3)
        ]
        candidates += [
            {"type": "decorate", "kind": kind, "x": x, "y": y, "toward": toward}
            for x in range(8)
            for y in range(8)
            for kind, towards in [
                ("statue", [None]),
                ("stairs", ["east", "south"]),
                ("fountain", ["east", "south"]),
                ("bridge", ["east", "south"]),
            ]
            for toward in towards
        ]
        accepted = set()
        for move in candidates:
            try:
                ENGINE.apply_move(state, seat, move)
            except IllegalMove:
                continue
            accepted.add(json.dumps(move, sort_keys=True))
        listed = {k for k in keys if json.loads(k)["type"] in ("place", "decorate")}
        listed = {
            k
            for k in listed
            if json.loads(k)["type"] == "decorate" or json.loads(k)["rotation"] in (0, 3)
        }
        assert accepted == listed


@SETTINGS
@given(SEEDS)
def test_a_placement_is_found_alone_as_the_whole_list_has_it(seed: int) -> None:
    # Placing a tile works out only its anchor's placements when the board's whole list
    # was never made: it must find exactly what that list holds, and nothing it lacks.
    start = ENGINE.new_game(2, seed)
    final = replay(start, play(start, random.Random(seed)))
    for built in final.boards:
        listed = {(o.anchor, o.level, o.open_corner): o for o in placement.options(built)}
        for anchor in geometry.FOOTPRINTS:
            x, y = geometry.xy(anchor)
            for level in range(1, 5):
                for corner in placement.ALL_OPEN:
                    fresh = Board(tiles=built.tiles, pieces=built.pieces)
                    found = placement.find(fresh, x, y, level, corner)
                    assert found == listed.get((anchor, level, corner))
                    assert "options" not in fresh.cache
