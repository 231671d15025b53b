"""The Hanging Gardens' squares, places and placement choices that the board module writes as
text (games/boards/hanging_gardens/svg.py) are the ones their templates wrote: the whole
board partial, for every viewer through seeded games to their end, in English, Hungarian and
Polish, against the templates of 4c660cd (kept in tests/games/reference/), fed with the same
drawing data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.template import engines

from tests.games.conftest import build_game, follow_against_old

REFERENCE = Path(__file__).parent / "reference"
OLD = "4c660cd"


def old_template(name: str, includes: dict[str, str]) -> Any:
    suffix = "html" if name == "board" else "svg"
    text = (REFERENCE / f"hanging_gardens_{name}_{OLD}.{suffix}").read_text()
    for include, variable in includes.items():
        text = text.replace(f'"games/hanging_gardens/{include}"', variable)
    return engines["django"].from_string(text)


def old_parts() -> dict[str, Any]:
    """The board partial of 4c660cd and the parts it includes, as context variables."""
    return {
        "old_board": old_template("board", {"_garden.svg": "old_garden", "_card.svg": "old_card"}),
        "old_garden": old_template("garden", {"_squares.svg": "old_squares"}),
        "old_card": old_template("card", {"_squares.svg": "old_squares"}),
        "old_squares": old_template("squares", {}),
    }


def test_the_reference_templates_are_the_ones_replaced() -> None:
    """The old parts still write each piece the board module now writes."""
    garden = (REFERENCE / f"hanging_gardens_garden_{OLD}.svg").read_text()
    assert garden.count('"games/hanging_gardens/_squares.svg"') == 2
    assert 'class="hg-spot"' in garden and 'class="hg-last-outline"' in garden
    board = (REFERENCE / f"hanging_gardens_board_{OLD}.html").read_text()
    assert "{% for o in g.options %}<option" in board


@pytest.mark.parametrize(("players", "seed", "moves_seed"), [(2, 4, 1), (3, 9, 2)])
def test_boards_are_written_as_their_templates_wrote_them(
    alice: Any, bob: Any, players: int, seed: int, moves_seed: int
) -> None:
    bob.display_name = 'Bob & <Co> "the gardener"'
    bob.save()
    members = [alice, bob][:players]
    game = build_game(*members, *["normal"] * (players - 2), engine="hanging-gardens", seed=seed)
    pieces = ("hg-spot", "hg-last-outline", "<option")
    compared, seen = follow_against_old(game, old_parts(), pieces, moves=5, seed=moves_seed)
    # Every replaced piece was drawn, and the game was followed to its end.
    assert seen == {"hg-spot", "hg-last-outline", "<option"}
    assert compared > 100
