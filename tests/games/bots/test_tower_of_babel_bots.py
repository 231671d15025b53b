"""Bots on the real Tower of Babel engine, and its evaluation function."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation, turn_mcts
from games.bots.tower_of_babel import estimates
from games.bots.tower_of_babel import evaluate as tob_evaluate
from games.engines.tower_of_babel import ENGINE, data, table
from games.engines.tower_of_babel.state import OFFERS, RESOLVE, TURN, State
from tests.games.engines.tower_of_babel.positions import (
    BLUE,
    FULL_BOARD,
    GREEN,
    RED,
    SHIP_3,
    SHIP_4,
    SHIP_5,
    YELLOW,
    offer,
    position,
    resolving,
    with_secrets_redealt,
)

ALL_LEVELS = bots.LEVELS + bots.BOTS
ITERATIONS = 6


def positions(seed: int, phase: str, count: int, players: int = 4) -> list[State]:
    """States of a random game in `phase` (several games if one has too few)."""
    found: list[State] = []
    game = 0
    while len(found) < count:
        rng = random.Random(seed + game)
        state = ENGINE.new_game(players, seed + game)
        while not ENGINE.is_over(state):
            if state.phase == phase:
                found.append(state)
            seat = rng.choice(ENGINE.to_move(state))
            state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        game += 1
    return random.Random(seed).sample(found, count)


def choose(state: State, seat: int, level: str, seed: int) -> dict[str, Any]:
    return bots.choose_move(
        ENGINE, ENGINE.view(state, seat), seat, level, seed=seed, iterations=ITERATIONS
    )


@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize("phase", [TURN, OFFERS, RESOLVE])
def test_every_bot_returns_a_legal_move(level: str, phase: str) -> None:
    for i, state in enumerate(positions(seed=3, phase=phase, count=2)):
        for seat in ENGINE.to_move(state)[:2]:
            assert choose(state, seat, level, seed=i) in ENGINE.legal_moves(state, seat)


@pytest.mark.parametrize("level", ["hard", "normal", "easy", "random"])
@pytest.mark.parametrize("phase", [TURN, OFFERS, RESOLVE])
def test_a_bots_choice_does_not_depend_on_what_its_seat_cannot_see(level: str, phase: str) -> None:
    # Other hands, offers not yet revealed and the decks dealt again: the same view, so
    # the same move (the bots search determinizations of the view, never the real hands).
    for i, state in enumerate(positions(seed=8, phase=phase, count=2)):
        seat = ENGINE.to_move(state)[-1]
        other = with_secrets_redealt(state, seat, seed=i + 50)
        assert other.hands != state.hands or other.deck != state.deck
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert choose(other, seat, level, seed=i) == choose(state, seat, level, seed=i)


def test_bots_find_the_tower_of_babel_evaluation_beside_the_engine() -> None:
    assert evaluation.evaluator_for(ENGINE) is tob_evaluate.evaluate
    assert evaluation.scale_for(ENGINE) == tob_evaluate.SCALE


def test_at_the_end_the_evaluation_is_the_score_lead() -> None:
    state = ENGINE.load(
        {
            "players": 3,
            "phase": "over",
            "points": [{"wonders": 30}, {"wonders": 22}, {"rejected_offers": 25}],
        }
    )
    assert tob_evaluate.evaluate(state, 0) == 5
    assert tob_evaluate.evaluate(state, 1) == -8


def _holding_ships(ships: list[int]) -> State:
    """Red holds the ship discs `ships`, taken off the full board; no one else has discs."""
    wonders = [[d for d in w if d not in ships] for w in FULL_BOARD]
    return position(wonders=wonders, discs=[ships, [], [], []], hands=[{}, {}, {}, {}])


@pytest.mark.parametrize("held", [2, 1])
def test_the_hard_bots_outlook_values_a_begun_set_by_its_next_disc(held: int) -> None:
    """Spec 3.3: one disc of a type gives 0, two give 5, three give 10. With two ships the
    outlook adds SET_HOPE of the 5 a third would add; with one, SET_HOPE of the 5 a second
    would add instead of the flat BEGUN_SET the greedy judgement gives it. Both shrink with
    the game's progress: the fewest discs left of a type (6 per type, spec 3.2), here ships,
    over 6."""
    state = _holding_ships([SHIP_3, SHIP_4][:held])
    left = (6 - held) / 6
    next_disc = 5
    expected = estimates.SET_HOPE * next_disc * left
    if held == 1:
        expected -= estimates.BEGUN_SET * left
    gained = tob_evaluate.outlook(state, RED) - tob_evaluate.evaluate(state, RED)
    assert gained == pytest.approx(expected)
    # The other seats judge Red's sets the same way: Red's lead shrinks their outlook.
    assert tob_evaluate.outlook(state, BLUE) - tob_evaluate.evaluate(state, BLUE) == (
        pytest.approx(-expected)
    )


@pytest.mark.parametrize("remaining", [1, 2, 3])
def test_the_hard_bots_outlook_counts_on_a_wonder_majority_for_less(remaining: int) -> None:
    """Red alone has parts on the first wonder, with `remaining` discs still on it. Spec 2.6:
    were it completed now, the first row not yet used pays the majority 8 + 2 a row further
    (completed 0, so row `remaining`), the others 3. Both judgements credit Red with 3 plus a
    share of the gap, by the discs left: `CONFIDENCE` for the greedy bot, the smaller
    `OUTLOOK_CONFIDENCE` for the hard bot; nothing else of the position differs."""
    wonders = [list(w) for w in FULL_BOARD]
    wonders[0] = wonders[0][:remaining]
    units = [[0, 0, 0, 0] for _ in wonders]
    units[0][RED] = 2
    state = position(wonders=wonders, units=units, hands=[{}, {}, {}, {}])
    majority = 8 + 2 * (remaining - 1)
    gap = majority - 3
    plain = 3 + estimates.CONFIDENCE[remaining - 1] * gap
    hoped = 3 + estimates.OUTLOOK_CONFIDENCE[remaining - 1] * gap
    assert estimates.OUTLOOK_CONFIDENCE[remaining - 1] < estimates.CONFIDENCE[remaining - 1]
    assert tob_evaluate.evaluate(state, RED) == pytest.approx(plain)
    assert tob_evaluate.outlook(state, RED) == pytest.approx(hoped)
    # The other seats' outlook counts on Red's majority for less as well.
    assert tob_evaluate.outlook(state, BLUE) == pytest.approx(-hoped)


def test_a_five_points_card_is_worth_five_and_cards_are_worth_something() -> None:
    base = position(hands=[{}, {}, {}, {}])
    card = position(hands=[{}, {}, {}, {}], actions=[["five_points"], [], [], []])
    ships = position(hands=[{"ship": 2}, {}, {}, {}])
    assert tob_evaluate.evaluate(card, RED) - tob_evaluate.evaluate(base, RED) == 5
    assert tob_evaluate.evaluate(ships, RED) > tob_evaluate.evaluate(base, RED)


@pytest.mark.parametrize("weights", [estimates.PLAIN, estimates.OUTLOOK])
def test_the_worked_out_choices_match_playing_them_through_the_engine(
    weights: estimates.Weights,
) -> None:
    # `choice_estimates` works the estimates out from what changes; they must equal the
    # estimates of the position the engine reaches (exact scores when the game ends), for
    # the greedy judgement and the hard bot's outlook alike.
    for state in positions(seed=11, phase=RESOLVE, count=25, players=5):
        options, values = tob_evaluate.choice_estimates(state, weights)
        for (seats, jokers), worked in zip(options, values, strict=True):
            after = table.accept(state, seats, jokers, finish=False)
            if ENGINE.is_over(after):
                expected = [float(t) for t in ENGINE.scores(after)["totals"]]
            else:
                expected = tob_evaluate.estimates(after, weights)
            assert worked == pytest.approx(expected, abs=1e-9)


def test_a_build_that_cannot_be_completed_is_valued_as_abandoned() -> None:
    state = resolving(SHIP_5, {GREEN: offer({"ship": 2})}, hands=[{}, {}, {}, {}])
    move, values = tob_evaluate.best_choice(state)
    assert move == {"type": "abandon"}
    assert values == tob_evaluate.estimates(table.abandon(state, finish=False))


def test_information_key_is_what_the_seat_can_see() -> None:
    for state in positions(seed=2, phase=OFFERS, count=6):
        for seat in range(4):
            other = with_secrets_redealt(state, seat, seed=seat)
            assert tob_evaluate.information_key(other, seat) == tob_evaluate.information_key(
                state, seat
            )
        if state.hands[BLUE] != state.hands[GREEN]:
            assert tob_evaluate.information_key(state, BLUE) != tob_evaluate.information_key(
                state, GREEN
            )


@pytest.mark.parametrize(
    ("lister", "judge"),
    [
        (tob_evaluate.turns, tob_evaluate.evaluate),
        (tob_evaluate.outlook_turns, tob_evaluate.outlook),
    ],
)
def test_turns_are_valued_like_their_judgement_after_the_turn(lister: Any, judge: Any) -> None:
    for phase in (TURN, OFFERS, RESOLVE):
        for state in positions(seed=4, phase=phase, count=3):
            seat = ENGINE.to_move(state)[0]
            ranked = lister(state, seat, 5)
            values = [value for value, _ in ranked]
            assert values == sorted(values, reverse=True)
            for value, moves in ranked:
                after = state
                for move in moves:
                    assert move in ENGINE.legal_moves(after, seat)
                    after = ENGINE.apply_move(after, seat, move)
                assert ENGINE.is_over(after) or ENGINE.to_move(after) != [seat]
                assert judge(after, seat) == pytest.approx(value)


def test_the_hard_search_keeps_to_the_seats_view(monkeypatch) -> None:
    # Every iteration runs (no stop once the choice is settled), each in a determinization.
    monkeypatch.setattr(turn_mcts.Search, "decided", lambda self, remaining: False)
    state = positions(seed=6, phase=OFFERS, count=1)[0]
    seat = ENGINE.to_move(state)[0]
    found = turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=1, iterations=10)
    assert found.iterations == 10
    assert found.best_move() in ENGINE.legal_moves(state, seat)


def test_the_hard_search_spends_no_time_when_there_is_one_thing_to_do() -> None:
    """A seat with no card the disc needs (and no action card) can only offer nothing:
    one iteration shows it, and the search stops there instead of using its budget."""
    forced = [
        state
        for state in positions(seed=8, phase=OFFERS, count=40)
        if len(ENGINE.legal_moves(state, ENGINE.to_move(state)[0])) == 1
    ]
    assert forced, "no forced offer among the sampled positions"
    for state in forced[:3]:
        seat = ENGINE.to_move(state)[0]
        found = turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=1, iterations=50)
        assert found.iterations == 1
        assert found.best_move() == ENGINE.legal_moves(state, seat)[0]
        timed = turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=1, seconds=30.0)
        assert timed.iterations == 1


def test_the_bots_play_whole_games_through_the_protocol() -> None:
    state = ENGINE.new_game(3, seed=2, options={"two_type_discs": True})
    levels = ["easy", "normal", "random"]
    for ply in range(2_000):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, choose(state, seat, levels[seat], seed=ply))
    assert ENGINE.is_over(state)
    assert sorted(ENGINE.scores(state)["ranking"]) == [RED, YELLOW, GREEN]


def test_a_build_is_judged_over_fresh_deals_of_the_hands_the_seat_cannot_see() -> None:
    for phase in (OFFERS, RESOLVE):
        for state in positions(seed=13, phase=phase, count=4):
            seat = ENGINE.to_move(state)[0]
            samples = tob_evaluate.resampled(state, seat)
            assert len(samples) in (1, tob_evaluate.SAMPLES)
            for sample in samples:
                assert ENGINE.view(sample, seat) == ENGINE.view(state, seat)
            if len(samples) > 1:
                assert len({s.hands for s in samples}) > 1
            # The same position is always judged with the same deals.
            assert tob_evaluate.evaluate(state, seat) == tob_evaluate.evaluate(state, seat)


def _holding_a_card_exchange() -> tuple[Any, int]:
    """A position where the seat to move holds a card exchange and may build."""
    for seed in range(200):
        state = ENGINE.new_game(4, seed=seed)
        seat = ENGINE.to_move(state)[0]
        actions = tuple(sorted((*state.actions[seat], data.CARD_EXCHANGE)))
        actions_all = list(state.actions)
        actions_all[seat] = actions
        state = replace(state, actions=tuple(actions_all))
        kinds = {m["type"] for m in ENGINE.legal_moves(state, seat)}
        if {"card_exchange", "build"} <= kinds:
            return state, seat
    raise AssertionError("no position with a card exchange and a build")


def test_greedy_values_each_move_by_the_best_turn_it_starts_with_one_card_exchange() -> None:
    state, seat = _holding_a_card_exchange()
    moves = ENGINE.legal_moves(state, seat)
    values = tob_evaluate.turn_values(state, seat, moves)
    exchanges = [v for m, v in zip(moves, values, strict=True) if m["type"] == "card_exchange"]
    assert len(exchanges) > 1
    # Only the exchange the search considers is valued (none while every type is still
    # needed on the board); the others are never chosen.
    considered = tob_evaluate.exchange_choice(state, seat)
    assert sum(v > -math.inf for v in exchanges) == (considered is not None)
    for move, value in zip(moves, values, strict=True):
        if value == -math.inf:
            continue
        after = ENGINE.apply_move(state, seat, move)
        if ENGINE.to_move(after) != [seat]:
            assert value == pytest.approx(tob_evaluate.evaluate(after, seat))
        else:
            # The best finish of the turn, among every way to finish it.
            finishes = tob_evaluate.turns(after, seat, 1)
            assert value == pytest.approx(finishes[0][0])


def test_the_hard_bot_weighs_more_of_its_own_turns_than_it_expects_of_the_others() -> None:
    # Its opponents are modelled as greedy players choosing among their few best turns
    # (SEARCH_WIDTH); its own search weighs more (OWN_SEARCH_WIDTH).
    widths = set()
    for state in positions(seed=4, phase=TURN, count=3):
        seat = ENGINE.to_move(state)[0]
        own, others = (
            tob_evaluate.outlook_turns(state, seat, 20),
            tob_evaluate.turns(state, seat, 20),
        )
        assert len(others) <= tob_evaluate.SEARCH_WIDTH < len(own) <= tob_evaluate.OWN_SEARCH_WIDTH
        widths.add(len(own))
    assert tob_evaluate.OWN_SEARCH_WIDTH in widths
