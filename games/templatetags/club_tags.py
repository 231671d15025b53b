"""The club pages' tags: a player's name, linked to the member's profile or badged as a bot.

A tag rather than an included template: a history page or a profile names a player a few
hundred times, and an include costs a template render each time.
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.stats import Player

register = template.Library()
_BADGES: dict[str | None, str] = {}


def bot_badge() -> str:
    """The site's bot badge (games/_bot_badge.html), rendered once per language."""
    language = translation.get_language()
    if language not in _BADGES:
        _BADGES[language] = render_to_string("games/_bot_badge.html")
    return _BADGES[language]


@register.simple_tag
def player(who: Player) -> SafeString:
    if who.is_bot:
        return format_html("{}{}", who.name, mark_safe(bot_badge()))  # our own template
    url = reverse("accounts:member", args=[who.username])
    return format_html('<a href="{}">{}</a>', url, who.name)
