"""Helpers the game views share: finding the game, the viewer's seat, the board context, and
calendar files."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from icalendar import Calendar, Event

from games import live_reads, rendering, services
from games.models import Game, Seat


def int_param(raw: str | None) -> int | None:
    """A small non-negative integer from a query string, or None. `str.isdigit` alone would
    pass '²' and strings too long for `int()`."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    return None


def get_game(game_id: int) -> Game:
    """The game with its seats and their members, in one statement written once per process
    (games/live_reads: the move post reads it on every move)."""
    # An id past the key's range is no game (the statement would fail on it, not find nothing).
    game = live_reads.game_with_seats(game_id) if 0 < game_id < 2**63 else None
    if game is None:
        raise Http404("No such game.")
    return game


def my_seat(game: Game, user: Any) -> Seat | None:
    """The viewer's seat, from the game's seats (`get_game` has them already)."""
    if not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def play_context(game: Game, seat: Seat | None, *, error: str | None = None) -> dict[str, Any]:
    """Everything the play page and its board partial need, for the viewer's own seat."""
    position = seat.position if seat is not None else None
    ctx: dict[str, Any] = {"game": game, "seat": position}
    if game.state is None:
        ctx["waiting"] = True
        return ctx
    view = services.view_for(game=game, seat=position)
    ctx.update(rendering.board_context(game=game, seat=position, view=view, error=error))
    return ctx


# How long a calendar entry of a scheduled game lasts: an evening, not the game's exact length.
CALENDAR_LENGTH = timedelta(hours=2)


def calendar_end(starts_at: datetime) -> datetime:
    """CALENDAR_LENGTH after the start, or the calendar's last second for a time stored too
    close to the end of year 9999 to add it."""
    try:
        return starts_at + CALENDAR_LENGTH
    except OverflowError:
        return datetime.max.replace(microsecond=0, tzinfo=UTC)


@dataclass(frozen=True)
class CalendarEntry:
    uid: str  # unique on this site: "game-night-7"
    starts_at: datetime
    ends_at: datetime
    summary: str
    path: str  # the page it links to
    cancelled: bool = False


def calendar_file(
    request: HttpRequest, entries: list[CalendarEntry], *, filename: str, product: str
) -> HttpResponse:
    """An iCalendar file (RFC 5545) of `entries` to add to a calendar; the instants are in
    UTC, so every calendar shows them in its own zone."""
    host = request.get_host().split(":")[0] or "club"
    cal = Calendar()
    cal.add("prodid", f"-//{settings.CLUB_NAME or 'Board-game club'}//{product}//EN")
    cal.add("version", "2.0")
    for entry in entries:
        event = Event()
        event.add("uid", f"{entry.uid}@{host}")
        event.add("dtstamp", timezone.now())
        event.add("dtstart", entry.starts_at)
        event.add("dtend", entry.ends_at)
        event.add("summary", entry.summary)
        event.add("url", request.build_absolute_uri(entry.path))
        if entry.cancelled:
            event.add("status", "CANCELLED")
        cal.add_component(event)
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
