"""Bots on The Hanging Gardens, and its evaluation function for them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation, turn_mcts
from games.bots.hanging_gardens import evaluate as hg_evaluate
from games.engines.base import Rng
from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.garden import Garden
from games.engines.hanging_gardens.state import State

ALL_LEVELS = bots.LEVELS + bots.BOTS
ITERATIONS = 6


def positions(seed: int, count: int, players: int = 2) -> list[State]:
    """States of a game where seats score when they can: every step of a turn occurs."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed)
    seen = []
    while not ENGINE.is_over(state):
        seen.append(state)
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        scoring = [m for m in moves if m["type"] in ("place_temple", "move_temple")]
        state = ENGINE.apply_move(state, seat, rng.choice(scoring or moves))
    by_phase = {p: [s for s in seen if s.phase == p] for p in ("place", "temple", "tile")}
    picked = [rng.choice(states) for states in by_phase.values() if states]
    return picked + rng.sample(seen, count - len(picked))


def play(state: State, level: str, seed: int) -> dict:
    seat = ENGINE.to_move(state)[0]
    return bots.choose_move(
        ENGINE, ENGINE.view(state, seat), seat, level, seed=seed, iterations=ITERATIONS
    )


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_bot_returns_a_legal_move_in_every_step(level: str) -> None:
    for i, state in enumerate(positions(seed=3, count=4)):
        seat = ENGINE.to_move(state)[0]
        assert play(state, level, seed=i) in ENGINE.legal_moves(state, seat)


def hidden_dealt_again(state: State, seat: int, seed: int) -> State:
    """The same position with the deck and the tiles `seat` cannot see dealt again."""
    rng = Rng.from_seed(seed)
    deck, rng = rng.shuffle(state.deck)
    others = [s for s in range(state.players) if s != seat]
    pool = list(state.supply) + [k for s in others for k in state.hidden_tiles[s]]
    shuffled, _ = rng.shuffle(pool)
    hidden, rest = list(state.hidden_tiles), list(shuffled)
    for s in others:
        count = len(state.hidden_tiles[s])
        hidden[s], rest = tuple(rest[:count]), rest[count:]
    return replace(state, deck=deck, supply=tuple(rest), hidden_tiles=tuple(hidden))


@pytest.mark.parametrize("level", ["hard", "normal", "easy", "random"])
def test_a_bots_choice_does_not_depend_on_what_its_seat_cannot_see(level: str) -> None:
    early = [s for s in positions(seed=8, count=12) if len(s.deck) >= 8][:3]
    assert early
    for i, state in enumerate(early):
        seat = ENGINE.to_move(state)[0]
        other = hidden_dealt_again(state, seat, seed=i + 1)
        assert other.deck != state.deck
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert play(other, level, seed=i) == play(state, level, seed=i)


def test_bots_find_the_evaluation_beside_the_engine() -> None:
    assert evaluation.evaluator_for(ENGINE) is hg_evaluate.evaluate


def position(**payload: Any) -> State:
    return ENGINE.load({"players": 2, **payload})


def test_at_the_end_the_evaluation_is_the_score_lead() -> None:
    # hanging-gardens.md §6.10: X scores 70 and Y 53.
    x = ["queen"] * 2 + ["statue"] * 4 + ["garden"] + ["gate"] * 3
    x += ["guard", "sculptor", "chalice", "chalice"]
    y = ["king"] * 3 + ["tiger"] * 3 + ["animal_handler"] + ["gate"] * 2 + ["chalice"]
    state = position(tiles=[{"open": x}, {"open": y, "missing": 1}])
    assert ENGINE.is_over(state)
    assert hg_evaluate.evaluate(state, 0) == 17
    assert hg_evaluate.evaluate(state, 1) == -17


MID_GAME = {
    "deck": list(range(10, 40)),
    "display": [1, 2, 3, 4],
    "supply": ["chalice"] * 6 + ["tiger"] * 6,
    "tile_display": [["queen", "king"], ["tiger", "garden"], ["statue", "gate"]],
}


def test_a_started_series_is_worth_more_than_its_points_while_turns_remain() -> None:
    one_queen = position(**MID_GAME, tiles=[{"open": ["queen"]}, {}])
    one_gate = position(**MID_GAME, tiles=[{"open": ["gate"]}, {}])
    # A lone queen scores 1 and a lone gate 0, but each is on the way to a series.
    assert hg_evaluate.evaluate(one_queen, 0) > 1
    assert hg_evaluate.evaluate(one_gate, 0) > 0
    # With no queens left in the game the queen is only its point.
    gone = position(**MID_GAME, tiles=[{"open": ["queen"]}, {"open": ["queen"] * 3}])
    assert hg_evaluate.evaluate(gone, 0) == 1 - 16  # three queens: 15 + 1


def test_a_group_without_a_temple_promises_a_tile() -> None:
    plain = {"x": 0, "y": 0, "rows": ["...", "...", "..."]}
    ready = {"x": 0, "y": 0, "rows": ["PPP", "...", "..."]}
    scored = {**ready, "temples": [[0, 0]]}
    start = {"x": 0, "y": 0, "rows": ["..", "..", ".."]}

    def value(own: dict) -> float:
        return hg_evaluate.evaluate(position(**MID_GAME, gardens=[own, start]), 0)

    assert value(ready) > value(plain)
    assert value(scored) == value(plain)


def test_the_hard_bots_outlook_credits_a_waiting_group_for_less_of_its_tile() -> None:
    # A temple-less group of three promises a tile from the first column; the greedy bot's
    # evaluation counts READY_SHARE of it, the hard bot's outlook OUTLOOK_READY_SHARE, and
    # both judge the other seat's waiting groups the same way.
    plain = {"x": 0, "y": 0, "rows": ["...", "...", "..."]}
    ready = {"x": 0, "y": 0, "rows": ["PPP", "...", "..."]}
    tile = hg_evaluate.READY_GROUP[0]
    for judge, share in (
        (hg_evaluate.evaluate, hg_evaluate.READY_SHARE),
        (hg_evaluate.outlook, hg_evaluate.OUTLOOK_READY_SHARE),
    ):
        mine = position(**MID_GAME, gardens=[ready, plain])
        theirs = position(**MID_GAME, gardens=[plain, ready])
        even = position(**MID_GAME, gardens=[plain, plain])
        assert judge(mine, 0) - judge(even, 0) == pytest.approx(share * tile)
        assert judge(theirs, 0) - judge(even, 0) == pytest.approx(-share * tile)
    assert hg_evaluate.OUTLOOK_READY_SHARE < hg_evaluate.READY_SHARE


@pytest.mark.parametrize(
    ("lister", "judge"),
    [
        (hg_evaluate.turns, hg_evaluate.evaluate),
        (hg_evaluate.outlook_turns, hg_evaluate.outlook),
    ],
)
def test_turns_are_valued_exactly_as_their_judgement_after_them(lister: Any, judge: Any) -> None:
    for state in positions(seed=5, count=6):
        seat = ENGINE.to_move(state)[0]
        ranked = lister(state, seat, 10**6)
        assert ranked
        assert [v for v, _ in ranked] == sorted((v for v, _ in ranked), reverse=True)
        for value, moves in ranked[:: max(1, len(ranked) // 25)]:
            after = state
            for move in moves:
                assert move in ENGINE.legal_moves(after, seat)
                after = ENGINE.apply_move(after, seat, move)
            assert after.phase == "place" or ENGINE.is_over(after)
            assert after.turns_played == state.turns_played + 1
            assert judge(after, seat) == pytest.approx(value)


def test_turns_do_not_depend_on_the_positions_ranked_before() -> None:
    # The lister remembers what each card placement makes of a garden, by the garden's
    # content: a garden rebuilt by another determinization must be found again, and one
    # of the same squares with its temples elsewhere must not be taken for it.
    differ = 0
    places = [s for s in positions(seed=8, count=40) if s.phase == "place"]
    for state in [s for s in places if s.gardens[s.current].temples][:6]:
        seat = state.current
        own = state.gardens[seat]
        gardens = list(state.gardens)
        gardens[seat] = Garden(dict(own.top))
        bare = replace(state, gardens=tuple(gardens))
        bots.memo.release()
        fresh = hg_evaluate.turns(state, seat, 10**6)
        bots.memo.release()
        fresh_bare = hg_evaluate.turns(bare, seat, 10**6)
        differ += fresh != fresh_bare
        bots.memo.release()
        hg_evaluate.turns(state, seat, 10**6)
        assert hg_evaluate.turns(bare, seat, 10**6) == fresh_bare
        rebuilt = ENGINE.determinize(ENGINE.view(state, seat), seat, 1)
        assert rebuilt.gardens[seat] is not own
        assert hg_evaluate.turns(rebuilt, seat, 10**6) == fresh
    bots.memo.release()
    # Temples change which groups score, so a mix-up would show.
    assert differ >= 3


def test_information_key_ignores_exactly_what_the_seat_cannot_see() -> None:
    for state in positions(seed=9, count=5):
        seat = ENGINE.to_move(state)[0]
        key = hg_evaluate.information_key(state, seat)
        assert hg_evaluate.information_key(hidden_dealt_again(state, seat, 4), seat) == key
        moved = ENGINE.apply_move(state, seat, ENGINE.legal_moves(state, seat)[0])
        assert hg_evaluate.information_key(moved, seat) != key


def test_turn_values_judge_each_first_move_by_the_best_finish_of_that_turn_only() -> None:
    # With two players the last seat of a round also starts the next one: the next turn,
    # whose cards are not yet revealed, is not part of the value.
    for state in positions(seed=12, count=6):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)[:40]
        values = hg_evaluate.turn_values(state, seat, moves)
        for move, value in zip(moves, values, strict=True):
            after = ENGINE.apply_move(state, seat, move)
            if after.phase == "place" or ENGINE.is_over(after):
                assert value == pytest.approx(hg_evaluate.evaluate(after, seat))
            else:
                rest = hg_evaluate.turns(after, seat, 10**6)
                assert value == pytest.approx(max(v for v, _ in rest))


def test_the_hard_search_weighs_every_card_the_seat_may_take() -> None:
    # The best dozen turns by value are mostly placements of one card; the search must still
    # open the best placement of every card in the display the seat can place.
    checked = 0
    for state in positions(seed=3, count=40):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        cards = {m["card"] for m in moves if m["type"] == "place_card"}
        if state.phase != "place" or len(cards) < 2:
            continue
        found = turn_mcts.prepare(ENGINE, ENGINE.view(state, seat), seat, seed=1)
        for _ in cards:
            found.iterate()
        # Each iteration opens the next turn of the root's ranking.
        assert {turn.moves[0]["card"] for turn in found.root_turns.values()} == cards
        checked += 1
    assert checked >= 3
