"""Final scoring and the tie-break (hanging-gardens.md §2.11, §2.12; §3.4, §3.5; §6.8-§6.10).

The expected numbers are the spec's, worked from the printed running totals (§3.4): with n
tiles of a kind of series length L, n div L complete series plus the running total of the
rest. Values marked (A) in the spec are its ASSUMPTIONs (§7.2).
"""

from __future__ import annotations

import pytest

from games.engines.hanging_gardens import ENGINE


def scored(*players: list[str], missing: list[int] | None = None) -> dict:
    """Scores of a finished hand-written position, one list of tiles per seat."""
    missing = missing or [0] * len(players)
    return ENGINE.scores(
        ENGINE.load(
            {
                "players": len(players),
                "tiles": [{"open": t, "missing": m} for t, m in zip(players, missing, strict=True)],
            }
        )
    )


def points(tiles: list[str]) -> int:
    return scored(tiles, [])["totals"][0]


# §3.4, "Full score by number owned (n = 1 ... count)".
SERIES_TABLE = {
    "queen": [1, 15, 16, 30],
    "king": [2, 12, 14, 24],
    "tiger": [1, 5, 18, 19, 23, 36],
    "garden": [2, 8, 16, 18, 24, 32],
    "statue": [1, 3, 20, 21, 23, 40],
    "chalice": [1, 3, 6, 10, 20, 21, 23, 26, 30, 40],
    "gate": [0, 5, 10, 15, 15, 20, 25, 30],
}


@pytest.mark.parametrize("kind", list(SERIES_TABLE))
def test_every_series_kind_scores_its_running_total_and_starts_over(kind: str) -> None:
    for n, expected in enumerate(SERIES_TABLE[kind], start=1):
        result = scored([kind] * n, [])
        assert result["breakdown"][0][kind] == expected, n
        assert result["totals"][0] == expected, n


def test_five_gardens_score_16_plus_8() -> None:
    # §6.8, the rulebook's example.
    assert points(["garden"] * 5) == 24
    assert points(["garden"] * 3) == 16
    assert points(["garden"] * 4) == 18
    assert points(["garden"] * 6) == 32


def test_series_examples_of_section_6_8() -> None:
    assert points(["queen"]) == 1
    assert points(["queen"] * 2) == 15
    assert points(["queen"] * 3) == 16
    assert points(["queen"] * 4) == 30
    assert points(["statue"] * 3) == 20
    assert points(["statue"] * 4) == 21
    assert points(["statue"] * 6) == 40
    assert points(["gate"]) == 0  # a lone gate scores nothing
    assert points(["king"] * 3) == 14
    assert points(["tiger"] * 3) == 18
    assert points(["chalice"] * 7) == 23
    assert points(["gate"] * 3) == 10


def test_gardener() -> None:
    # §6.9: 3 alone or with an incomplete series, 11 with a complete one, counted once.
    assert points(["gardener"]) == 3
    assert points(["gardener", "garden", "garden"]) == 3 + 8
    result = scored(["gardener"] + ["garden"] * 3, [])
    assert result["breakdown"][0]["gardener"] == 11
    assert result["totals"][0] == 27
    assert points(["gardener"] + ["garden"] * 6) == 11 + 32


def test_animal_handler() -> None:
    assert points(["animal_handler", "tiger", "tiger"]) == 3 + 5
    assert points(["animal_handler"] + ["tiger"] * 3) == 10 + 18


def test_guard_scores_three_per_gate_of_any_series() -> None:
    assert points(["guard"]) == 0
    assert points(["guard", "gate"]) == 0 + 3
    assert points(["guard"] + ["gate"] * 3) == 10 + 9
    result = scored(["guard"] + ["gate"] * 8, [])
    assert result["breakdown"][0]["guard"] == 24
    assert result["breakdown"][0]["gate"] == 30
    assert result["totals"][0] == 54


def test_priest_and_sculptor() -> None:
    assert points(["priest"] + ["chalice"] * 7) == 14 + 23
    assert points(["priest"] + ["chalice"] * 4) == 3 + 10
    assert points(["sculptor", "statue", "statue"]) == 3 + 3
    assert points(["sculptor"] + ["statue"] * 3) == 10 + 20


def test_a_person_without_any_tile_of_its_kind_scores_three() -> None:
    for person in ["animal_handler", "gardener", "sculptor", "priest"]:
        result = scored([person], [])
        assert result["breakdown"][0][person] == 3


PLAYER_X = ["queen"] * 2 + ["statue"] * 4 + ["garden"] + ["gate"] * 3
PLAYER_X += ["guard", "sculptor", "chalice", "chalice"]
PLAYER_Y = ["king"] * 3 + ["tiger"] * 3 + ["animal_handler"] + ["gate"] * 2 + ["chalice"]


def test_whole_player_totals_of_section_6_10() -> None:
    result = scored(PLAYER_X, PLAYER_Y, missing=[0, 1])
    x, y = result["breakdown"]
    assert len(PLAYER_X) == 14 and len(PLAYER_Y) == 10
    assert (x["queen"], x["statue"], x["garden"], x["gate"]) == (15, 21, 2, 10)
    assert (x["guard"], x["sculptor"], x["chalice"]) == (9, 10, 3)
    assert result["totals"][0] == 70
    assert (y["king"], y["tiger"], y["animal_handler"], y["gate"], y["chalice"]) == (
        14,
        18,
        10,
        5,
        1,
    )
    assert y["missing"] == 5
    assert result["totals"][1] == 53
    assert result["ranking"] == [0, 1]
    assert result["winners"] == [0]


# 70 points in 15 tiles: 10 chalices (20 + 20), 4 queens (15 + 15) and a lone gate (0).
PLAYER_Z = ["chalice"] * 10 + ["queen"] * 4 + ["gate"]


def test_a_tie_on_points_goes_to_the_most_tiles() -> None:
    # §6.10: X and Z both 70; Z holds 15 tiles to X's 14 and wins.
    result = scored(PLAYER_X, PLAYER_Z)
    assert result["totals"] == [70, 70]
    assert result["ranking"] == [1, 0]
    assert result["winners"] == [1]


def test_a_tie_on_points_and_tiles_is_a_shared_victory() -> None:
    z14 = PLAYER_Z[:-1]  # the same 70 points in 14 tiles
    result = scored(z14, PLAYER_X, PLAYER_Y, missing=[0, 0, 1])
    assert result["totals"] == [70, 70, 53]
    assert set(result["winners"]) == {0, 1}
    assert result["ranking"][2] == 2


def test_missing_tile_credits_are_not_tiles_for_the_tie_break() -> None:
    # Seat 0: two gardens (8) and two credits (10) = 18 points in 2 tiles (4 if credits
    # counted). Seat 1: three tigers = 18 points in 3 tiles, and wins the tie.
    result = scored(["garden", "garden"], ["tiger"] * 3, missing=[2, 0])
    assert result["totals"] == [18, 18]
    assert result["winners"] == [1]
    assert result["ranking"] == [1, 0]


def test_hidden_tiles_count_in_the_final_score() -> None:
    state = ENGINE.load(
        {"players": 2, "tiles": [{"open": ["queen"], "hidden": ["queen"]}, {"open": ["king"]}]}
    )
    assert ENGINE.scores(state)["totals"] == [15, 2]


def test_breakdown_names_every_category_and_sums_to_the_total() -> None:
    result = scored(PLAYER_X)
    parts = result["breakdown"][0]
    assert set(parts) == {
        "queen",
        "king",
        "tiger",
        "garden",
        "statue",
        "chalice",
        "gate",
        "animal_handler",
        "gardener",
        "sculptor",
        "priest",
        "guard",
        "missing",
    }
    assert sum(parts.values()) == result["totals"][0]


def test_measures_count_the_tiles_of_each_series_the_gates_of_a_guard_and_missing_tiles() -> None:
    # §2.11: 5 gardens score 16 + 8 = 24 (the rulebook's example), by their 5 tiles; a guard
    # scores 3 per gate (2 gates: 6); 2 missing tiles score 10. The final table shows
    # "24 (5 tiles)", "6 (2 gates)" and "10 (2 tiles missing)".
    tiles = ["garden"] * 5 + ["gate", "gate", "guard"]
    scores = scored(tiles, missing=[2])
    assert scores["breakdown"][0]["garden"] == 24
    assert scores["breakdown"][0]["guard"] == 6
    assert scores["breakdown"][0]["missing"] == 10
    measures = scores["measures"][0]
    assert measures["garden"] == {"tiles": 5}
    assert measures["gate"] == {"tiles": 2}
    assert measures["queen"] == {"tiles": 0}
    assert measures["guard"] == {"gates": 2}
    assert measures["missing"] == {"tiles": 2}
