"""Tile data against the tables of akropolis.md §1, §3 and §4."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.akropolis import data, hexes

KINDS = "hmbtgHMBTGq"


def hex_counts(tile_ids: list[int]) -> dict[str, int]:
    counts = Counter(code for t in tile_ids for code in data.TILES[t][1])
    return {kind: counts[kind] for kind in KINDS}


def test_there_are_61_city_tiles_numbered_1_to_61() -> None:
    assert sorted(data.TILES) == list(range(1, 62))
    assert all(len(codes) == 3 for _, codes in data.TILES.values())


def test_player_count_marks_split_37_12_12() -> None:
    marks = Counter(min_players for min_players, _ in data.TILES.values())
    assert marks == {2: 37, 3: 12, 4: 12}
    assert all(data.TILES[t][0] == 2 for t in range(1, 38))
    assert all(data.TILES[t][0] == 3 for t in range(38, 50))
    assert all(data.TILES[t][0] == 4 for t in range(50, 62))


# akropolis.md §1, "By player-count subset": h m b t g H M B T G q.
@pytest.mark.parametrize(
    ("players", "long_game", "tiles", "expected"),
    [
        (2, False, 37, (18, 12, 10, 8, 6, 5, 4, 4, 4, 3, 37)),
        (3, False, 49, (27, 16, 13, 10, 7, 6, 5, 5, 5, 4, 49)),
        (4, False, 61, (36, 20, 16, 12, 8, 7, 6, 6, 6, 5, 61)),
        (2, True, 61, (36, 20, 16, 12, 8, 7, 6, 6, 6, 5, 61)),
        (3, True, 61, (36, 20, 16, 12, 8, 7, 6, 6, 6, 5, 61)),
    ],
)
def test_hex_counts_per_player_count_match_the_spec_table(
    players: int, long_game: bool, tiles: int, expected: tuple[int, ...]
) -> None:
    in_play = list(data.tiles_in_play(players, long_game))
    assert len(in_play) == tiles
    assert hex_counts(in_play) == dict(zip(KINDS, expected, strict=True))


def test_every_tile_carries_at_most_one_plaza_and_30_carry_one() -> None:
    plazas = [sum(c in data.PLAZAS for c in codes) for _, codes in data.TILES.values()]
    assert max(plazas) == 1
    assert sum(plazas) == 30


def test_plaza_stars_are_one_two_two_two_three() -> None:
    assert data.PLAZA_STARS == {"H": 1, "M": 2, "B": 2, "T": 2, "G": 3}


def test_identical_tiles_are_separate_tiles() -> None:
    assert data.TILES[28] == data.TILES[33] == data.TILES[37] == (2, "qqH")


def test_starting_tile_is_a_house_plaza_with_three_quarries() -> None:
    assert sorted(data.START_TILE) == sorted([(0, 0, "H"), (0, -1, "q"), (1, 0, "q"), (-1, 1, "q")])


# akropolis.md §4.3, rotation table: k -> (B offset, C offset).
ROTATIONS = {
    0: ((1, 0), (0, 1)),
    1: ((0, 1), (-1, 1)),
    2: ((-1, 1), (-1, 0)),
    3: ((-1, 0), (0, -1)),
    4: ((0, -1), (1, -1)),
    5: ((1, -1), (1, 0)),
}


@pytest.mark.parametrize("k", range(6))
def test_rotations_match_the_spec_table(k: int) -> None:
    a, b, c = hexes.ROTATED_SHAPES[k]
    assert a == (0, 0)
    assert (b, c) == ROTATIONS[k]


def test_pack_and_unpack_are_inverse() -> None:
    for q, r in [(0, 0), (-3, 7), (120, -250), (-300, 300)]:
        assert hexes.unpack(hexes.pack(q, r)) == (q, r)
