"""A move as advice in words (each board module's `advise`, through
`rendering.advise_payload`): two moves that differ only in one detail (the rotation, the
offers taken, the card) must read differently, in English and in Hungarian (issue 32)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.utils import translation

from games import boards, engines, rendering

NAMES = ["Anna", "Bence", "Csilla", "Dóra"]


def pair_differing_in(slug: str, move_type: str, key: str) -> tuple[Any, int, dict, dict]:
    """A position of a random game where two legal moves of `move_type` differ only in `key`."""
    engine = engines.get(slug)
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.new_game(max(3, engine.min_players), seed)
        while not engine.is_over(state):
            seat = engine.to_move(state)[0]
            moves = engine.legal_moves(state, seat)
            groups: dict[str, dict] = {}
            for move in moves:
                if move["type"] != move_type:
                    continue
                rest = json.dumps({k: v for k, v in move.items() if k != key}, sort_keys=True)
                other = groups.setdefault(rest, move)
                if other[key] != move[key]:
                    return state, seat, other, move
            state = engine.apply_move(state, seat, rng.choice(moves))
    raise AssertionError(f"no two {move_type} moves differing only in {key} in {slug}")


def advice(slug: str, state: Any, seat: int, move: dict) -> str:
    engine = engines.get(slug)
    after = engine.apply_move(state, seat, move)
    summary = boards.summarize(slug, engine.view(state, None), seat, move, engine.view(after, None))
    return rendering.advise_payload(slug, NAMES, move, summary)


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize(
    ("slug", "move_type", "key"),
    [
        ("babylon", "place", "rotation"),
        ("akropolis", "place_tile", "rotation"),
        ("hanging-gardens", "place_card", "rotation"),
        ("hanging-gardens", "place_card", "card"),
        ("tower-of-babel", "accept", "offers"),
        ("tower-of-babel", "offer", "cards"),
    ],
)
def test_two_moves_differing_in_one_detail_read_differently(
    slug: str, move_type: str, key: str, language: str
) -> None:
    state, seat, one, other = pair_differing_in(slug, move_type, key)
    with translation.override(language):
        first, second = advice(slug, state, seat, one), advice(slug, state, seat, other)
    assert first != second, (one, other, first)


def test_tower_of_babel_names_whose_offers_to_take() -> None:
    state, seat, one, other = pair_differing_in("tower-of-babel", "accept", "offers")
    for move in (one, other):
        words = advice("tower-of-babel", state, seat, move)
        for taken in move["offers"]:
            assert NAMES[taken] in words
        if move["offers"]:
            assert "offer" in words


def test_babylon_advice_says_how_the_tile_is_turned() -> None:
    state, seat, one, other = pair_differing_in("babylon", "place", "rotation")
    turned = next(m for m in (one, other) if m["rotation"])
    assert f"turned {turned['rotation']} quarter" in advice("babylon", state, seat, turned)


def test_advice_is_addressed_to_the_player() -> None:
    engine = engines.get("akropolis")
    state = engine.new_game(2, 3)
    take = engine.legal_moves(state, 0)[1]
    assert advice("akropolis", state, 0, take).startswith("Take the ")
