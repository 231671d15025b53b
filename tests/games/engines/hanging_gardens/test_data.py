"""Component data (hanging-gardens.md §3) and the card geometry of §4."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from games.engines.hanging_gardens import data
from games.engines.hanging_gardens.grid import SHAPES, pack, turn, unpack


def test_deck_checksums_of_section_3_2() -> None:
    assert len(data.CARDS) == 60
    assert sorted(data.CARDS) == list(range(1, 61))
    squares = Counter(square for rows in data.CARDS.values() for row in rows for square in row)
    assert {m: squares[m] for m in data.MOTIFS} == {"T": 35, "P": 35, "A": 35, "F": 35}
    assert squares["."] == 220
    sizes = Counter(
        sum(square != "." for row in rows for square in row) for rows in data.CARDS.values()
    )
    assert sizes == {1: 12, 2: 24, 3: 16, 4: 8}
    assert len(set(data.CARDS.values())) == 60


def test_every_card_is_two_wide_and_three_tall() -> None:
    for rows in data.CARDS.values():
        assert len(rows) == 3
        assert all(len(row) == 2 for row in rows)


def test_point_tiles_are_44_series_tiles_and_5_persons() -> None:
    assert sum(data.TILE_COUNTS[k] for k in data.SERIES_KINDS) == 44
    assert sum(data.TILE_COUNTS[k] for k in data.PERSON_KINDS) == 5
    assert sum(data.TILE_COUNTS.values()) == 49


def test_series_length_is_half_the_tiles_of_each_kind() -> None:
    # §3.4: the rule behind the assumed series lengths, true of the printed ones too.
    for kind in data.SERIES_KINDS:
        assert len(data.SERIES_VALUES[kind]) * 2 == data.TILE_COUNTS[kind]


@pytest.mark.parametrize(
    ("size", "columns"), [(2, []), (3, [1]), (4, [1, 2]), (5, [1, 2, 3]), (9, [1, 2, 3])]
)
def test_group_size_opens_display_columns(size: int, columns: list[int]) -> None:
    # §2.7: 3 -> column 1; 4 -> columns 1-2; 5 or more -> any column.
    assert list(data.allowed_columns(size)) == columns


def test_quarter_turn_examples_of_section_4() -> None:
    h21 = data.CARDS[21]
    assert turn(h21, 1) == ("..T", "..P")
    assert turn(h21, 2) == ("..", "..", "PT")
    assert turn(data.CARDS[59], 3) == ("PF.", "TA.")
    assert turn(data.CARDS[1], 2) == ("..", "..", ".T")


def test_four_quarter_turns_give_the_card_back() -> None:
    for rows in data.CARDS.values():
        assert turn(rows, 4) == rows


def test_a_turned_card_lands_square_by_square_from_its_anchor() -> None:
    # H21 at k = 1 is 3 wide and 2 tall: T at (2, 0) and P at (2, 1) from the anchor.
    shape = SHAPES[21][1]
    assert (shape.width, shape.height) == (3, 2)
    motifs = {unpack(pack(5, 7) + off) for off in shape.motif_offsets}
    assert motifs == {(7, 7), (7, 8)}


def test_every_assumption_of_the_spec_is_named_in_the_data_module() -> None:
    # §7 lists the decisions; §7.1, 7.2, 7.8 and 7.9 are the spec's ASSUMPTIONs.
    source = Path(data.__file__).read_text(encoding="utf-8")
    for number in range(1, 18):
        assert f"§7.{number}" in source, number
    assert source.count("ASSUMPTION") >= 6
