"""The four games of the club, as the site presents them (names, players, descriptions).

The rules themselves live in ``games/engines/``; this is only what the pages say about a game,
so it can be shown before an engine for the game exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class GameOption:
    """One option of `ENGINE.new_game(options=...)` as the lobby offers it: a yes/no `flag`,
    or (with `choices`) a list of any of the listed values."""

    name: str
    label: Promise
    choices: tuple[tuple[str, Promise], ...] = ()

    @property
    def is_flag(self) -> bool:
        return not self.choices


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str
    designer: str
    year: int
    min_players: int
    max_players: int
    description: Promise
    # What the host may choose when creating a game (games/<slug>.md: variants, options).
    options: tuple[GameOption, ...] = ()

    @property
    def players(self) -> str:
        return f"{self.min_players}–{self.max_players}"


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        "babylon",
        "Babylon",
        "Olivier Grégoire",
        2024,
        2,
        4,
        _(
            "Raise the hanging gardens of Babylon in three dimensions: quarry stone, set "
            "pillars and lay terrace tiles on top of them."
        ),
    ),
    GameInfo(
        "akropolis",
        "Akropolis",
        "Jules Messaud",
        2022,
        2,
        4,
        _(
            "Build a city of hexagonal tiles in levels: houses, markets, barracks, temples "
            "and gardens score when their plazas multiply them."
        ),
        options=(
            GameOption(
                "variants",
                _("Variants"),
                choices=(
                    ("houses", _("Houses variant")),
                    ("markets", _("Markets variant")),
                    ("barracks", _("Barracks variant")),
                    ("temples", _("Temples variant")),
                    ("gardens", _("Gardens variant")),
                ),
            ),
            GameOption("long_game", _("Long game (all tiles)")),
            GameOption("lake_counts_as_edge", _("A lake counts as the city's edge for barracks")),
            GameOption(
                "lake_is_enclosed_region", _("A lake counts as an enclosed region for gardens")
            ),
        ),
    ),
    GameInfo(
        "hanging-gardens",
        "The Hanging Gardens",
        "Din Li",
        2008,
        2,
        4,
        _(
            "Lay overlapping garden cards, build temples on the largest groups of one motif "
            "and collect point tiles."
        ),
    ),
    GameInfo(
        "tower-of-babel",
        "Tower of Babel",
        "Reiner Knizia",
        2005,
        3,
        5,
        _(
            "Build the wonders of the ancient world together, trading secret simultaneous "
            "offers of building cards."
        ),
    ),
)

BY_SLUG = {game.slug: game for game in GAMES}


def get(slug: str) -> GameInfo | None:
    return BY_SLUG.get(slug)
