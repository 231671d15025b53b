"""A game's name in each language: the one source is ``titles`` in its ``book.json``.

Every page that names a game (the rulebooks, the footer, the games pages) asks here, so a game
is shown under the same name everywhere: the published local title where one exists
(“Bábel tornya”, “Wieża Babel”), else the name the game is sold under.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.utils import translation

CONTENT_DIR = Path(__file__).resolve().parent / "content"


@cache
def _all_titles() -> dict[str, dict[str, str]]:
    """Slug -> {language: title}, read once from the shipped content (it changes on deploy)."""
    titles: dict[str, dict[str, str]] = {}
    for path in sorted(CONTENT_DIR.glob("*/book.json")):
        meta = json.loads(path.read_text(encoding="utf-8"))
        titles[meta.get("slug") or path.parent.name] = dict(meta.get("titles") or {})
    return titles


def _language(language: str | None) -> str:
    code = language or translation.get_language() or "en"
    return code.split("-")[0]


def shipped_titles(slug: str) -> dict[str, str]:
    """The titles in the game's ``book.json`` ({} for a rulebook that is not shipped)."""
    return dict(_all_titles().get(slug, {}))


def game_title(slug: str, language: str | None = None) -> str:
    """The game's name in ``language`` (default: the active one), else in English, else the slug."""
    titles = _all_titles().get(slug, {})
    return titles.get(_language(language)) or titles.get("en") or slug


def game_titles(language: str | None = None) -> list[str]:
    """Every game's name in ``language``, in the order of their slugs."""
    return [game_title(slug, language) for slug in _all_titles()]
