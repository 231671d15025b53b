"""Bots on the Babylon engine: legal moves at every level, blindness to hidden parts,
and the evaluation, turn planner and helpers the bots use."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation, greedy
from games.bots.babylon import evaluate as babylon_evaluate
from games.bots.babylon import gardens, heuristics, planner
from games.engines.babylon import ENGINE
from games.engines.babylon.state import Board, Piece, State, Tile
from games.engines.base import Rng

ALL_LEVELS = bots.LEVELS + bots.BOTS
ITERATIONS = 4


def game_states(seed: int) -> list[State]:
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed)
    seen = []
    while not ENGINE.is_over(state):
        seen.append(state)
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return seen


def positions(seed: int) -> list[State]:
    """One position of each step: a removal, a dig, a build step with a tile in hand,
    and a build step with decorations or an effect on offer, when the game has one."""
    states = game_states(seed)
    found = [next(s for s in states if s.phase == "remove")]
    found.append(next(s for s in states[10:] if s.phase == "dig"))
    found.append(next(s for s in states[20:] if s.phase == "build" and not s.turn.placed))
    found.append(next(s for s in states[40:] if s.phase == "build" and s.turn.placed))
    return found


def play(state: State, level: str, seed: int) -> dict:
    seat = ENGINE.to_move(state)[0]
    return bots.choose_move(
        ENGINE, ENGINE.view(state, seat), seat, level, seed=seed, iterations=ITERATIONS
    )


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_bot_returns_a_legal_babylon_move(level: str) -> None:
    for i, state in enumerate(positions(seed=3)):
        seat = ENGINE.to_move(state)[0]
        assert play(state, level, seed=i) in ENGINE.legal_moves(state, seat)


def with_hidden_reshuffled(state: State, seed: int) -> State:
    """The covered quarry tiles dealt again within their layers, and the unseen tokens
    drawn again: a state no seat can tell apart from `state`."""
    rng = Rng.from_seed(seed)
    quarry = [list(stack) for stack in state.quarry]
    for layer in (1, 2):
        slots = [i for i, stack in enumerate(quarry) if len(stack) > layer]
        tiles, rng = rng.shuffle([quarry[i][layer - 1] for i in slots])
        for i, tile in zip(slots, tiles, strict=True):
            quarry[i][layer - 1] = tile
    unseen, _ = rng.shuffle(state.tokens + state.unused_tokens)
    left = len(state.tokens)
    return replace(
        state,
        quarry=tuple(tuple(s) for s in quarry),
        tokens=unseen[:left],
        unused_tokens=unseen[left:],
    )


@pytest.mark.parametrize("level", ["hard", "normal", "easy", "random"])
def test_a_bots_choice_does_not_depend_on_hidden_parts(level: str) -> None:
    for i, state in enumerate(positions(seed=8)[1:3]):
        other = with_hidden_reshuffled(state, seed=50 + i)
        assert other != state
        seat = ENGINE.to_move(state)[0]
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert play(other, level, seed=i) == play(state, level, seed=i)


def test_bots_find_the_babylon_evaluation_and_helpers() -> None:
    assert evaluation.evaluator_for(ENGINE) is babylon_evaluate.evaluate
    module = evaluation.knowledge_for(ENGINE)
    assert module.turns is babylon_evaluate.turns
    assert module.information_key is babylon_evaluate.information_key


def test_at_the_end_the_evaluation_is_the_score_lead() -> None:
    state = game_states(seed=4)[-1]
    seat = ENGINE.to_move(state)[0]
    final = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[-1])
    assert ENGINE.is_over(final)
    totals = ENGINE.scores(final)["totals"]
    assert babylon_evaluate.evaluate(final, 0) == totals[0] - totals[1]
    assert babylon_evaluate.evaluate(final, 1) == totals[1] - totals[0]


def test_stored_pillars_and_a_stored_tile_count_while_turns_remain() -> None:
    state = ENGINE.new_game(2, seed=1)
    payload = ENGINE.dump(state)
    payload["boards"][0]["singles"] = 4
    richer = ENGINE.load(payload)
    assert babylon_evaluate.evaluate(richer, 0) > babylon_evaluate.evaluate(state, 0)
    payload["boards"][0]["stored"] = None
    poorer = ENGINE.load(payload)
    assert babylon_evaluate.evaluate(poorer, 0) < babylon_evaluate.evaluate(richer, 0)


def test_the_information_key_ignores_only_hidden_parts() -> None:
    for state in positions(seed=5)[1:]:
        seat = ENGINE.to_move(state)[0]
        key = babylon_evaluate.information_key(state, seat)
        assert babylon_evaluate.information_key(with_hidden_reshuffled(state, 9), seat) == key
        payload = ENGINE.dump(state)
        payload["boards"][seat]["singles"] += 1
        assert babylon_evaluate.information_key(ENGINE.load(payload), seat) != key


def play_turn(state: State, seat: int, moves: list[dict]) -> State:
    for move in moves:
        state = ENGINE.apply_move(state, seat, move)
    return state


def test_planned_turns_are_complete_and_valued_like_evaluate_after_them() -> None:
    for state in positions(seed=6)[1:]:
        seat = ENGINE.to_move(state)[0]
        turns = babylon_evaluate.turns(state, seat, 6)
        assert turns
        values = [value for value, _ in turns]
        assert values == sorted(values, reverse=True)
        for value, moves in turns:
            assert moves[-1]["type"] == "end_turn"
            after = play_turn(state, seat, moves)
            assert ENGINE.to_move(after) != [seat] or ENGINE.is_over(after)
            assert babylon_evaluate.evaluate(after, seat) == pytest.approx(value, abs=1e-9)


def test_turns_are_empty_for_a_seat_that_is_not_to_move() -> None:
    state = positions(seed=6)[1]
    idle = 1 - ENGINE.to_move(state)[0]
    assert babylon_evaluate.turns(state, idle, 5) == []


def test_greedy_plays_the_first_move_of_the_best_planned_turn() -> None:
    for state in positions(seed=7)[1:]:
        seat = ENGINE.to_move(state)[0]
        best_value, best_moves = babylon_evaluate.turns(state, seat, 1)[0]
        move = bots.choose_move(ENGINE, ENGINE.view(state, seat), seat, "normal", seed=1)
        assert move == best_moves[0]
        legal = ENGINE.legal_moves(state, seat)
        values = greedy.turn_values(ENGINE, state, seat, legal, babylon_evaluate.evaluate)
        assert max(values) == pytest.approx(best_value)
        assert len(values) == len(legal)


def a_garden(tiles: list[dict[str, Any]], **turn: Any) -> State:
    return ENGINE.load(
        {
            "players": 2,
            "boards": [
                {"tiles": tiles, "singles": turn.pop("singles", 0)},
                {"tiles": []},
            ],
            "phase": "build",
            "tokens": ["none"] * 10,
            "turn": {"taken_placed": False, **turn},
        }
    )


def test_the_planner_builds_the_decoration_a_new_tile_makes_possible() -> None:
    # A fountain waits on (1,0) at level 1; the taken tile (C09, SF--) can show its
    # fountain on (2,0) beside it. With three singles (no level-2 tile in reach) the best
    # turn builds the tile there and the fountain.
    garden = [{"tile": "C01", "x": 0, "y": 0, "level": 1, "symbols": "-F--"}]
    state = a_garden(garden, taken="C09", singles=3)
    _, moves = planner.best_turns(state, 0, 1)[0]
    kinds = [m.get("kind") for m in moves if m["type"] == "decorate"]
    assert "fountain" in kinds


def test_the_planner_climbs_to_the_third_level_when_it_can() -> None:
    # Four level-1 tiles around a level-2 tile, none with a symbol left to join: a
    # level-3 tile is in reach (five singles), and the planner builds it rather than
    # anything lower.
    tiles = [
        {"tile": "C01", "x": 1, "y": 1, "level": 1, "symbols": "----"},
        {"tile": "C05", "x": 3, "y": 1, "level": 1, "symbols": "----"},
        {"tile": "C09", "x": 1, "y": 3, "level": 1, "symbols": "----"},
        {"tile": "C13", "x": 3, "y": 3, "level": 1, "symbols": "----"},
        {"tile": "G05", "x": 2, "y": 2, "level": 2, "symbols": "----"},
    ]
    state = a_garden(tiles, taken="B07", singles=5)
    _, moves = planner.best_turns(state, 0, 1)[0]
    placed = [m for m in moves if m["type"] == "place"]
    assert placed and max(m["level"] for m in placed) == 3


def test_boards_share_what_their_garden_decides_and_nothing_more() -> None:
    # The planner's boards share their derived data by garden (tiles and pieces): the same
    # garden rebuilt, or with other storage, shares it; the same tiles with other pieces,
    # or the same pieces under a tile turned another way, must not.
    bots.memo.release()
    terrace = Tile("C01", 0, 0, 0, 1, "SF--")
    turned = Tile("C01", 0, 0, 1, 1, "-SF-")
    statue = Piece("statue", ((0, 0, 1),))
    garden = gardens.shared(Board(tiles=(terrace,), pieces=(statue,)))
    again = gardens.shared(Board(tiles=(terrace,), pieces=(statue,), stored="C02", singles=4))
    bare = gardens.shared(Board(tiles=(terrace,)))
    other = gardens.shared(Board(tiles=(turned,), pieces=(statue,)))
    assert again.cache is garden.cache
    assert bare.cache is not garden.cache
    assert other.cache is not garden.cache
    assert other.cache is not bare.cache
    # What a board's storage adds is not shared: only the garden's part is.
    assert heuristics.board_parts(again)[1] > heuristics.board_parts(garden)[1]
    assert heuristics.board_parts(again)[0] == heuristics.board_parts(garden)[0]
    assert heuristics.board_parts(bare)[0] < heuristics.board_parts(garden)[0]
    bots.memo.release()


def test_planned_turns_do_not_depend_on_the_positions_planned_before() -> None:
    # A board rebuilt by another determinization must be planned as the first was, and one
    # of the same tiles without its last piece must not be taken for it.
    differ = 0
    builds = [s for s in game_states(seed=11) if s.phase == "build" and not s.turn.placed]
    for state in [s for s in builds if s.boards[s.current].pieces][-12::3]:
        seat = state.current
        own = state.boards[seat]
        boards = list(state.boards)
        boards[seat] = Board(own.tiles, own.pieces[:-1], own.stored, own.singles)
        fewer = replace(state, boards=tuple(boards))
        bots.memo.release()
        fresh = planner.best_turns(state, seat, 100)
        bots.memo.release()
        fresh_fewer = planner.best_turns(fewer, seat, 100)
        differ += fresh != fresh_fewer
        bots.memo.release()
        planner.best_turns(state, seat, 100)
        assert planner.best_turns(fewer, seat, 100) == fresh_fewer
        rebuilt = ENGINE.determinize(ENGINE.view(state, seat), seat, 1)
        assert rebuilt.boards[seat] is not own
        assert planner.best_turns(rebuilt, seat, 100) == fresh
    bots.memo.release()
    assert differ >= 2
