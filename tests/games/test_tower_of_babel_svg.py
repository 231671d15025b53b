"""Tower of Babel's discs, swatches, building parts, tables and list of players that the board
module writes as text (games/boards/tower_of_babel/svg.py) are the ones their templates wrote:
the whole board partial, for every viewer through seeded games to their end, in English,
Hungarian and Polish, against the templates of 62aa901 (kept in tests/games/reference/), fed
with the same drawing data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.template import engines

from tests.conftest import make_user
from tests.games.conftest import build_game, follow_against_old

REFERENCE = Path(__file__).parent / "reference"
OLD = "62aa901"
PARTS = ("card", "disc", "parts", "swatch")
# What the module writes, each of which the games below must draw at least once.
PIECES = (
    'class="tob-disc can-build"',  # a disc the viewer may build (the form stays a template's)
    'class="tob-disc chosen"',  # the disc of the build in progress
    'class="part-row"',
    'class="none">',  # a wonder nobody has built on
    'class="tob-owned"',  # collected discs
    "<path d=",  # a two-type disc (the variant's)
    'class="row current"',
    'class="row current light"',  # the marker on the last row
    "trading card offered",
    'class="tob-player mine',
    'class="badge tob-active-badge"',
)


def old_parts() -> dict[str, Any]:
    """The board partial of 62aa901 and the pictures it includes, as context variables."""
    board = (REFERENCE / f"tower_of_babel_board_{OLD}.html").read_text()
    parts = {}
    for name in PARTS:
        board = board.replace(f'"games/tower_of_babel/_{name}.svg"', f"old_{name}")
        text = (REFERENCE / f"tower_of_babel_{name}_{OLD}.svg").read_text()
        parts[f"old_{name}"] = engines["django"].from_string(text)
    parts["old_board"] = engines["django"].from_string(board)
    return parts


def test_the_reference_templates_are_the_ones_replaced() -> None:
    board = (REFERENCE / f"tower_of_babel_board_{OLD}.html").read_text()
    for name in PARTS:
        assert f'"games/tower_of_babel/_{name}.svg"' in board
    assert "{% for p in board.players %}" in board
    assert 'class="tob-track-svg"' in board and 'class="tob-columns-svg"' in board


@pytest.mark.parametrize(
    ("players", "seed", "moves_seed", "two_type_discs"),
    [(4, 3, 1, False), (3, 8, 2, True), (5, 12, 3, False)],
)
def test_boards_are_written_as_their_templates_wrote_them(
    alice: Any, bob: Any, carol: Any, players: int, seed: int, moves_seed: int, two_type_discs: bool
) -> None:
    bob.display_name = 'Bob & <Co> "the builder"'
    bob.save()
    members = [alice, bob, carol, make_user("dora"), make_user("eve")][:players]
    options = {"two_type_discs": two_type_discs, "no_action_cards": False}
    game = build_game(*members, engine="tower-of-babel", seed=seed, options=options)
    compared, seen = follow_against_old(game, old_parts(), PIECES, moves=3, seed=moves_seed)
    # Every piece the module writes was drawn (two-type discs only in their variant), and the
    # game was followed to its end.
    assert seen == set(PIECES) - (set() if two_type_discs else {"<path d="})
    assert compared > 100
