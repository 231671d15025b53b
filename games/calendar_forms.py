"""The forms whose days and times are read in the member's own time zone: game nights,
tournaments and seasons."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from accounts.times import member_zone, zone_label
from games.clocks import MAX_DAYS_PER_MOVE
from games.error_texts import limit_text
from games.forms import playable_games
from games.levels import BotLevel
from games.models import MAX_ROUND_DAYS, Season
from games.seasons import overlapping


def aware_instant(day: Any, clock: Any, zone: ZoneInfo, *, fold: int = 0) -> datetime | None:
    """The instant (in UTC) a member means by a date and a wall-clock time in their time zone;
    None for a time the clocks skip (the hour lost when summer time begins) and for one whose
    instant no datetime holds (year 1 east of UTC, year 9999 west of it). A time the clocks
    show twice (when summer time ends) is the first of the two, or with fold=1 the second.
    Never raises."""
    try:
        wall = datetime.combine(day, clock)
        instant = wall.replace(tzinfo=zone, fold=fold).astimezone(UTC)
        back = instant.astimezone(zone)
    except (OverflowError, TypeError, ValueError):
        return None
    if back.replace(tzinfo=None) != wall:
        return None
    return instant


class WallClockForm(forms.Form):
    """A form with a `day` and a `clock` read in the member's zone (`self.zone`). A time the
    clocks show twice that day (when summer time ends) adds the field `fold`: the member
    chooses the first ("0") or the second ("1") of the two instants (`self.twice`)."""

    zone: ZoneInfo

    def ask_which_one(self, *, before: list[str]) -> None:
        """Call at the end of __init__: `before` are the fields shown above the question."""
        self.twice = self.twice_shown() if self.is_bound else []
        if self.twice:
            self.fields["fold"] = forms.ChoiceField(
                label=_("Which one?"),
                choices=[(str(n), self.clock_label(i)) for n, i in enumerate(self.twice)],
                widget=forms.RadioSelect,
                error_messages={
                    "required": _(
                        "The clocks show this time twice that day (summer time ends): "
                        "choose which one."
                    )
                },
            )
            self.order_fields([*before, "fold"])

    def twice_shown(self) -> list[datetime]:
        """The two instants of the posted date and time when the clocks show it twice."""
        try:
            day = self.fields["day"].clean(self["day"].data)
            clock = self.fields["clock"].clean(self["clock"].data)
        except forms.ValidationError:
            return []
        first = aware_instant(day, clock, self.zone)
        second = aware_instant(day, clock, self.zone, fold=1)
        return [first, second] if first and second and first != second else []

    def clock_label(self, instant: datetime) -> str:
        moment = instant.astimezone(self.zone)
        return f"{moment:%H:%M} {zone_label(moment)}"

    def chosen_instant(self, data: dict[str, Any]) -> datetime | None:
        """The instant meant by the posted day and clock: the one chosen of a time shown
        twice (None until one is chosen), None for a time the clocks skip (with the error
        said on `clock`)."""
        if self.twice:
            fold = data.get("fold")
            return self.twice[int(fold)] if fold in ("0", "1") else None
        instant = aware_instant(data["day"], data["clock"], self.zone)
        if instant is None:
            self.add_error(
                "clock",
                _("The clocks skip this time that day (summer time begins); choose another."),
            )
        return instant


class GameNightForm(WallClockForm):
    """Schedule a game night: the date and time are read in the member's own time zone.

    A time the clocks show twice that day (when summer time ends) adds the field `fold`: the
    member chooses the first ("0") or the second ("1") of the two instants."""

    engine_slug = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    day = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    clock = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    bot_level = forms.ChoiceField(
        label=_("Bots fill the seats still empty at the time"),
        choices=BotLevel.choices,
        initial="normal",
    )
    invited: forms.ModelMultipleChoiceField[Any] = forms.ModelMultipleChoiceField(
        label=_("Invite members"),
        queryset=None,  # set in __init__: every other active member
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    open_to_club = forms.BooleanField(
        label=_("Any member may join (otherwise only the invited)"), required=False, initial=True
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        from accounts.models import User

        super().__init__(*args, **kwargs)
        self.user = user
        self.zone = member_zone(user)
        games = playable_games()
        cast(forms.ChoiceField, self.fields["engine_slug"]).choices = [
            (info.slug, info.title) for info in games
        ]
        most = max((info.max_players for info in games), default=2)
        cast(forms.ChoiceField, self.fields["players"]).choices = [
            (n, str(n)) for n in range(2, most + 1)
        ]
        cast(forms.ModelMultipleChoiceField, self.fields["invited"]).queryset = (
            User.objects.filter(is_active=True).exclude(pk=user.pk).order_by("username")
        )
        self.fields["clock"].help_text = _("In your time zone: %(zone)s.") % {"zone": self.zone}
        self.ask_which_one(before=["engine_slug", "players", "day", "clock"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        day, clock = data.get("day"), data.get("clock")
        if not (day and clock):
            return data
        today = timezone.localdate(timezone=self.zone)
        days = settings.NIGHT_DAYS_AHEAD
        # Dates out of reach are refused before any instant is computed (the service checks
        # the instant itself against the clock).
        if day < today:
            self.add_error("day", _("Choose a time that is still to come."))
        elif (day - today).days > days:
            self.add_error("day", limit_text("night_too_far", days))
        elif not self.twice or data.get("fold") in ("0", "1"):  # else `fold` says it is missing
            data["starts_at"] = self.chosen_instant(data)
        return data


class TournamentForm(WallClockForm):
    """Create a tournament; the first round's date and time are read in the organiser's zone
    (a time the clocks show twice is asked about, as for a game night). Rounds are live (each
    at its time, `round_minutes` apart) or async (each `round_days` long, its games on a clock
    of `days_per_move`)."""

    name = forms.CharField(label=_("Name"), max_length=100)
    engine_slug = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("swiss", _("Swiss")), ("round_robin", _("Round robin"))],
        initial="swiss",
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"),
        min_value=1,
        max_value=12,
        initial=3,
        required=False,
        help_text=_("A round robin plays one round more than the players at a table."),
    )
    table_size = forms.TypedChoiceField(
        label=_("Players at a table"), coerce=int, choices=[(n, str(n)) for n in range(2, 6)]
    )
    capacity = forms.IntegerField(
        label=_("Places (later entries wait on a list)"), min_value=2, max_value=200, initial=16
    )
    bot_level = forms.ChoiceField(
        label=_("Bots complete the tables"),
        choices=BotLevel.choices,
        initial="normal",
    )
    pace = forms.ChoiceField(
        label=_("Rounds"),
        choices=[
            ("live", _("Live: each round starts at its time")),
            ("async", _("Async: each round has a deadline; moves are on a clock of days")),
        ],
        initial="live",
        required=False,  # live when not said
        widget=forms.RadioSelect,
    )
    day = forms.DateField(
        label=_("First round: date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    clock = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    round_minutes = forms.IntegerField(
        label=_("Live: minutes between the starts of rounds"),
        min_value=0,
        max_value=7 * 24 * 60,
        initial=60,
        required=False,
        help_text=_("A round starts at its time once every game of the round before is over."),
    )
    round_days = forms.IntegerField(
        label=_("Async: days per round"),
        min_value=1,
        max_value=MAX_ROUND_DAYS,
        initial=14,
        required=False,
        help_text=_("The next round starts as soon as every game of the round before is over."),
    )
    days_per_move = forms.IntegerField(
        label=_("Async: days per move"),
        min_value=1,
        max_value=MAX_DAYS_PER_MOVE,
        initial=3,
        required=False,
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = member_zone(user)
        cast(forms.ChoiceField, self.fields["engine_slug"]).choices = [
            (i.slug, i.title) for i in playable_games()
        ]
        self.fields["clock"].help_text = _("In your time zone: %(zone)s.") % {"zone": self.zone}
        names = list(self.fields)
        self.ask_which_one(before=names[: names.index("clock") + 1])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("format") == "swiss" and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss tournament has 1 to 12 rounds."))
        data["pace"] = data.get("pace") or "live"
        if data["pace"] == "async":
            for name in ("round_days", "days_per_move"):
                if data.get(name) is None:
                    self.add_error(name, _("Async rounds need this."))
        elif data.get("round_minutes") is None:
            self.add_error("round_minutes", _("Live rounds need this."))
        day, clock = data.get("day"), data.get("clock")
        if day and clock:
            today = timezone.localdate(timezone=self.zone)
            if day < today:
                self.add_error("day", _("Choose a time for the first round that is still to come."))
            elif (day - today).days > settings.NIGHT_DAYS_AHEAD:
                self.add_error("day", _("The first round can be at most a year ahead."))
            elif not self.twice or data.get("fold") in ("0", "1"):
                data["first_round_at"] = self.chosen_instant(data)
        return data


# A season's days: a year at most, and dates a page can always show (its day after the last
# is still in the calendar).
SEASON_MAX_DAYS = 366
SEASON_YEARS = (2000, 2999)


class SeasonForm(forms.ModelForm):
    """An organiser's season: a name and its first and last days, which may not share a day
    with another season."""

    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on"]
        widgets = {
            "starts_on": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "ends_on": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        for name in ("starts_on", "ends_on"):
            day = data.get(name)
            if day is not None and not SEASON_YEARS[0] <= day.year <= SEASON_YEARS[1]:
                self.add_error(
                    name,
                    _("Choose a day between the years %(first)s and %(last)s.")
                    % {"first": SEASON_YEARS[0], "last": SEASON_YEARS[1]},
                )
        if self.errors or starts_on is None or ends_on is None:
            return data
        if ends_on < starts_on:
            self.add_error("ends_on", _("The last day cannot come before the first day."))
        elif (ends_on - starts_on).days + 1 > SEASON_MAX_DAYS:
            self.add_error(
                "ends_on",
                _("A season lasts at most %(days)s days.") % {"days": SEASON_MAX_DAYS},
            )
        else:
            other = overlapping(starts_on, ends_on, exclude=self.instance.pk)
            if other is not None:
                self.add_error(None, overlap_text(other))
        return data


def overlap_text(other: Season) -> str:
    return _("These days overlap the season %(name)s (%(first)s to %(last)s).") % {
        "name": other.name,
        "first": date_format(other.starts_on, "SHORT_DATE_FORMAT"),
        "last": date_format(other.ends_on, "SHORT_DATE_FORMAT"),
    }
