"""The whole-turn search behind `hard`, and the Akropolis helpers it uses."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games import bots
from games.bots import evaluation, turn_mcts
from tests.games.bots import toy_engine

akropolis = pytest.importorskip("games.engines.akropolis")
akropolis_evaluate = pytest.importorskip("games.bots.akropolis.evaluate")
ENGINE = akropolis.ENGINE
ALL_VARIANTS = ["houses", "markets", "barracks", "temples", "gardens"]


def akropolis_positions(seed: int, count: int, options: dict | None = None) -> list[Any]:
    """States of a random 2-player game, in both phases of a turn."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed, options)
    seen = []
    while not ENGINE.is_over(state):
        seen.append(state)
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return rng.sample(seen, count)


def play_turn(state: Any, seat: int, moves: list[dict]) -> Any:
    for move in moves:
        state = ENGINE.apply_move(state, seat, move)
    return state


@pytest.mark.parametrize("options", [None, {"variants": ALL_VARIANTS}])
def test_akropolis_turns_are_valued_exactly_like_evaluate_after_the_turn(
    options: dict | None,
) -> None:
    # The fast lister must agree with playing the turn through the engine and judging
    # the result, and with the generic enumeration of every turn through the protocol.
    generic = turn_mcts.enumerate_turns(ENGINE, akropolis_evaluate.evaluate)
    for state in akropolis_positions(seed=21, count=8, options=options):
        seat = ENGINE.to_move(state)[0]
        fast = akropolis_evaluate.turns(state, seat, 6)
        assert len(fast) == 6
        values = [value for value, _ in fast]
        assert values == sorted(values, reverse=True)
        for value, moves in fast:
            # From the take phase a turn is take + place; from the place phase, place only.
            assert [m["type"] for m in moves][-1] == "place_tile"
            assert len(moves) == (2 if state.phase == "take" else 1)
            after = play_turn(state, seat, moves)
            assert ENGINE.to_move(after) != [seat] or ENGINE.is_over(after)
            assert akropolis_evaluate.evaluate(after, seat) == pytest.approx(value, abs=1e-9)
        slow = generic(state, seat, 6)
        assert [v for v, _ in slow] == pytest.approx(values, abs=1e-9)


def test_akropolis_turns_do_not_depend_on_the_positions_ranked_before() -> None:
    # The lister remembers what each placement of a tile makes of a city, by the city's
    # content: a city rebuilt by another determinization must be found again, and the
    # same city under other scoring variants must not be taken for it.
    plain_options = akropolis.state.Options()
    differ = 0
    for state in akropolis_positions(seed=23, count=6, options={"variants": ALL_VARIANTS}):
        seat = ENGINE.to_move(state)[0]
        plain = replace(state, options=plain_options)
        bots.memo.release()
        fresh_plain = akropolis_evaluate.turns(plain, seat, 1_000)
        bots.memo.release()
        fresh_variants = akropolis_evaluate.turns(state, seat, 1_000)
        differ += fresh_plain != fresh_variants
        bots.memo.release()
        akropolis_evaluate.turns(plain, seat, 1_000)
        assert akropolis_evaluate.turns(state, seat, 1_000) == fresh_variants
        rebuilt = ENGINE.determinize(ENGINE.view(plain, seat), seat, 1)
        assert rebuilt.cities[seat] is not plain.cities[seat]
        assert akropolis_evaluate.turns(rebuilt, seat, 1_000) == fresh_plain
    bots.memo.release()
    # The variants score these cities differently, so a mix-up would show.
    assert differ >= 3


def test_akropolis_turns_are_empty_for_a_seat_that_is_not_to_move() -> None:
    state = ENGINE.new_game(2, seed=4)
    assert akropolis_evaluate.turns(state, 1, 5) == []


def test_the_information_key_ignores_only_the_face_down_stacks() -> None:
    state = next(s for s in akropolis_positions(seed=5, count=20) if len(s.stacks) >= 2)
    seat = ENGINE.to_move(state)[0]
    tiles = [t for stack in state.stacks for t in stack]
    size = len(state.stacks[0])
    reshuffled = list(reversed(tiles))
    stacks = tuple(tuple(reshuffled[i : i + size]) for i in range(0, len(tiles), size))
    other = replace(state, stacks=stacks)
    key = akropolis_evaluate.information_key
    assert key(other, seat) == key(state, seat)
    # The view (what the seat sees) is the same too, so the key is a fair stand-in.
    assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
    moved = replace(state, stones=(state.stones[0] + 1, *state.stones[1:]))
    assert key(moved, seat) != key(state, seat)
    if len(state.site) > 1:
        swapped = replace(state, site=(state.site[1], state.site[0], *state.site[2:]))
        assert key(swapped, seat) != key(state, seat)


def test_hard_uses_the_akropolis_helpers_and_returns_legal_moves() -> None:
    for i, state in enumerate(akropolis_positions(seed=6, count=3)):
        seat = ENGINE.to_move(state)[0]
        found = turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=i, iterations=6)
        assert found.list_turns is akropolis_evaluate.turns
        assert found.information_key is akropolis_evaluate.information_key
        assert found.best_move() in ENGINE.legal_moves(state, seat)


TOY = toy_engine.ENGINE


def test_without_helpers_the_search_enumerates_turns_and_keys_by_the_view() -> None:
    state = TOY.new_game(2, seed=3)
    found = turn_mcts.search(TOY, TOY.view(state, 0), 0, seed=1, iterations=5)
    assert found.list_turns is not akropolis_evaluate.turns
    turns = found.list_turns(state, 0, 100)
    # Toy rules: a turn is a take (3 market cards or a blind draw) then a play of one of
    # the hand's cards onto one of 3 rows.
    assert all(len(moves) == 2 for _, moves in turns)
    assert {m[0]["type"] for _, m in turns} == {"take_card", "draw_card"}
    assert found.information_key(state, 0) == found.information_key(state, 0)


@pytest.mark.parametrize("seed", range(3))
def test_hard_finds_the_card_that_completes_ten(seed: int) -> None:
    # Same position as the greedy and mcts tests: only the market 4 makes a row of 10.
    from tests.games.bots.test_bots import only_one_take_makes_ten

    state = only_one_take_makes_ten()
    move = bots.choose_move(TOY, TOY.view(state, 0), 0, "hard", seed=seed, iterations=50)
    assert move == {"type": "take_card", "index": 1}


def test_hard_with_the_same_seed_and_iterations_repeats_its_choice() -> None:
    state = TOY.new_game(3, seed=2)
    for ply in range(6):
        seat = TOY.to_move(state)[0]
        view = TOY.view(state, seat)
        # Each call searches: a step taken from a remembered plan is not searched at all.
        turn_mcts.forget_plans()
        first = turn_mcts.choose(TOY, view, seat, seed=ply, iterations=15)
        turn_mcts.forget_plans()
        assert turn_mcts.choose(TOY, view, seat, seed=ply, iterations=15) == first
        state = TOY.apply_move(state, seat, first)


def test_hard_plays_a_whole_toy_game_through_hidden_draws() -> None:
    # Blind draws make a ranked turn's second step illegal in other determinizations;
    # the search must finish such turns itself and still end the game legally.
    state = TOY.new_game(3, seed=11)
    while not TOY.is_over(state):
        seat = TOY.to_move(state)[0]
        move = bots.choose_move(TOY, TOY.view(state, seat), seat, "hard", seed=1, iterations=8)
        assert move in TOY.legal_moves(state, seat)
        state = TOY.apply_move(state, seat, move)
    assert TOY.is_over(state)


def test_the_search_judges_by_the_engines_evaluation() -> None:
    """Without an `outlook`, the bot judges its own positions as the engine evaluates."""
    state = TOY.new_game(2, seed=3)
    found = turn_mcts.search(TOY, TOY.view(state, 0), 0, seed=1, iterations=1)
    assert found.own_evaluate(state, 0) == evaluation.score_difference(TOY, state, 0)


def test_best_move_breaks_an_exact_tie_between_keys_of_different_types() -> None:
    """Two turns with the same visits and mean, one keyed by a tuple and one by JSON text
    (moves holding dicts), must not make the choice raise: the first tried wins."""
    from types import SimpleNamespace

    from games.bots import turn_mcts

    moves = [{"type": "a", "n": 1}, {"type": "b", "cards": {"x": 1}}]
    search = object.__new__(turn_mcts.Search)
    keys = [turn_mcts.move_key(m) for m in moves]
    assert {type(k) for k in keys} == {tuple, str}
    child = SimpleNamespace(visits=3, reward=1.5)
    search.root = SimpleNamespace(children={(keys[1],): child, (keys[0],): child})
    search.root_turns = {
        (key,): turn_mcts.Turn((key,), (move,), 0.0) for key, move in zip(keys, moves, strict=True)
    }
    assert search.best_move() == {"type": "b", "cards": {"x": 1}}


def _take_phase_position(seed: int) -> Any:
    """A position where the seat to move can afford more than one tile."""
    for state in akropolis_positions(seed=seed, count=40):
        seat = ENGINE.to_move(state)[0]
        if state.phase == "take" and len(ENGINE.legal_moves(state, seat)) > 1:
            return state
    raise AssertionError("no take phase among the sampled positions")


def test_the_rest_of_a_decided_turn_is_played_without_searching_again(monkeypatch) -> None:
    turn_mcts.forget_plans()
    state = _take_phase_position(seed=5)
    seat = ENGINE.to_move(state)[0]
    view = ENGINE.view(state, seat)
    expected = turn_mcts.search(ENGINE, view, seat, seed=3, iterations=24).best_turn()
    assert [m["type"] for m in expected] == ["take_tile", "place_tile"]

    first = turn_mcts.choose(ENGINE, view, seat, seed=3, iterations=24)
    assert first == expected[0]
    after = ENGINE.apply_move(state, seat, first)

    def no_search(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the turn was decided; its second step needs no search")

    monkeypatch.setattr(turn_mcts, "search", no_search)
    second = turn_mcts.choose(ENGINE, ENGINE.view(after, seat), seat, seed=4, iterations=24)
    assert second == expected[1]
    assert second in ENGINE.legal_moves(after, seat)


def _draw_then_play_position() -> Any:
    """Ten rows, seat 0 to take with the market empty: its only first step is an unseen draw,
    and its second plays the drawn card or the 5 it holds. Every row stands at 6, so a 4 makes
    exactly 10 and a 5 or more would overshoot."""
    toy = toy_engine.ENGINE
    state = toy.new_game(2, seed=1)
    rows = ((2, 4), (1, 5), (3, 3))
    used = [5, 7] + [card for row in rows for card in row]
    deck = toy_engine.full_deck(2)
    for card in used:
        deck.remove(card)
    return replace(
        state,
        deck=tuple(deck),
        market=(),
        hands=((5,), (7,)),
        rows=(rows, ((), (), ())),
        current=0,
        step="take",
    )


@pytest.mark.parametrize("seed", range(6))
def test_a_step_that_follows_a_hidden_draw_is_planned_from_that_same_draw(seed: int) -> None:
    """The plan for the play after the draw must be the one made for the card drawn. The real
    deck here holds on top the card the seat's simplest determinization (seed 0) puts there,
    which the search need not have drawn: a plan keyed by that determinization's view but made
    in another played a card the seat did not hold."""
    toy = toy_engine.ENGINE
    turn_mcts.forget_plans()
    state = _draw_then_play_position()
    view = toy.view(state, 0)
    top = toy.determinize(view, 0, 0).deck[0]
    rest = list(state.deck)
    rest.remove(top)
    real = replace(state, deck=(top, *rest))
    first = turn_mcts.choose(toy, view, 0, seed=seed, iterations=30)
    assert first == {"type": "draw_card"}  # the only move
    after = toy.apply_move(real, 0, first)
    second = turn_mcts.choose(toy, toy.view(after, 0), 0, seed=seed, iterations=30)
    assert second in toy.legal_moves(after, 0)


def test_a_planned_step_the_engine_refuses_is_searched_instead() -> None:
    toy = toy_engine.ENGINE
    turn_mcts.forget_plans()
    after = toy.apply_move(_draw_then_play_position(), 0, {"type": "draw_card"})
    view = toy.view(after, 0)
    held = set(after.hands[0])
    not_held = next(card for card in toy_engine.VALUES if card not in held)
    turn_mcts._plans[turn_mcts._plan_key(toy, view, 0)] = {
        "type": "play_card",
        "card": not_held,
        "row": 0,
    }
    move = turn_mcts.choose(toy, view, 0, seed=1, iterations=30)
    assert move in toy.legal_moves(after, 0)
    assert move["card"] in held


def test_a_view_the_plan_did_not_expect_is_searched_afresh(monkeypatch) -> None:
    turn_mcts.forget_plans()
    state = _take_phase_position(seed=6)
    seat = ENGINE.to_move(state)[0]
    first = turn_mcts.choose(ENGINE, ENGINE.view(state, seat), seat, seed=3, iterations=16)
    # Another tile taken than the one planned: the plan's placement no longer applies.
    other = next(
        m for m in ENGINE.legal_moves(state, seat) if m["type"] == "take_tile" and m != first
    )
    after = ENGINE.apply_move(state, seat, other)
    searched = []
    real_search = turn_mcts.search

    def counting(*args: Any, **kwargs: Any) -> Any:
        searched.append(1)
        return real_search(*args, **kwargs)

    monkeypatch.setattr(turn_mcts, "search", counting)
    move = turn_mcts.choose(ENGINE, ENGINE.view(after, seat), seat, seed=3, iterations=16)
    assert searched == [1]
    assert move in ENGINE.legal_moves(after, seat)


def test_an_engine_may_tune_the_search_and_a_misspelt_setting_is_refused(monkeypatch) -> None:
    module = evaluation.knowledge_for(ENGINE)
    monkeypatch.setattr(module, "SEARCH", {"depth": 3, "root_width": 7}, raising=False)
    tuned = turn_mcts.settings_for(ENGINE)
    assert (tuned.depth, tuned.root_width) == (3, 7)
    assert tuned.width == turn_mcts.Settings().width
    monkeypatch.setattr(module, "SEARCH", {"detph": 3}, raising=False)
    with pytest.raises(ValueError, match="detph"):
        turn_mcts.settings_for(ENGINE)


def test_a_fixed_number_of_iterations_stops_early_only_when_the_choice_is_settled(
    monkeypatch,
) -> None:
    positions = akropolis_positions(seed=9, count=6)
    early = []
    for state in positions:
        seat = ENGINE.to_move(state)[0]
        view = ENGINE.view(state, seat)
        found = turn_mcts.search(ENGINE, view, seat, seed=2, iterations=60)
        early.append((found.iterations, found.best_turn()))
    monkeypatch.setattr(turn_mcts.Search, "decided", lambda self, remaining: False)
    stopped_early = 0
    for state, (ran, chosen) in zip(positions, early, strict=True):
        seat = ENGINE.to_move(state)[0]
        full = turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=2, iterations=60)
        assert full.iterations == 60
        assert full.best_turn() == chosen
        stopped_early += ran < 60
    assert stopped_early, "no position was settled before its last iteration"


def test_an_outlook_judges_the_bots_own_turns_and_evaluate_the_opponents(monkeypatch) -> None:
    """A game's bot knowledge's `outlook` is the hard bot's own judgement: it ranks the bot's
    turns and judges the leaves, while the opponents reply by `evaluate`, as greedy does."""
    own, others, judged = [], [], []
    ranked = akropolis_evaluate.turns

    def outlook(state: Any, seat: int) -> float:
        judged.append(seat)
        return akropolis_evaluate.evaluate(state, seat)

    def outlook_turns(state: Any, seat: int, limit: int) -> list:
        own.append(seat)
        return ranked(state, seat, limit)

    def turns(state: Any, seat: int, limit: int) -> list:
        others.append(seat)
        return ranked(state, seat, limit)

    knowledge = evaluation.knowledge_for(ENGINE)
    monkeypatch.setattr(knowledge, "outlook", outlook)
    monkeypatch.setattr(knowledge, "outlook_turns", outlook_turns)
    monkeypatch.setattr(knowledge, "turns", turns)
    state = _take_phase_position(seed=4)
    seat = ENGINE.to_move(state)[0]
    turn_mcts.search(ENGINE, ENGINE.view(state, seat), seat, seed=1, iterations=12)
    assert set(own) == {seat}
    assert others and seat not in others
    assert judged and set(judged) == {seat}


def test_the_best_turn_of_each_first_step_comes_before_the_rest() -> None:
    def turn(first: str, second: str, value: float) -> turn_mcts.Turn:
        moves = ({"step": first}, {"step": second})
        return turn_mcts.Turn(tuple(evaluation.move_key(m) for m in moves), moves, value)

    ranked = [turn("a", "x", 5), turn("a", "y", 4), turn("b", "x", 3), turn("a", "z", 2)]
    ordered = turn_mcts.first_steps_first(ranked)
    assert [t.value for t in ordered] == [5, 3, 4, 2]


def test_an_engine_may_say_what_a_first_step_chooses() -> None:
    # Two placements of the same card are one choice: the best of the other card comes
    # second, before the second placement of the first card.
    def turn(card: str, at: int, value: float) -> turn_mcts.Turn:
        moves = ({"card": card, "at": at},)
        return turn_mcts.Turn(tuple(evaluation.move_key(m) for m in moves), moves, value)

    ranked = [turn("a", 1, 5), turn("a", 2, 4), turn("b", 1, 3), turn("c", 7, 1)]
    assert [t.value for t in turn_mcts.first_steps_first(ranked)] == [5, 4, 3, 1]
    ordered = turn_mcts.first_steps_first(ranked, lambda move: move["card"])
    assert [t.value for t in ordered] == [5, 3, 1, 4]


def test_the_akropolis_search_weighs_every_tile_it_may_take() -> None:
    # The best dozen turns by value are often placements of one tile; the search must
    # still open the best placement of every tile the seat can pay for.
    checked = 0
    for state in akropolis_positions(seed=4, count=60):
        seat = ENGINE.to_move(state)[0]
        takeable = min(len(state.site), state.stones[seat] + 1)
        if state.phase != "take" or takeable < 2:
            continue
        found = turn_mcts.prepare(ENGINE, ENGINE.view(state, seat), seat, seed=1)
        for _ in range(takeable):
            found.iterate()
        # Each iteration opens the next turn of the root's ranking.
        opened = [turn.moves[0]["index"] for turn in found.root_turns.values()]
        assert sorted(opened) == list(range(takeable))
        checked += 1
    assert checked >= 3


def _far_behind() -> Any:
    """Seat 0 to take, 29 points behind (seat 1 has two rows of exactly 10 and a 5), with
    one turn each left; only the market 4 completes seat 0's row of 6 (a row of 10 scores
    15, so the 4 is worth 9 more points than the best other turn)."""
    return TOY.load(
        {
            "players": 2,
            "deck": [1, 1, 2, 2, 3, 3, 5, 5, 7, 7, 7, 8, 8],
            "market": [1, 4, 2],
            "hands": [[3], [8]],
            "rows": [[[6], [], []], [[4, 6], [4, 6], [5]]],
            "current": 0,
            "step": "take",
            "turns_left": 2,
        }
    )


def _centred(engine: Any) -> turn_mcts.Settings:
    return replace(turn_mcts.settings_for(engine), centred=True)


def test_a_centred_search_squashes_its_leaves_from_the_roots_best_turn() -> None:
    state = _far_behind()
    view = TOY.view(state, 0)
    found = turn_mcts.search(TOY, view, 0, seed=1, iterations=6, settings=_centred(TOY))
    best = found.own_turns(state, 0, 1)[0][0]
    assert found.origin == best
    # Nine points behind what the bot expects after its best turn, whatever the game's
    # standing: the same reward as nine points behind an even game in a plain search.
    worse = _toy_turn(state, 0, index=0, card=1, row=1)
    points = found.own_evaluate(worse, 0)
    assert found._reward(worse) == pytest.approx(evaluation.squash(points - best, found.scale))
    plain = turn_mcts.search(TOY, view, 0, seed=1, iterations=6)
    assert plain.origin == 0.0
    assert plain._reward(worse) == pytest.approx(evaluation.squash(points, plain.scale))


def test_a_centred_search_tells_apart_the_margins_of_games_it_loses_anyway() -> None:
    state = _far_behind()
    view = TOY.view(state, 0)
    lost_by_less = _finish(_toy_turn(state, 0, index=1, card=4, row=0))
    lost_by_more = _finish(_toy_turn(state, 0, index=0, card=1, row=2))
    assert TOY.is_over(lost_by_less) and TOY.is_over(lost_by_more)
    plain = turn_mcts.search(TOY, view, 0, seed=1, iterations=1)
    assert plain._reward(lost_by_less) == plain._reward(lost_by_more) == 0.0
    centred = turn_mcts.search(TOY, view, 0, seed=1, iterations=1, settings=_centred(TOY))
    assert centred._reward(lost_by_less) > centred._reward(lost_by_more)


def _toy_turn(state: Any, seat: int, *, index: int, card: int, row: int) -> Any:
    state = TOY.apply_move(state, seat, {"type": "take_card", "index": index})
    return TOY.apply_move(state, seat, {"type": "play_card", "card": card, "row": row})


def _finish(state: Any) -> Any:
    """Seat 1 plays its last turn: the first market card onto its third row."""
    return _toy_turn(state, 1, index=0, card=state.market[0], row=2)


@pytest.mark.parametrize("seed", range(3))
def test_far_behind_a_centred_search_still_takes_the_card_that_completes_ten(seed: int) -> None:
    state = _far_behind()
    found = turn_mcts.search(
        TOY, TOY.view(state, 0), 0, seed=seed, iterations=40, settings=_centred(TOY)
    )
    assert found.best_move() == {"type": "take_card", "index": 1}


def test_tower_of_babel_searches_centred() -> None:
    from games.engines import tower_of_babel

    assert turn_mcts.settings_for(tower_of_babel.ENGINE).centred
    assert not turn_mcts.settings_for(ENGINE).centred
