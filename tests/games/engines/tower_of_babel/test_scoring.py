"""Wonder scoring, disc sets and final scoring: tower-of-babel.md §2.6, §2.9, §2.10 and the
cases T2-T8, T17, T18, with a hand-written final position for every category."""

from __future__ import annotations

import pytest

from games.engines.tower_of_babel import ENGINE
from games.engines.tower_of_babel.scoring import disc_set_bonus, wonder_awards

from .positions import BLUE, D1, D3, GREEN, RED, SHIP_5, YELLOW, offer, play, position, resolving

ROW_1 = (8, 4)


@pytest.mark.parametrize(
    ("units", "expected"),
    [
        # T2, rulebook example: Red 6, Yellow 4, Green 2, Blue nothing.
        ((6, 4, 2, 0), (8, 4, 3, 0)),
        # T3, rulebook example: Red and Yellow tie on 5 and take the second value.
        ((5, 5, 1, 2), (4, 4, 3, 3)),
        # T5: a tie for second: the leader takes 8, everyone else with parts 3.
        ((7, 3, 3, 1), (8, 3, 3, 3)),
        # T6: a single contributor.
        ((9, 0, 0, 0), (8, 0, 0, 0)),
        # T7: a three-way tie for first.
        ((4, 4, 4, 2), (4, 4, 4, 3)),
        # Nobody built: nothing to give.
        ((0, 0, 0, 0), (0, 0, 0, 0)),
    ],
)
def test_wonder_awards_on_row_1(units: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert wonder_awards(units, ROW_1) == expected


def test_t2_completing_a_wonder_scores_it_and_sends_the_parts_home() -> None:
    # Wonder 1 holds its last disc, a 5-ship, with Red 2, Yellow 3 and Green 2 units on it.
    # Yellow's 1 ship is taken and Red adds 4: Red 6, Yellow 4, Green 2, Blue 0 (T2).
    board = [[SHIP_5], [2, 8], [3, 9], [4, 10, 19], [5, 11, 20], [6, 17], [12, 18], [23, 24]]
    units = [[2, 3, 2, 0]] + [[0, 0, 0, 0]] * 7
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 1}), BLUE: offer({"ship": 1})},
        wonder=1,
        wonders=board,
        units=units,
        hands=[{"ship": 4}, {}, {}, {}],
    )
    after = play(state, RED, "accept", offers=[YELLOW], jokers={})
    breakdown = ENGINE.scores(after)["breakdown"]
    assert [b["wonders"] for b in breakdown] == [8, 4, 3, 0]
    assert [b["rejected_offers"] for b in breakdown] == [0, 0, 0, 1]
    assert after.units[0] == (0, 0, 0, 0)
    assert after.wonders[0] == ()
    assert after.last_build is not None and after.last_build.awards == (8, 4, 3, 0)


def test_t8_the_third_completed_wonder_uses_row_3_and_moves_the_marker_to_row_4() -> None:
    # Wonders 2 and 3 are complete; Red builds the last disc of wonder 1 alone (5 units),
    # where Blue already has 3.
    board = [[SHIP_5], [], [], [4, 10, 19], [5, 11, 20], [6, 17], [12, 18], [23, 24, 1]]
    units = [[0, 0, 0, 3]] + [[0, 0, 0, 0]] * 7
    state = resolving(
        SHIP_5, {}, wonder=1, wonders=board, units=units, hands=[{"ship": 5}, {}, {}, {}]
    )
    assert ENGINE.view(state, None)["scoring_row"] == 3
    after = play(state, RED, "accept", offers=[], jokers={})
    assert [b["wonders"] for b in ENGINE.scores(after)["breakdown"]] == [12, 0, 0, 6]
    assert ENGINE.view(after, None)["scoring_row"] == 4


def test_t4_four_camels_two_ships_and_a_crane_give_25() -> None:
    # Camel discs 1, 2, 3, 4; ship discs 13, 14; crane disc 7.
    assert disc_set_bonus([1, 2, 3, 4, 13, 14, 7]) == 20 + 5 + 0


def test_t17_two_type_discs_go_where_they_give_the_most() -> None:
    # Camel x3, ship x1, D1 (camel/stonemason), D3 (crane/ship): D1 -> camel, D3 -> ship.
    assert disc_set_bonus([1, 2, 3, 13, D1, D3]) == 25


@pytest.mark.parametrize(
    ("count", "bonus"), [(0, 0), (1, 0), (2, 5), (3, 10), (4, 20), (5, 30), (6, 40)]
)
def test_set_bonus_table(count: int, bonus: int) -> None:
    # §3.3: 1 -> 0, 2 -> 5, 4 -> 20 from the rulebook; 3, 5, 6 from A17.
    assert disc_set_bonus(list(range(1, count + 1))) == bonus


def test_t18_an_unfinished_wonder_scores_on_the_light_row_at_the_end() -> None:
    units = [[3, 2, 0, 2]] + [[0, 0, 0, 0]] * 7
    state = position(phase="over", units=units)
    assert [b["unfinished_wonders"] for b in ENGINE.scores(state)["breakdown"]] == [8, 3, 0, 3]
    running = position(units=units)
    assert [b["unfinished_wonders"] for b in ENGINE.scores(running)["breakdown"]] == [0] * 4


def test_a_hand_written_final_position_scores_every_category() -> None:
    state = ENGINE.load(
        {
            "players": 3,
            "phase": "over",
            # Wonder 1 unfinished with parts (light row 8/4), wonder 2 unfinished without.
            "wonders": [[16], [2], [], [], [], [], [], []],
            "units": [[4, 1, 1], [0, 0, 0]] + [[0, 0, 0]] * 6,
            "points": [
                {"wonders": 22, "rejected_offers": 3},
                {"wonders": 30, "rejected_offers": 0},
                {"wonders": 6, "rejected_offers": 11},
            ],
            # Seat 0: 3 cranes (10) + 1 camel; seat 1: 2 ships (5); seat 2: 4 stonemasons (20).
            "discs": [[7, 8, 9, 1], [13, 14], [19, 20, 21, 22]],
            "actions": [["five_points", "disc_bonus"], ["joker"], ["five_points"]],
        }
    )
    scores = ENGINE.scores(state)
    assert scores["breakdown"] == [
        {
            "wonders": 22,
            "rejected_offers": 3,
            "unfinished_wonders": 8,
            "disc_sets": 10,
            "action_cards": 5 + 4,
        },
        {
            "wonders": 30,
            "rejected_offers": 0,
            "unfinished_wonders": 3,
            "disc_sets": 5,
            "action_cards": 0,
        },
        {
            "wonders": 6,
            "rejected_offers": 11,
            "unfinished_wonders": 3,
            "disc_sets": 20,
            "action_cards": 5,
        },
    ]
    assert scores["totals"] == [52, 38, 45]
    assert scores["ranking"] == [0, 2, 1]
    assert scores["winners"] == [0]
    # The disc set bonus counts the discs each seat collected: the final table shows
    # "10 (4 discs)", "5 (2 discs)" and "20 (4 discs)".
    assert scores["measures"] == [{"disc_sets": {"discs": n}} for n in (4, 2, 4)]


def test_a22_players_tied_on_points_share_the_victory() -> None:
    points = [{"wonders": 10}, {"wonders": 12}, {"wonders": 12}]
    state = ENGINE.load({"players": 3, "phase": "over", "points": points})
    scores = ENGINE.scores(state)
    assert scores["winners"] == [1, 2]
    assert scores["ranking"] == [1, 2, 0]


def test_during_play_the_scores_are_the_score_track_only() -> None:
    state = position(
        discs=[[1, 2, 3, 4], [], [], []],
        actions=[["five_points"], [], [], []],
        points=[{"wonders": 8, "rejected_offers": 2}, {}, {}, {}],
    )
    assert ENGINE.scores(state)["breakdown"][RED] == {
        "wonders": 8,
        "rejected_offers": 2,
        "unfinished_wonders": 0,
        "disc_sets": 0,
        "action_cards": 0,
    }
    assert ENGINE.scores(state)["totals"][GREEN] == 0
