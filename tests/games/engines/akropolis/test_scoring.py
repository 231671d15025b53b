"""Scoring: akropolis.md §2.6, §2.7, §4.5 and the cases R3, §6.4 and S1-S12."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.akropolis import ENGINE
from games.engines.akropolis.state import State

from .positions import place, position, solo_game, visible

COLOURS = ("house", "market", "barracks", "temple", "garden", "stones")


def parts(state: State, seat: int = 0) -> tuple[int, ...]:
    breakdown = ENGINE.scores(state)["breakdown"][seat]
    return tuple(breakdown[c] for c in COLOURS)


# --- akropolis.md §6.4: the full end-of-game example ------------------------------------

STEPS = [  # tile, anchor q, r, rotation, stones gained
    (15, 1, 1, 1, 0),
    (3, -1, 2, 1, 0),
    (24, 2, -1, 3, 0),
    (21, -1, 0, 2, 0),
    (34, -1, -1, 4, 0),
    (19, 2, -1, 2, 3),
    (26, 3, 0, 1, 0),
    (12, -3, 0, 1, 0),
]


def example_city(variants: list[str] | None = None) -> State:
    """Built move by move; the player ends with 4 stones (1 kept + 3 from step 6)."""
    state = solo_game(stones=1)
    for tile, q, r, k, gained in STEPS:
        before = state.stones[0]
        state = place(state, tile, q, r, k)
        assert state.stones[0] == before + gained
    return ENGINE.load({**ENGINE.dump(state), "options": {"variants": variants or []}})


def test_example_city_shows_the_hexes_the_spec_lists() -> None:
    seen = visible(example_city())
    expected = {
        (0, 0): ("H", 1), (0, -1): ("q", 1), (-1, 1): ("q", 1),
        (-2, 0): ("M", 1), (0, -2): ("T", 1), (2, -2): ("G", 1),
        (1, 0): ("h", 2), (2, -1): ("h", 2), (0, 2): ("h", 1), (-1, 2): ("h", 1),
        (-2, 1): ("h", 1), (-3, 1): ("h", 1), (-1, -1): ("h", 1),
        (1, 2): ("m", 1), (2, 1): ("m", 1), (-3, 0): ("m", 1),
        (-1, 3): ("b", 1), (-1, -2): ("b", 1), (-1, 0): ("t", 1), (1, 1): ("g", 1),
        (1, -1): ("q", 2), (-2, 3): ("q", 1), (3, 0): ("q", 1), (3, 1): ("q", 1),
        (-4, 1): ("q", 1),
    }  # fmt: skip
    assert seen == expected


def test_example_city_scores_15_without_variants() -> None:
    state = example_city()
    assert parts(state) == (4, 2, 0, 2, 3, 4)
    assert ENGINE.scores(state)["totals"] == [15]


def test_example_city_scores_20_with_all_five_variants() -> None:
    state = example_city(["houses", "markets", "barracks", "temples", "gardens"])
    assert parts(state) == (4, 4, 0, 2, 6, 4)
    assert ENGINE.scores(state)["totals"] == [20]


@pytest.mark.parametrize(
    ("variant", "total"),
    [("houses", 15), ("markets", 17), ("barracks", 15), ("temples", 15), ("gardens", 18)],
)
def test_example_city_with_one_variant_at_a_time(variant: str, total: int) -> None:
    assert ENGINE.scores(example_city([variant]))["totals"] == [total]


def test_example_city_with_a_barracks_plaza_shows_both_barracks_qualify() -> None:
    # §6.4: both barracks are on the edge (value 2), and doubled with the variant (value 4).
    plain = ENGINE.dump(example_city())
    plain["cities"][0].append({"q": 5, "r": 5, "stack": [["B", 99]]})
    assert parts(ENGINE.load(plain))[2] == 2 * 2
    plain["options"] = {"variants": ["barracks"]}
    assert parts(ENGINE.load(plain))[2] == 4 * 2


def test_example_city_measures_each_colour_as_value_times_stars() -> None:
    # §6.4 and §2.6: the visible plazas are a house (1 star), a market (2), a temple (2) and a
    # garden (3); no barracks plaza. The qualifying districts are worth: houses 4 (the
    # largest group), markets 1 (the market at (-3, 0); the two touching ones score
    # nothing), barracks 2 (both on the edge), temples 1 (the surrounded one at (-1, 0)),
    # gardens 1. The final table shows these next to the points.
    assert ENGINE.scores(example_city())["measures"][0] == {
        "house": {"value": 4, "stars": 1},
        "market": {"value": 1, "stars": 2},
        "barracks": {"value": 2, "stars": 0},
        "temple": {"value": 1, "stars": 2},
        "garden": {"value": 1, "stars": 3},
    }


# --- Houses -----------------------------------------------------------------------------


def test_r3_largest_house_group_scores_its_levels_times_stars() -> None:
    row = {(q, 0): "h" for q in range(5)} | {(5, 0): "qh", (6, 0): "qh"}
    plazas = {(0, 2): "H", (2, 2): "H", (4, 2): "H"}
    assert parts(position(row | plazas))[0] == 9 * 3


def test_s1_the_group_with_most_hexes_scores_not_the_highest_value() -> None:
    three_low = {(0, 0): "h", (1, 0): "h", (2, 0): "h"}
    two_high = {(0, 3): "qh", (1, 3): "qh"}
    plazas = {(5, 5): "H", (7, 5): "H"}
    assert parts(position(three_low | two_high | plazas))[0] == 3 * 2


def test_house_groups_tied_on_size_score_the_higher_value() -> None:
    low = {(0, 0): "h", (1, 0): "h"}
    high = {(0, 3): "qh", (1, 3): "qh"}
    assert parts(position(low | high | {(5, 5): "H"}))[0] == 4


def test_s2_houses_variant_doubles_a_group_worth_ten() -> None:
    group = {(q, 0): "h" for q in range(6)} | {(6, 0): "qh", (7, 0): "qh"}
    state = position(group | {(0, 3): "H"}, variants=["houses"])
    assert parts(state)[0] == 20


def test_s3_houses_variant_leaves_a_group_worth_nine_alone() -> None:
    group = {(q, 0): "h" for q in range(9)}
    state = position(group | {(0, 3): "H", (2, 3): "H"}, variants=["houses"])
    assert parts(state)[0] == 18


# --- Markets ----------------------------------------------------------------------------


def test_s4_markets_variant_doubles_a_lone_market_next_to_a_market_plaza() -> None:
    layout = {(0, 0): "qm", (1, 0): "M", (5, 5): "M"}
    assert parts(position(layout, variants=["markets"]))[1] == 16
    assert parts(position(layout))[1] == 8


def test_s5_touching_markets_never_score_whatever_their_levels() -> None:
    layout = {(0, 0): "qqm", (1, 0): "m", (5, 5): "M"}
    assert parts(position(layout))[1] == 0


def test_market_plaza_next_to_a_market_does_not_spoil_it() -> None:
    assert parts(position({(0, 0): "m", (1, 0): "M"}))[1] == 2


# --- Barracks, lakes and the edge of the city ------------------------------------------

# A barracks at (0, 0) whose only empty neighbour is the lake (0, 1).
LAKE_LAYOUT = {
    (0, -1): "q", (1, -1): "q", (1, 0): "q", (-1, 1): "q", (-1, 0): "q",
    (1, 1): "q", (0, 2): "q", (-1, 2): "q",
}  # fmt: skip


def test_s6_a_barracks_next_to_a_lake_only_is_not_on_the_edge() -> None:
    state = position(LAKE_LAYOUT | {(0, 0): "b", (5, 5): "B"})
    assert parts(state)[2] == 0


def test_lake_counts_as_edge_option_lets_that_barracks_score() -> None:
    state = position(LAKE_LAYOUT | {(0, 0): "b", (5, 5): "B"}, lake_counts_as_edge=True)
    assert parts(state)[2] == 2


def test_a_barracks_on_the_edge_scores_its_level() -> None:
    state = position({(0, 0): "qb", (1, 0): "q", (3, 3): "B"})
    assert parts(state)[2] == 2 * 2


def test_barracks_variant_doubles_with_three_outside_empty_neighbours_only() -> None:
    # (0,0) has 4 empty neighbours; (0,3) has exactly 2, (-1,3) and (-1,4), both outside.
    open_one = {(0, 0): "b", (1, 0): "q", (0, 1): "q"}
    tight = {(0, 3): "b", (0, 2): "q", (1, 2): "q", (1, 3): "q", (0, 4): "q"}
    state = position(open_one | tight | {(6, 6): "B"}, variants=["barracks"])
    assert parts(state)[2] == (2 * 1 + 1) * 2


# A barracks on level 2 at (0, 0): its neighbours (0,-1) and (-1,0) are empty and outside,
# (0,1) is a lake (all six of its neighbours are occupied), the rest are occupied.
EDGE_AND_LAKE = {
    (0, 0): "qb", (1, -1): "B", (1, 0): "q", (-1, 1): "q",
    (1, 1): "q", (0, 2): "q", (-1, 2): "q",
}  # fmt: skip


def test_a6_barracks_variant_counts_the_lake_only_with_lake_counts_as_edge() -> None:
    # §2.7 and A6: by default only the 2 outside empty neighbours count, 2 < 3, so the
    # barracks scores its level 2 times 2 stars = 4. With lake_counts_as_edge all 3 empty
    # neighbours count, so its value doubles: 2 x 2 = 4, times 2 stars = 8.
    plain = position(EDGE_AND_LAKE, variants=["barracks"])
    assert parts(plain) == (0, 0, 4, 0, 0, 0)
    assert ENGINE.scores(plain)["totals"] == [4]
    with_lake = position(EDGE_AND_LAKE, variants=["barracks"], lake_counts_as_edge=True)
    assert parts(with_lake) == (0, 0, 8, 0, 0, 0)
    assert ENGINE.scores(with_lake)["totals"] == [8]
    # Without the variant the option changes nothing here: the barracks is on the edge anyway.
    assert parts(position(EDGE_AND_LAKE, lake_counts_as_edge=True))[2] == 4


# --- Temples ----------------------------------------------------------------------------

RING = {(0, -1): "q", (1, -1): "q", (1, 0): "q", (0, 1): "q", (-1, 1): "q", (-1, 0): "T"}


def test_s7_temples_variant_doubles_a_surrounded_temple_on_level_three() -> None:
    state = position(RING | {(0, 0): "qqt"}, variants=["temples"])
    assert parts(state)[3] == 12


def test_a_surrounded_temple_on_level_one_is_not_doubled() -> None:
    state = position(RING | {(0, 0): "t"}, variants=["temples"])
    assert parts(state)[3] == 2


def test_s8_a_temple_next_to_a_lake_is_not_surrounded() -> None:
    state = position(LAKE_LAYOUT | {(0, 0): "t", (5, 5): "T"})
    assert parts(state)[3] == 0


def test_a_temple_with_an_empty_neighbour_does_not_score() -> None:
    ring = dict(RING)
    del ring[(0, 1)]
    assert parts(position(ring | {(0, 0): "t"}))[3] == 0


# --- Gardens and plazas -----------------------------------------------------------------


def test_s9_gardens_without_a_garden_plaza_score_nothing() -> None:
    state = position({(0, 0): "g", (2, 0): "qg", (4, 0): "qqg"})
    assert parts(state)[4] == 0


def test_s10_only_visible_plazas_count_their_stars() -> None:
    gardens = {(0, 0): "g", (2, 0): "qg", (4, 0): "qg"}
    plazas = {(0, 3): "G", (2, 3): "G", (4, 3): "Gq"}
    assert parts(position(gardens | plazas))[4] == 30


def test_gardens_variant_doubles_a_garden_next_to_a_lake() -> None:
    state = position(LAKE_LAYOUT | {(0, 0): "g", (5, 5): "G"}, variants=["gardens"])
    assert parts(state)[4] == 2 * 3


def test_a_larger_enclosed_hole_is_a_lake_only_with_the_option() -> None:
    # A ring around the two empty positions (0, 0) and (1, 0); the garden touches (0, 0).
    hole = {(0, 0), (1, 0)}
    ring = {
        (q + dq, r + dr)
        for q, r in hole
        for dq, dr in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    } - hole
    layout = dict.fromkeys(ring, "q") | {(-1, 0): "g", (9, 9): "G"}
    assert parts(position(layout, variants=["gardens"]))[4] == 3
    both = position(layout, variants=["gardens"], lake_is_enclosed_region=True)
    assert parts(both)[4] == 6


# --- Totals, tie-break and shared victory -----------------------------------------------


def test_stones_are_worth_one_point_each() -> None:
    assert ENGINE.scores(position({(0, 0): "q"}, stones=[7]))["totals"] == [7]


def gardens_worth(value: int) -> dict[tuple[int, int], str]:
    """Gardens on level 1, far apart, with one garden plaza (3 stars): value x 3 points."""
    return {(2 * i, 0): "g" for i in range(value)} | {(0, 5): "G"}


def test_s11_a_tie_on_points_goes_to_the_player_with_more_stones() -> None:
    a = gardens_worth(19)  # 57 + 3 stones = 60
    b = gardens_worth(19) | {(0, 8): "h", (1, 8): "h", (5, 8): "H"}  # 57 + 2 + 1 stone = 60
    scores = ENGINE.scores(position(b, a, stones=[1, 3]))
    assert scores["totals"] == [60, 60]
    assert scores["ranking"] == [1, 0]
    assert scores["winners"] == [1]


def test_s12_a_tie_on_points_and_stones_is_a_shared_victory() -> None:
    city = gardens_worth(2)
    scores = ENGINE.scores(position({(0, 0): "q"}, city, city, stones=[2, 2, 2]))
    assert scores["totals"] == [2, 8, 8]
    assert scores["ranking"] == [1, 2, 0]
    assert scores["winners"] == [1, 2]


def test_totals_are_the_sum_of_the_breakdown() -> None:
    state = example_city(["markets", "gardens"])
    scores = ENGINE.scores(state)
    assert scores["totals"] == [sum(scores["breakdown"][0].values())]
    assert set(scores["breakdown"][0]) == set(COLOURS)


def test_scores_are_available_from_the_first_move() -> None:
    state = ENGINE.new_game(3, seed=1)
    scores = ENGINE.scores(state)
    # Only stones count at the start: one house plaza and no houses.
    assert scores["totals"] == [1, 2, 3]
    assert scores["ranking"] == [2, 1, 0]


# --- scores kept on a city (state.City.scoring) ----------------------------------------------


def test_example_city_scored_at_every_step_still_scores_15() -> None:
    # §6.4: each placement makes a new city; none keeps the score of the city it was built on.
    state = solo_game(stones=1)
    for tile, q, r, k, _gained in STEPS:
        ENGINE.scores(state)
        state = place(state, tile, q, r, k)
    assert ENGINE.scores(state)["totals"] == [15]


def test_the_same_city_scored_again_under_all_five_variants_scores_20() -> None:
    # §6.4: 15 without variants, 20 with all five; the city's kept score is the first one's.
    plain = example_city()
    assert ENGINE.scores(plain)["totals"] == [15]
    with_variants = replace(
        example_city(["houses", "markets", "barracks", "temples", "gardens"]),
        cities=plain.cities,
    )
    assert ENGINE.scores(with_variants)["totals"] == [20]
    assert ENGINE.scores(plain)["totals"] == [15]
