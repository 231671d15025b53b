"""Final scoring (spec §2.10, §2.11, §4.7): the board of §6.5, the single items of §6.6,
one hand-written position per category, and the tie-break of §6.10."""

from __future__ import annotations

import pytest

from games.engines.babylon import ENGINE, data
from games.engines.babylon.state import State

from .positions import board, piece, place_move, scoring_position, tile
from .test_placement import T5, next_tile, step_4


def breakdown(state: State, seat: int = 0) -> dict[str, int]:
    return ENGINE.scores(state)["breakdown"][seat]


# --- §6.5 -------------------------------------------------------------------------------


def test_the_board_of_6_4_scores_24() -> None:
    scores = ENGINE.scores(step_4())
    assert scores["breakdown"][0] == {
        "height": 4,
        "statues": 2,
        "fountains": 3,
        "bridges": 3,
        "stairs": 3,
        "decoration_sets": 4,
        "flower_sets": 4,
        "belvederes": 1,
    }
    assert scores["totals"][0] == 24
    assert scores["visible_notches"][0] == 50


def test_the_board_of_6_4_measures_level_2_and_one_set_of_each() -> None:
    # §6.5: height 4 points is the highest level 2 (2 per level); one decoration set and one
    # flower set (4 points each). The final table shows "4 (level 2)".
    assert ENGINE.scores(step_4())["measures"][0] == {
        "height": {"level": 2},
        "decoration_sets": {"sets": 1},
        "flower_sets": {"sets": 1},
    }


def test_after_t5_still_24_with_47_visible_notches() -> None:
    state = ENGINE.apply_move(next_tile(step_4(), T5, singles=1, doubles=3), 0, place_move(4, 1, 2))
    scores = ENGINE.scores(state)
    assert scores["totals"][0] == 24
    assert scores["visible_notches"][0] == 47


# --- one hand-written position per category ---------------------------------------------


def test_height_is_twice_the_highest_level() -> None:
    for levels, expected in [([], 0), ([1], 2), ([1, 2], 4), ([1, 2, 3], 6)]:
        tiles = [tile("C01", 2 * i, 2 * i, level) for i, level in enumerate(levels)]
        assert breakdown(scoring_position(board(tiles)))["height"] == expected


def test_statues_score_their_level_unless_hidden_or_pillars() -> None:
    tiles = [tile("C01", 0, 0, 1), tile("C02", 0, 2, 2), tile("C03", 4, 4, 3)]
    garden = board(
        tiles + [tile("C04", 1, 2, 3)],  # covers (1,2) and (1,3) of the level-2 tile
        pieces=[
            piece("statue", (4, 4, 3)),  # visible, level 3: 3 points
            piece("statue", (0, 2, 2)),  # visible, level 2: 2 points
            piece("statue", (1, 3, 2)),  # under the level-3 tile: nothing
            piece("statue_pillar", (1, 1, 1)),  # a pillar now: nothing
        ],
    )
    assert breakdown(scoring_position(garden))["statues"] == 5


def test_fountains_score_three_per_level() -> None:
    garden = board(
        [tile("C01", 0, 0, 2), tile("C02", 2, 0, 2), tile("C03", 0, 4, 1), tile("C04", 2, 4, 1)],
        pieces=[piece("fountain", (1, 0, 2), (2, 0, 2)), piece("fountain", (1, 4, 1), (2, 4, 1))],
    )
    assert breakdown(scoring_position(garden))["fountains"] == 6 + 3


def test_bridges_score_three_per_level_while_any_part_shows() -> None:
    bridge = piece("bridge", (1, 3, 1), (3, 3, 1))  # spans (2,3) at level 1
    base = [tile("C01", 0, 2, 1), tile("C02", 3, 3, 1)]  # ends on (1,3) and (3,3)
    garden = board(base, [bridge])
    assert breakdown(scoring_position(garden))["bridges"] == 3
    # Both ends covered by level-2 tiles, the span (2,3) still shows: it scores.
    covers = [tile("C03", 0, 3, 2), tile("C04", 3, 2, 2)]
    garden = board(base + covers, [bridge])
    assert breakdown(scoring_position(garden))["bridges"] == 3
    # The span covered too: nothing shows, nothing scores.
    garden = board(base + covers + [tile("C05", 1, 3, 3)], [bridge])
    assert breakdown(scoring_position(garden))["bridges"] == 0


def test_stairs_score_the_sum_of_their_levels() -> None:
    garden = board(
        [tile("C01", 0, 0, 2), tile("C02", 2, 0, 3), tile("C03", 0, 4, 1), tile("C04", 2, 4, 2)],
        pieces=[piece("stairs", (1, 0, 2), (2, 0, 3)), piece("stairs", (1, 4, 1), (2, 4, 2))],
    )
    assert breakdown(scoring_position(garden))["stairs"] == 5 + 3


def test_decoration_sets_count_visible_pieces_only() -> None:
    tiles = [tile("C01", 0, 0, 1), tile("C02", 2, 0, 1), tile("C03", 0, 4, 1), tile("C04", 2, 4, 1)]
    tiles += [tile("C05", 5, 0, 1), tile("C06", 5, 4, 1)]
    pieces = [
        piece("fountain", (1, 0, 1), (2, 0, 1)),
        piece("fountain", (1, 4, 1), (2, 4, 1)),
        piece("stairs", (0, 1, 1), (0, 2, 2)),
        piece("stairs", (0, 5, 1), (0, 6, 2)),
        piece("bridge", (1, 1, 1), (3, 1, 1)),
        piece("bridge", (1, 5, 1), (3, 5, 1)),
        piece("statue", (5, 0, 1)),
        piece("statue", (5, 4, 1)),
    ]
    assert breakdown(scoring_position(board(tiles, pieces)))["decoration_sets"] == 8
    # Hide the second statue under a level-2 tile: one full set is left.
    hidden = board([*tiles, tile("C07", 5, 3, 2)], pieces)
    assert breakdown(scoring_position(hidden))["decoration_sets"] == 4


def test_flower_sets_count_visible_tiles_including_the_starting_tile() -> None:
    # Orange C01, pink C05, blue C09, white starting tile: one set; a second orange,
    # pink and blue with a white terrace tile: two sets.
    tiles = [
        tile("C01", 0, 0, 1),
        tile("C05", 2, 0, 1),
        tile("C09", 4, 0, 1),
        tile("S-white", 6, 0, 1),
    ]
    assert breakdown(scoring_position(board(tiles)))["flower_sets"] == 4
    more = tiles + [tile("C02", 0, 4, 1), tile("C06", 2, 4, 1), tile("C10", 4, 4, 1)]
    assert breakdown(scoring_position(board(more)))["flower_sets"] == 4
    more.append(tile("C13", 6, 4, 1))
    assert breakdown(scoring_position(board(more)))["flower_sets"] == 8
    # Two orange level-2 tiles hide all four fields of the white C13: one set is left.
    hidden = [*more, tile("C03", 6, 3, 2), tile("C04", 6, 5, 2)]
    assert breakdown(scoring_position(board(hidden)))["flower_sets"] == 4


def test_belvederes_score_one_each_while_visible() -> None:
    tiles = [tile("C01", 0, 0, 1), tile("C02", 3, 3, 3), tile("C03", 4, 4, 4)]
    pieces = [
        piece("belvedere", (0, 0, 1)),
        piece("belvedere", (3, 3, 3)),
        piece("belvedere", (4, 4, 3)),  # under the level-4 tile at (4,4)
    ]
    assert breakdown(scoring_position(board(tiles, pieces)))["belvederes"] == 2


@pytest.mark.parametrize(
    ("kind", "at", "expected"),
    [
        ("statue", [(0, 0, 3)], 3),
        ("fountain", [(0, 0, 2), (1, 0, 2)], 6),
        ("bridge", [(0, 0, 2), (2, 0, 2)], 6),
        ("stairs", [(0, 0, 1), (1, 0, 2)], 3),
        ("stairs", [(0, 0, 2), (1, 0, 3)], 5),
        ("belvedere", [(0, 0, 1)], 1),
        ("belvedere", [(0, 0, 4)], 1),
        ("statue_pillar", [(0, 0, 1)], 0),
    ],
)
def test_rulebook_single_items(kind: str, at: list, expected: int) -> None:
    # §6.6, each piece on an otherwise empty board (no tile above it).
    total = ENGINE.scores(scoring_position(board([], [piece(kind, *at)])))["totals"][0]
    assert total == expected


def test_full_sets_are_worth_four() -> None:
    assert data.DECORATION_SET_POINTS == 4
    assert data.FLOWER_SET_POINTS == 4


# --- §6.10: tie-break -----------------------------------------------------------------------


def two_gardens(first_tiles: list[dict], second_tiles: list[dict]) -> State:
    return scoring_position(board(first_tiles), board(second_tiles))


def test_tie_on_points_goes_to_the_larger_garden() -> None:
    # Both score 2 (one level-1 tile); the second seat's garden covers more notches.
    small = [tile("C01", 0, 0, 1)]
    large = [tile("C01", 0, 0, 1), tile("C02", 0, 2, 1)]
    scores = ENGINE.scores(two_gardens(small, large))
    assert scores["totals"] == [2, 2]
    assert scores["visible_notches"] == [60, 56]
    assert scores["ranking"] == [1, 0]
    assert scores["winners"] == [1]


def test_tie_on_points_and_notches_is_a_shared_win() -> None:
    scores = ENGINE.scores(two_gardens([tile("C01", 0, 0, 1)], [tile("C05", 5, 5, 1)]))
    assert scores["totals"] == [2, 2]
    assert scores["winners"] == [0, 1]
    assert scores["ranking"][0] == 0


def test_the_spec_tie_24_points_47_against_50_notches() -> None:
    # §6.10 with the two boards of §6.5: 24 points each, 47 and 50 visible notches.
    with_t5 = ENGINE.apply_move(
        next_tile(step_4(), T5, singles=1, doubles=3), 0, place_move(4, 1, 2)
    )
    boards = [ENGINE.dump(step_4())["boards"][0], ENGINE.dump(with_t5)["boards"][0]]
    scores = ENGINE.scores(ENGINE.load({"players": 2, "boards": boards}))
    assert scores["totals"] == [24, 24]
    assert scores["visible_notches"] == [50, 47]
    assert scores["ranking"] == [1, 0]
    assert scores["winners"] == [1]
