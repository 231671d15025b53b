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
    CLOCK_WARNING = "clock_warning", gettext_lazy("Your clock runs out soon")


def game_title(slug: str) -> str:
    """The game's title in the active language (the games app knows the titles)."""
    from games import catalog

    info = catalog.get(slug)
    return info.title if info is not None else slug


def _game(params: dict[str, Any]) -> str:
    title = game_title(str(params.get("slug", "")))
    return f"{title} #{params['game']}" if params.get("game") else title


def _when(params: dict[str, Any], key: str = "starts_at") -> str:
    try:
        instant = datetime.fromisoformat(str(params.get(key, "")))
    except ValueError:
        return ""
    return formats.date_format(times.local(instant), "DATETIME_FORMAT")


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
        _("%(host)s invites you to a game night: %(game)s on %(when)s.")
        % {"host": p.get("host", ""), "game": _game(p), "when": _when(p)}
    ),
    Kind.NIGHT_REMINDER: lambda p: (
        _("The game night of %(game)s starts at %(when)s.") % {"game": _game(p), "when": _when(p)}
    ),
    Kind.NIGHT_STARTED: lambda p: (
        _("The game night has begun: %(game)s is on the table.") % {"game": _game(p)}
    ),
    Kind.NIGHT_CANCELLED: lambda p: (
        _("The game night of %(game)s on %(when)s was cancelled: nobody joined.")
        % {"game": _game(p), "when": _when(p)}
    ),
    Kind.CLOCK_WARNING: lambda p: (
        _(
            "Your clock in %(game)s runs out at %(when)s: move before then, or a bot plays "
            "your seat. Vacation days stop your clocks."
        )
        % {"game": _game(p), "when": _when(p, "deadline")}
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
