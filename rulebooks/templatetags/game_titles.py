"""``{% game_title slug %}`` and ``{% club_games %}``: game names from the one source."""

from __future__ import annotations

from django import template

from rulebooks.titles import game_title as title_of
from rulebooks.titles import game_titles

register = template.Library()


@register.simple_tag
def game_title(slug: str, language: str | None = None) -> str:
    """The game's name in ``language``, by default in the page's language."""
    return title_of(slug, language)


@register.simple_tag
def club_games(language: str | None = None) -> str:
    """Every game's name in the page's language, as a comma-separated list."""
    return ", ".join(game_titles(language))
