"""Each game's Django side, one board package per game: `games/boards/<pkg>/` (DESIGN.md
layout), registered with its engine and bot knowledge in `games/registry.py`.

A board turns its game's view dict into drawing data, says in words what each move did,
names the rulebook section of each step and declares what the lobby offers (the `Board`
Protocol of the registry; `docs/adding-a-game.md` has the checklist). Callers get the checked
plug-in from here and call its hooks; a hook the board does not offer has its default from
`registry.BoardDefaults`.
"""

from __future__ import annotations

from typing import Any

from games import engines, registry


def all() -> list[registry.Board]:  # shadows the builtin on purpose, like engines.all()
    """Every registered game's board, in the order the pages list the games."""
    found = [registry.board(entry.slug) for entry in registry.ENTRIES]
    return sorted(found, key=lambda board: board.INFO.name.removeprefix("The "))


def get(slug: str) -> registry.Board | None:
    """The game's board, or None for a slug no game has."""
    return registry.board(slug) if registry.is_registered(slug) else None


def is_playable(slug: str) -> bool:
    """A game can be played once its engine is registered and its board draws it."""
    return slug in engines.ENGINE_MODULES and get(slug) is not None


def playable() -> list[registry.Board]:
    return [board for board in all() if is_playable(board.INFO.slug)]


def package_name(slug: str) -> str:
    """The package of the game (templates/games/<pkg>/, engines/<pkg>/, boards/<pkg>/)."""
    return registry.entry(slug).package


def summarize(
    slug: str, before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move (stored as Move.summary when it is written), from the
    table's views before and after it; {} for a slug no game has."""
    board = get(slug)
    if board is None:
        return {}
    return dict(board.summarize(before, seat, move, after))


def unmarked_seat(recent: list[dict[str, Any]], viewer: int | None) -> int | None:
    """Whose moves a board does not mark as the last turn: the viewer's own (they know what
    they did), unless the last move of `recent` is theirs. The last move is always marked:
    a hint's preview and the review's alternative end `recent` with the viewer's own move."""
    if recent and recent[-1]["seat"] == viewer:
        return None
    return viewer
