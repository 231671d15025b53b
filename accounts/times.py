"""Instants as a member reads them: in their time zone, with the zone named.

Nothing here raises for an instant or a zone the calendar cannot hold: a value stored before
it was checked (a game night on 31 December 9999, which east of UTC falls in year 10000) is
shown in UTC, and a stored zone that tzdata no longer knows reads as the club's.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils import formats, timezone


def member_zone(user: Any) -> ZoneInfo:
    """The member's time zone; the club's (settings.TIME_ZONE) when theirs is not known."""
    try:
        return ZoneInfo(getattr(user, "time_zone", "") or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def local(instant: datetime) -> datetime:
    """`instant` in the active time zone; in UTC when that zone's clock would read it outside
    the years 1 to 9999."""
    try:
        return timezone.localtime(instant)
    except OverflowError:
        return instant.astimezone(UTC)


def offset_label(offset: timedelta) -> str:
    """A UTC offset as members read it: "UTC+2", "UTC-3", "UTC+5:30"."""
    minutes = int(offset.total_seconds()) // 60
    hours, rest = divmod(abs(minutes), 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def zone_label(moment: datetime) -> str:
    """The zone of an aware local time with its offset: "CEST (UTC+2)"; "UTC-3" where tzdata
    has no abbreviation (it writes "-03"); "UTC" or "GMT" at offset zero. Unlike Django's
    date format "e", it names the zone of a time the clocks show twice (by its fold)."""
    offset = moment.utcoffset() or timedelta(0)
    name = moment.tzname() or ""
    if not offset:
        return name if name.isalpha() else "UTC"
    if not name or name[0] in "+-":
        return offset_label(offset)
    return f"{name} ({offset_label(offset)})"


class Shown(NamedTuple):
    """An instant for a page: `iso` for <time datetime>, `text` in the active language's
    format, `zone` the zone's label."""

    iso: str
    text: str
    zone: str


def shown(instant: datetime, style: str = "DATETIME_FORMAT") -> Shown:
    moment = local(instant)
    return Shown(moment.isoformat(), formats.date_format(moment, style), zone_label(moment))
