"""Setup and turn flow: akropolis.md §2.2, §2.5 and the cases R4, F1-F6."""

from __future__ import annotations

import random

import pytest

from games.engines.akropolis import ENGINE
from games.engines.akropolis.state import State


def random_game(players: int, seed: int, **options: object) -> list[tuple[State, int, dict]]:
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    played = []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        move = chooser.choice(ENGINE.legal_moves(state, seat))
        played.append((state, seat, move))
        state = ENGINE.apply_move(state, seat, move)
    played.append((state, -1, {}))
    return played


@pytest.mark.parametrize(
    ("players", "long_game", "tile_ids", "stacks", "site"),
    [
        (2, False, range(1, 38), 11, 4),  # F1
        (3, False, range(1, 50), 11, 5),  # F3
        (4, False, range(1, 62), 11, 6),  # F4, R4
        (2, True, range(1, 62), 19, 4),  # F5
        (3, True, range(1, 62), 14, 5),  # F6, A2
    ],
)
def test_setup_deals_stacks_of_n_plus_one_and_a_site_of_n_plus_two(
    players: int, long_game: bool, tile_ids: range, stacks: int, site: int
) -> None:
    state = ENGINE.new_game(players, seed=7, options={"long_game": long_game})
    assert len(state.stacks) == stacks
    assert all(len(stack) == players + 1 for stack in state.stacks)
    assert len(state.site) == site
    dealt = list(state.site) + [t for stack in state.stacks for t in stack]
    assert sorted(dealt) == list(tile_ids)


def test_r4_four_players_get_one_to_four_stones_and_the_first_chief_starts() -> None:
    state = ENGINE.new_game(4, seed=1)
    assert state.stones == (1, 2, 3, 4)
    assert 40 - sum(state.stones) == 30
    assert state.chief == 0
    assert ENGINE.to_move(state) == [0]


def test_every_city_starts_with_the_starting_tile() -> None:
    state = ENGINE.new_game(3, seed=2)
    for seat in range(3):
        city = ENGINE.view(state, None)["cities"][seat]
        assert {(c["q"], c["r"], c["top"], c["level"]) for c in city} == {
            (0, 0, "H", 1),
            (0, -1, "q", 1),
            (1, 0, "q", 1),
            (-1, 1, "q", 1),
        }


def test_the_shuffle_depends_on_the_seed_only() -> None:
    assert ENGINE.new_game(2, seed=42) == ENGINE.new_game(2, seed=42)
    assert ENGINE.new_game(2, seed=42).site != ENGINE.new_game(2, seed=43).site or (
        ENGINE.new_game(2, seed=42).stacks != ENGINE.new_game(2, seed=43).stacks
    )


def test_f1_round_one_and_the_first_refill_with_two_players() -> None:
    game = random_game(2, seed=3)
    takers = [seat for state, seat, move in game if move.get("type") == "take_tile"]
    assert takers[:4] == [0, 1, 0, 1]
    # After turn 3 one tile is left: the next stack is revealed behind it, in its order.
    start = game[0][0]
    after_turn_3 = next(s for s, _, _ in game if s.turns_played == 3)
    leftover = next(t for t in start.site if t not in _placed_tiles(after_turn_3))
    assert after_turn_3.site == (leftover, *start.stacks[0])
    assert after_turn_3.chief == 1
    assert ENGINE.to_move(after_turn_3) == [1]
    assert after_turn_3.round == 2


def _placed_tiles(state: State) -> set[int]:
    return {tile for city in state.cities for stack in city.stacks.values() for _, tile in stack}


@pytest.mark.parametrize(
    ("players", "long_game", "rounds", "turns"),
    [
        (2, False, 12, 36),  # F2
        (3, False, 12, 48),  # F3
        (4, False, 12, 60),  # F4
        (2, True, 20, 60),  # F5
        (3, True, 15, 60),  # F6
    ],
)
def test_whole_game_length_and_tiles_per_player(
    players: int, long_game: bool, rounds: int, turns: int
) -> None:
    game = random_game(players, seed=players, long_game=long_game)
    final = game[-1][0]
    assert final.round == rounds
    assert final.turns_played == turns
    placements = [seat for _, seat, move in game if move.get("type") == "place_tile"]
    assert len(placements) == turns
    assert all(placements.count(seat) == turns // players for seat in range(players))
    # One tile is left on the site, never used.
    assert len(final.site) == 1
    assert not final.stacks
    assert final.site[0] not in _placed_tiles(final)


def test_turn_order_is_clockwise_for_the_whole_game() -> None:
    game = random_game(3, seed=9)
    placers = [seat for _, seat, move in game if move.get("type") == "place_tile"]
    assert placers == [i % 3 for i in range(48)]


def test_chief_architect_passes_clockwise_at_each_refill() -> None:
    game = random_game(4, seed=5)
    chiefs = []
    for state, _, _ in game:
        if not chiefs or chiefs[-1][0] != state.round:
            chiefs.append((state.round, state.chief))
    assert chiefs == [(r, (r - 1) % 4) for r in range(1, 13)]


@pytest.mark.parametrize(
    "options",
    [
        "long_game",
        {"variants": "houses"},
        {"variants": ["houses", "houses"]},
        {"variants": ["castles"]},
        {"long_game": 1},
        {"lake_counts_as_edge": "no"},
        {"speed": "fast"},
    ],
)
def test_bad_options_are_refused_with_a_readable_message(options: object) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        ENGINE.new_game(2, seed=1, options=options)  # type: ignore[arg-type]


def test_long_game_is_refused_for_four_players() -> None:
    with pytest.raises(ValueError, match="2 or 3 players"):
        ENGINE.new_game(4, seed=1, options={"long_game": True})


@pytest.mark.parametrize("players", [1, 5, "2", True])
def test_bad_player_counts_are_refused(players: object) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, seed=1)  # type: ignore[arg-type]


def test_options_are_kept_in_a_canonical_order() -> None:
    state = ENGINE.new_game(2, seed=1, options={"variants": ["gardens", "houses"]})
    assert ENGINE.dump(state)["options"]["variants"] == ["houses", "gardens"]
