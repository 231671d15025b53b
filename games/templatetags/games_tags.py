"""Small template filters for the game pages."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import times
from games import catalog, rendering

register = template.Library()


@register.filter
def seat_name(seat: Any) -> str:
    return rendering.seat_name(seat)


@register.filter
def game_name(slug: str) -> str:
    return rendering.game_name(slug)


@register.filter
def local_time(instant: Any) -> times.Shown | None:
    """An instant in the reader's time zone with the zone named (`iso`, `text`, `zone`); in UTC
    where that zone's clock would leave the calendar (Django's "date" filter raises there)."""
    return times.shown(instant) if instant is not None else None


@register.filter
def playable(slug: str) -> bool:
    """Whether the site can play this game yet (engine and board), or only shows its rules."""
    info = catalog.get(slug)
    return info is not None and info.playable


@register.simple_tag
def rules_only_games() -> list[catalog.GameInfo]:
    """The club's games the site cannot play yet: listed with a link to their rules."""
    return [info for info in catalog.games() if not info.playable]
