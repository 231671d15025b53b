"""`{{ instant|zoned }}`: a day and time with its zone's name ("Nov. 27, 2026, 06:10 CET"),
in the active language and time zone (accounts/texts.py)."""

from __future__ import annotations

from datetime import datetime

from django import template

from accounts import texts

register = template.Library()


@register.filter(name="zoned")
def zoned(instant: datetime | None) -> str:
    return texts.zoned(instant) if instant is not None else ""
