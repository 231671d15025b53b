"""The club pages' tags: a player's name, linked to the member's profile, or a bot's name with
its badge, linked to that bot level's place in the standings.

Tags rather than an included template: a history page or a profile names a player a few
hundred times, and an include costs a template render each time. Every page that names a
member or a bot goes through `name_link`, so every name leads to its person.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games import rendering
from games.stats import Player
from infra.links import reverse

register = template.Library()


def standing_url(bot_level: str, slug: str = "") -> str:
    """Where a bot level stands: its row in the game's standings, or the standings of every
    game where the page names no game (a profile's head-to-head)."""
    if slug:
        return reverse("games:leaderboard", args=[slug]) + f"#standing-{bot_level}"
    return reverse("games:standings")


@register.simple_tag
def link(viewname: str, *args: Any) -> str:
    """`{% url %}` for the boards' partials, which name the same addresses for every viewpoint
    of every move: the address kept once worked out (infra/links.py)."""
    return reverse(viewname, args)


@register.simple_tag
def name_link(name: str, username: str = "", bot_level: str = "", slug: str = "") -> SafeString:
    """A member's name linked to their profile; a bot's with its badge, linked to its standing;
    anything else (an open seat, an imported game's recorded name) as plain text."""
    if username:
        return format_html('<a href="{}">{}</a>', reverse("accounts:member", args=[username]), name)
    if bot_level:
        badge = mark_safe(rendering.bot_badge())  # our own template
        return format_html('<a href="{}">{}{}</a>', standing_url(bot_level, slug), name, badge)
    return format_html("{}", name)


@register.simple_tag
def player(who: Player, slug: str = "") -> SafeString:
    """A participant of the statistics (games/stats.Player)."""
    return name_link(who.name, who.username, who.bot_level if who.is_bot else "", slug)


@register.simple_tag
def seat_player(seat: Any, slug: str = "") -> SafeString:
    """A game's seat: its member (with "played by a bot" once a bot took the seat over), its
    bot, "Open seat", or the name an imported game recorded."""
    name = rendering.seat_name(seat)
    if getattr(seat, "label", ""):
        return name_link(name)
    if seat.user_id is not None:
        link = name_link(name, seat.user.username)
        return format_html("{}{}", link, mark_safe(rendering.bot_badge())) if seat.is_bot else link
    return name_link(name, bot_level=seat.bot_level, slug=slug)


@register.simple_tag
def member_link(user: Any) -> SafeString:
    """A member (a night's host, its joined and invited members, the newest members)."""
    return name_link(user.name, user.username)
