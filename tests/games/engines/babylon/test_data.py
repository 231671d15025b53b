"""Component data (spec §1.2, §3): the tables as the spec prints them, and their sums."""

from __future__ import annotations

from collections import Counter

from games.engines.babylon import data


def test_sixteen_tiles_per_material_four_per_flower() -> None:
    for material in (data.CLAY, data.GRANITE, data.BASALT):
        tiles = data.tiles_of(material)
        assert len(tiles) == 16
        assert Counter(data.TILES[t][0] for t in tiles) == dict.fromkeys(data.FLOWERS, 4)


def test_symbol_counts_per_material_match_the_spec_check_sums() -> None:
    # §3.3: clay S/F/B/T 8 each and 32 blanks; granite 12 each and 16; basalt 16 each.
    expected = {data.CLAY: (8, 32), data.GRANITE: (12, 16), data.BASALT: (16, 0)}
    for material, (each, blanks) in expected.items():
        fields = Counter("".join(data.TILES[t][1] for t in data.tiles_of(material)))
        assert {s: fields[s] for s in "SFBT"} == dict.fromkeys("SFBT", each)
        assert fields["-"] == blanks


def test_symbols_per_tile_follow_the_material_and_never_repeat() -> None:
    per_material = {data.CLAY: 2, data.GRANITE: 3, data.BASALT: 4}
    for tile_id in data.TERRACE_TILES:
        symbols = data.TILES[tile_id][1].replace("-", "")
        assert len(symbols) == per_material[data.material(tile_id)]
        assert len(set(symbols)) == len(symbols)


def test_granite_leaves_field_three_blank() -> None:
    assert all(data.TILES[t][1][3] == "-" for t in data.tiles_of(data.GRANITE))


def test_spot_checks_against_the_spec_tables() -> None:
    assert data.TILES["C01"] == ("orange", "SF--")
    assert data.TILES["C16"] == ("white", "FB--")
    assert data.TILES["G10"] == ("blue", "TBS-")
    assert data.TILES["B08"] == ("pink", "SBTF")
    assert data.TILES["B16"] == ("white", "SFTB")


def test_starting_tiles_show_all_four_symbols_and_their_flower() -> None:
    # §3.4, D21.
    for flower in data.FLOWERS:
        assert data.TILES[f"S-{flower}"] == (flower, "SFBT")
        assert data.material(f"S-{flower}") is None


def test_round_tokens_are_two_of_each_kind() -> None:
    # §3.5, D19.
    assert len(data.ROUND_TOKENS) == 14
    assert Counter(data.ROUND_TOKENS) == dict.fromkeys(data.EFFECTS, 2)


def test_supply_counts_are_the_rulebook_component_list() -> None:
    assert data.SUPPLY == {
        "singles": 148,
        "doubles": 60,
        "belvederes": 38,
        "stairs": 15,
        "fountains": 15,
        "bridges": 15,
        "statues": 38,
    }


def test_rounds_tokens_and_removals_by_player_count() -> None:
    assert data.TOKENS_BY_PLAYERS == {2: 14, 3: 12, 4: 10}
    assert data.ROUNDS_BY_PLAYERS == {2: 15, 3: 13, 4: 11}
    assert {p: len(order) for p, order in data.REMOVAL_ORDER.items()} == {2: 6, 3: 3, 4: 0}
