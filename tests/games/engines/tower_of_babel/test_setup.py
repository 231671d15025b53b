"""Setup: tower-of-babel.md §2.1, §2.8, §2.11, §3."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from games.engines.tower_of_babel import ENGINE, data

SINGLE_DISCS = list(range(1, 25))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_wonder_gets_three_of_the_24_single_type_discs(players: int) -> None:
    state = ENGINE.new_game(players, seed=players)
    assert [len(discs) for discs in state.wonders] == [3] * 8
    assert sorted(d for discs in state.wonders for d in discs) == SINGLE_DISCS
    assert state.units == ((0,) * players,) * 8


def test_each_type_has_six_discs_valued_3_4_4_5_5_6() -> None:
    # §3.2, A14: 27 cards in total per type, 108 on the board.
    by_type: dict[int, list[int]] = {k: [] for k in range(4)}
    for disc in SINGLE_DISCS:
        needs = data.DISCS[disc]
        (kind,) = [k for k in range(4) if needs[k]]
        by_type[kind].append(needs[kind])
    assert all(sorted(values) == [3, 4, 4, 5, 5, 6] for values in by_type.values())
    assert sum(sum(data.DISCS[d]) for d in SINGLE_DISCS) == 108


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hands_of_four_and_the_rest_of_the_hundred_cards_in_the_deck(players: int) -> None:
    state = ENGINE.new_game(players, seed=1)
    assert [sum(hand) for hand in state.hands] == [4] * players
    assert len(state.deck) == 100 - 4 * players
    total = Counter(state.deck)
    for hand in state.hands:
        for k in range(4):
            total[k] += hand[k]
    assert total == {0: 25, 1: 25, 2: 25, 3: 25}
    assert state.discard == (0, 0, 0, 0)


def test_fifteen_action_cards_face_down_and_nobody_holds_one() -> None:
    state = ENGINE.new_game(4, seed=3)
    assert Counter(state.action_deck) == {
        "card_exchange": 3,
        "joker": 2,
        "disc_bonus": 2,
        "offer_bonus": 2,
        "draw_three": 2,
        "double_turn": 2,
        "five_points": 2,
    }
    assert state.actions == ((),) * 4


def test_the_start_player_moves_first_and_the_marker_is_on_row_1() -> None:
    state = ENGINE.new_game(5, seed=2)
    seen = ENGINE.view(state, None)
    assert ENGINE.to_move(state) == [0]
    assert seen["columns"] == [0, 1, 2, 3, 4]
    assert seen["scoring_row"] == 1
    assert seen["phase"] == "turn"
    assert [b["wonders"] + b["rejected_offers"] for b in seen["scores"]["breakdown"]] == [0] * 5


def test_the_two_type_variant_swaps_a_five_of_each_type_for_the_four_two_type_discs() -> None:
    state = ENGINE.new_game(4, seed=4, options={"two_type_discs": True})
    discs = sorted(d for w in state.wonders for d in w)
    assert len(discs) == 24
    assert {25, 26, 27, 28} <= set(discs)
    removed = set(SINGLE_DISCS) - set(discs)
    assert sorted(sum(data.DISCS[d]) for d in removed) == [5, 5, 5, 5]
    assert {next(k for k in range(4) if data.DISCS[d][k]) for d in removed} == {0, 1, 2, 3}
    # Each type then appears on 7 discs (5 single + 2 two-type).
    for k in range(4):
        assert sum(1 for d in discs if data.DISCS[d][k]) == 7


def test_d1_needs_two_camels_and_three_stonemasons() -> None:
    assert data.DISCS[25] == (2, 0, 0, 3)


def test_without_action_cards_the_action_deck_stays_in_the_box() -> None:
    state = ENGINE.new_game(3, seed=1, options={"no_action_cards": True})
    assert state.action_deck == ()


@pytest.mark.parametrize("players", [2, 6, 0, "4"])
def test_only_three_to_five_players(players: object) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options", [{"two_type_discs": "yes"}, {"variant": True}, ["two_type_discs"]]
)
def test_bad_options_are_refused(options: object) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(4, seed=1, options=options)  # type: ignore[arg-type]


def test_the_seed_decides_the_setup() -> None:
    assert ENGINE.new_game(4, seed=9) == ENGINE.new_game(4, seed=9)
    assert ENGINE.new_game(4, seed=9).wonders != ENGINE.new_game(4, seed=10).wonders


def test_every_assumption_of_the_spec_is_named_in_the_data_module() -> None:
    # The spec's decisions A1-A25 each live in data.py beside their number.
    source = Path(data.__file__).read_text(encoding="utf-8")
    missing = [n for n in range(1, 26) if not re.search(rf"\bA{n}\b", source)]
    assert missing == []
