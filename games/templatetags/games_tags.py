"""Small template filters for the game pages."""

from __future__ import annotations

from typing import Any

from django import template

from games import rendering

register = template.Library()


@register.filter
def seat_name(seat: Any) -> str:
    return rendering.seat_name(seat)


@register.filter
def game_name(slug: str) -> str:
    return rendering.game_name(slug)
