"""Each game's Django side, one module per game: `games/boards/<pkg>.py` (DESIGN.md layout).

A board module turns its game's view dict into drawing data, says in words what each move
did, names the rulebook section of each step and declares what the lobby offers
(`docs/adding-a-game.md` has the checklist). Modules are found by looking in this package, so a new
game adds its own file and nothing here changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from games import engines


@cache
def _modules() -> dict[str, ModuleType]:
    found = []
    for entry in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{entry.name}")
        found.append(module)
    found.sort(key=lambda module: module.INFO.name.removeprefix("The "))
    return {module.INFO.slug: module for module in found}


def all() -> list[ModuleType]:  # shadows the builtin on purpose, like engines.all()
    """Every game's board module, in the order the pages list the games."""
    return list(_modules().values())


def get(slug: str) -> ModuleType | None:
    return _modules().get(slug)


def is_playable(slug: str) -> bool:
    """A game can be played once its engine is registered and its board module draws it."""
    module = get(slug)
    return slug in engines.ENGINE_MODULES and module is not None and hasattr(module, "board")


def playable() -> list[ModuleType]:
    return [module for module in all() if is_playable(module.INFO.slug)]


def package_name(slug: str) -> str:
    """`hanging-gardens` lives in `hanging_gardens` (templates/games/<pkg>/, engines/<pkg>/)."""
    return slug.replace("-", "_")


def summarize(slug: str, before: dict, seat: int, move: dict, after: dict) -> dict:
    """The public facts of a move (stored as Move.summary when it is written), from the
    table's views before and after it; {} for a game whose board module has no `summarize`."""
    module = get(slug)
    if module is None or not hasattr(module, "summarize"):
        return {}
    return dict(module.summarize(before, seat, move, after))


def unmarked_seat(recent: list[dict], viewer: int | None) -> int | None:
    """Whose moves a board does not mark as the last turn: the viewer's own (they know what
    they did), unless the last move of `recent` is theirs. The last move is always marked:
    a hint's preview and the review's alternative end `recent` with the viewer's own move."""
    if recent and recent[-1]["seat"] == viewer:
        return None
    return viewer
