"""The games of the club, as the site presents them: one `GameInfo` per game, declared by
that game's board module (`games/boards/<pkg>.py`, `INFO`).

The rules live in `games/engines/`; this is what the pages say about a game, so a game can be
listed (with its rules) before its engine exists. Nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from django.utils.functional import Promise

from rulebooks.titles import game_title, shipped_titles

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise  # gettext_lazy's text, as django-stubs types it


@dataclass(frozen=True)
class GameOption:
    """One option of `ENGINE.new_game(options=...)` as the lobby offers it: a yes/no `flag`,
    or (with `choices`) a list of any of the listed values. With `one`, the host picks at most
    one value from a single list (its empty choice, labelled `default`, keeps the engine's
    default), and the engine still receives a list: `[value]` or `[]`."""

    name: str
    label: StrPromise
    choices: tuple[tuple[str, StrPromise], ...] = ()
    one: bool = False
    default: StrPromise | None = None

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

    @property
    def title(self) -> str:
        """The game's name in the active language (rulebooks/content/<slug>/book.json is the
        one source of names per language); `name` is the name the engine knows."""
        return game_title(self.slug) if shipped_titles(self.slug) else self.name

    @property
    def playable(self) -> bool:
        """True once the game has an engine and a board: the lobby offers it."""
        from games import boards

        return boards.is_playable(self.slug)


def games() -> list[GameInfo]:
    """Every game of the club, in the order the pages list them."""
    from games import boards

    # Every board's INFO is a GameInfo; the registry, below the catalogue, knows it by the
    # `Info` protocol.
    return [cast(GameInfo, board.INFO) for board in boards.all()]


def get(slug: str) -> GameInfo | None:
    from games import boards

    board = boards.get(slug)
    return cast(GameInfo, board.INFO) if board is not None else None
