"""The words of a notification, written when it is read.

A notification stores its kind and parameters (ids, names, numbers, instants), never words:
`render` writes them in the active language, with the game's title in that language and
times in the active time zone, so a member who changes language reads every notification in
the new one. Notifications stored before they had parameters keep their stored text.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import models
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import times


class Kind(models.TextChoices):
    """What a notification tells (`Notification.Kind`); its words are written below."""

    JOINED = "joined", gettext_lazy("Someone joined your game")
    YOUR_TURN = "your_turn", gettext_lazy("Your turn")
    FINISHED = "finished", gettext_lazy("Game finished")
    TAKEN_OVER = "taken_over", gettext_lazy("A bot took over your seat")
    NIGHT_INVITED = "night_invited", gettext_lazy("Invited to a game night")
    NIGHT_REMINDER = "night_reminder", gettext_lazy("A game night starts soon")
    NIGHT_STARTED = "night_started", gettext_lazy("A game night has begun")
    NIGHT_CANCELLED = "night_cancelled", gettext_lazy("A game night was cancelled")
    TOURNAMENT_ROUND = "tournament_round", gettext_lazy("A tournament round has begun")
    NIGHT_JOINED = "night_joined", gettext_lazy("Someone joined your game night")
    NIGHT_LEFT = "night_left", gettext_lazy("Someone left your game night")
    CLOCK_WARNING = "clock_warning", gettext_lazy("Your clock runs out soon")
    TOURNAMENT_REMINDER = "tourn_reminder", gettext_lazy("A tournament round starts soon")
    TOURNAMENT_DEADLINE = "tourn_deadline", gettext_lazy("A tournament round's deadline passed")
    TOURNAMENT_CANCELLED = "tourn_cancelled", gettext_lazy("A tournament was cancelled")


def game_title(slug: str) -> str:
    """The game's title in the active language (the games app knows the titles)."""
    from games import catalog

    info = catalog.get(slug)
    return info.title if info is not None else slug


def _game(params: dict[str, Any]) -> str:
    title = game_title(str(params.get("slug", "")))
    return f"{title} #{params['game']}" if params.get("game") else title


def zoned_time(instant: datetime) -> str:
    """The clock time in the active time zone with the zone's name: "06:10 CET" (a reader in
    London reads "05:10 GMT"; a time without its zone means two things to two readers)."""
    local = times.local(instant)
    return f"{local:%H:%M} {local.tzname()}"


def zoned(instant: datetime) -> str:
    """The day and the zoned time, as a notice's list and a live toast show when it came."""
    day = formats.date_format(times.local(instant), "DATE_FORMAT")
    return f"{day}, {zoned_time(instant)}"


def _day_and_time(params: dict[str, Any], key: str = "starts_at") -> dict[str, str]:
    """The night's day (the language's date format) and its zoned time, in the reader's
    zone; a sentence puts them where its language does ("on … at …")."""
    try:
        instant = datetime.fromisoformat(str(params.get(key, "")))
    except ValueError:
        return {"day": "", "time": ""}
    day = formats.date_format(times.local(instant), "DATE_FORMAT")
    return {"day": day, "time": zoned_time(instant)}


def _when(params: dict[str, Any], key: str) -> str:
    """An instant of the notice's parameters as its day and zoned time ("Nov. 27, 2026, 06:10
    CET"); empty when it cannot be read."""
    parts = _day_and_time(params, key)
    return f"{parts['day']}, {parts['time']}" if parts["day"] else ""


def _cancelled(params: dict[str, Any]) -> str:
    """Why the night is off, as it concerns the reader: the host cancelled a night they had
    joined or were invited to, or nobody joined by the time (the beat's cancel)."""
    values = {"host": params.get("host", ""), "game": _game(params), **_day_and_time(params)}
    if params.get("reason") == "joined":
        return (
            _(
                "%(host)s cancelled the %(game)s game night on %(day)s at %(time)s that you had "
                "joined."
            )
            % values
        )
    if params.get("reason") == "invited":
        return (
            _(
                "%(host)s cancelled the %(game)s game night on %(day)s at %(time)s that you were "
                "invited to."
            )
            % values
        )
    return (
        _("The %(game)s game night on %(day)s at %(time)s was cancelled: nobody joined.") % values
    )


TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {
    Kind.JOINED: lambda p: (
        _("%(name)s joined your game of %(game)s.") % {"name": p.get("name", ""), "game": _game(p)}
    ),
    Kind.YOUR_TURN: lambda p: _("It is your turn in %(game)s.") % {"game": _game(p)},
    Kind.FINISHED: lambda p: (
        _("%(game)s has finished: you placed %(place)s of %(players)s.")
        % {"game": _game(p), "place": p.get("place"), "players": p.get("players")}
    ),
    Kind.TAKEN_OVER: lambda p: (
        _(
            "You did not move in time in %(game)s, so a bot now plays your seat. "
            "You can take it back on the game page."
        )
        % {"game": _game(p)}
    ),
    Kind.NIGHT_INVITED: lambda p: (
        _("%(host)s invites you to a game night: %(game)s on %(day)s at %(time)s.")
        % {"host": p.get("host", ""), "game": _game(p), **_day_and_time(p)}
    ),
    Kind.NIGHT_REMINDER: lambda p: (
        _("The %(game)s game night starts on %(day)s at %(time)s.")
        % {"game": _game(p), **_day_and_time(p)}
    ),
    Kind.NIGHT_STARTED: lambda p: (
        _("The game night has begun: %(game)s is on the table.") % {"game": _game(p)}
    ),
    Kind.TOURNAMENT_ROUND: lambda p: (
        _("Round %(round)s of %(tournament)s has begun: your table plays %(game)s.")
        % {"round": p.get("round"), "tournament": p.get("tournament", ""), "game": _game(p)}
        + (
            " " + _("Its deadline is %(when)s.") % {"when": _when(p, "deadline")}
            if p.get("deadline")
            else ""
        )
    ),
    Kind.NIGHT_CANCELLED: _cancelled,
    Kind.NIGHT_JOINED: lambda p: (
        _("%(name)s joined your %(game)s game night on %(day)s at %(time)s.")
        % {"name": p.get("name", ""), "game": _game(p), **_day_and_time(p)}
    ),
    Kind.NIGHT_LEFT: lambda p: (
        _("%(name)s left your %(game)s game night on %(day)s at %(time)s.")
        % {"name": p.get("name", ""), "game": _game(p), **_day_and_time(p)}
    ),
    Kind.CLOCK_WARNING: lambda p: (
        _(
            "Your clock in %(game)s runs out at %(when)s: move before then, or a bot plays "
            "your seat. Vacation days stop your clocks."
        )
        % {"game": _game(p), "when": _when(p, "deadline")}
    ),
    Kind.TOURNAMENT_REMINDER: lambda p: (
        _("Round %(round)s of %(tournament)s starts on %(day)s at %(time)s.")
        % {"round": p.get("round"), "tournament": p.get("tournament", ""), **_day_and_time(p)}
    ),
    Kind.TOURNAMENT_DEADLINE: lambda p: (
        _(
            "The deadline of round %(round)s of %(tournament)s has passed: a bot plays your "
            "seat in %(game)s to the end."
        )
        % {"round": p.get("round"), "tournament": p.get("tournament", ""), "game": _game(p)}
    ),
    Kind.TOURNAMENT_CANCELLED: lambda p: (
        _("%(organiser)s cancelled the tournament %(tournament)s that you had entered.")
        % {"organiser": p.get("organiser", ""), "tournament": p.get("tournament", "")}
    ),
}


def render_kind(kind: str, params: dict[str, Any]) -> str | None:
    text = TEXTS.get(kind)
    if text is None:
        return None
    try:
        return text(params)
    except (KeyError, TypeError, ValueError):
        return None


def render(note: Any) -> str:
    """A `Notification`'s text in the active language and time zone."""
    if note.params:
        text = render_kind(note.kind, note.params)
        if text is not None:
            return text
    return note.message
