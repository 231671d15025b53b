"""Forms of the game pages: creating a game, posting a move, importing an exported file,
scheduling a game night.

Forms only read and shape input; what a move or a game set-up means is decided by
`games.services` (and the engines behind it).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.times import member_zone, zone_label
from games import catalog, payloads
from games.messages import limit_text
from games.models import Season
from games.seasons import overlapping

IMPORT_MAX_BYTES = 2 * 1024 * 1024

SEAT_CHOICES = [
    ("me", _("Me")),
    ("invite", _("Invited seat (only the holder of its link can take it)")),
    ("open", _("Open seat (any member of the club can take it)")),
    ("open_easy", _("Open seat; an easy bot joins if nobody does")),
    ("open_normal", _("Open seat; a normal bot joins if nobody does")),
    ("open_hard", _("Open seat; a hard bot joins if nobody does")),
    ("easy", _("Easy bot")),
    ("normal", _("Normal bot")),
    ("hard", _("Hard bot")),
]
BOT_LEVELS = ("easy", "normal", "hard")


# What `read_json` returns for JSON nested deeper than games.payloads allows.
TOO_DEEP = object()


def read_json(raw: str) -> Any:
    """Parse JSON sent by a browser; None when it cannot be read, TOO_DEEP when it nests
    deeper than games.payloads.MAX_DEPTH (a crafted request reaches the parser's own limit,
    about 1,500 levels, within the size limits; nothing else may walk such a value)."""
    try:
        value = json.loads(raw)
    except RecursionError:
        return TOO_DEEP
    except ValueError:
        return None
    return TOO_DEEP if payloads.too_deep(value) else value


def playable_games() -> list[catalog.GameInfo]:
    """The games of the catalogue with an engine and a board (the lobby offers only those)."""
    return [info for info in catalog.games() if info.playable]


def option_field_name(slug: str, option: catalog.GameOption) -> str:
    return f"{slug}-{option.name}"


# Lazy with its number: each choice reads in the language of the page that shows it.
DAYS_PER_MOVE = ngettext_lazy("%(days)s day per move", "%(days)s days per move", "days")


class CreateGameForm(forms.Form):
    """Choose the game, its players and seats, and that game's options (catalog.GameOption):
    every playable game's option fields are on the form, and only the chosen game's count."""

    engine_slug = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    first_player = forms.ChoiceField(
        label=_("Who starts"),
        choices=[
            ("random", _("A player drawn at random (then clockwise)")),
            ("listed", _("Seat 1 (the order listed)")),
        ],
        initial="random",
    )
    # A flag that is ticked to leave the game unrated: a form posted without it (an older
    # page, a script) creates a rated game, as before the choice existed.
    unrated = forms.BooleanField(
        label=_("Unrated (a friendly or practice game)"),
        help_text=_("The result is kept, but no rating changes."),
        required=False,
    )
    # A game played over days: each seat has this many days for a move (its member's
    # vacation days pause the clock); empty: the site's turn timeout.
    days_per_move = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=[("", _("The site's turn timeout"))]
        + [(str(n), DAYS_PER_MOVE % {"days": n}) for n in (1, 2, 3, 5, 7, 14)],
        coerce=int,
        empty_value=None,
        required=False,
    )
    fill_after_minutes = forms.IntegerField(
        label=_("Minutes before a bot takes an open seat"),
        min_value=1,
        max_value=7 * 24 * 60,
        initial=30,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = playable_games()
        self.fields["engine_slug"].choices = [(g.slug, g.title) for g in self.games]
        low = min((g.min_players for g in self.games), default=2)
        self.max_seats = max((g.max_players for g in self.games), default=4)
        self.fields["players"].choices = [(n, str(n)) for n in range(low, self.max_seats + 1)]
        for n in range(self.max_seats):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=_("Seat %(number)s") % {"number": n + 1},
                choices=SEAT_CHOICES,
                initial="me" if n == 0 else "normal",
            )
        for game in self.games:
            for option in game.options:
                if option.is_flag:
                    field: forms.Field = forms.BooleanField(label=option.label, required=False)
                elif option.one:
                    field = forms.ChoiceField(
                        label=option.label,
                        choices=[("", option.default or "—"), *option.choices],
                        required=False,
                    )
                else:
                    field = forms.MultipleChoiceField(
                        label=option.label,
                        choices=option.choices,
                        required=False,
                        widget=forms.CheckboxSelectMultiple,
                    )
                self.fields[option_field_name(game.slug, option)] = field

    def player_counts(self) -> str:
        """Each game's player counts as JSON, {slug: [fewest, most]}: the page offers the
        chosen game's counts only (the server checks the count again)."""
        return json.dumps({g.slug: [g.min_players, g.max_players] for g in self.games})

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{n}"] for n in range(self.max_seats)]

    def option_groups(self) -> list[dict[str, Any]]:
        """Each playable game with its option fields (the page shows the chosen game's)."""
        return [
            {
                "game": game,
                "fields": [
                    {"field": self[option_field_name(game.slug, o)], "flag": o.is_flag}
                    for o in game.options
                ],
            }
            for game in self.games
            if game.options
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        players = data.get("players")
        if players is None:
            return data
        seats = []
        for n in range(players):
            choice = data.get(f"seat_{n}")
            if choice is None:
                continue
            if choice in BOT_LEVELS:
                seats.append({"kind": "bot", "bot_level": choice})
            elif choice.startswith("open_"):
                seats.append(
                    {
                        "kind": "open",
                        "fill_bot_level": choice.removeprefix("open_"),
                        "fill_after_minutes": data.get("fill_after_minutes") or 30,
                    }
                )
            else:
                seats.append({"kind": choice})
        if sum(1 for seat in seats if seat["kind"] == "me") > 1:
            raise forms.ValidationError(_("You can take only one seat in a game."))
        data["seats"] = seats
        data["random_first"] = data.get("first_player") == "random"
        data["options"] = self.engine_options(data)
        return data

    def engine_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """The chosen game's options, as its engine's `new_game` takes them."""
        info = catalog.get(data.get("engine_slug") or "")
        if info is None:
            return {}
        options: dict[str, Any] = {}
        for option in info.options:
            value = data.get(option_field_name(info.slug, option))
            if option.is_flag:
                options[option.name] = bool(value)
            elif option.one:
                options[option.name] = [value] if value else []
            else:
                options[option.name] = list(value or [])
        return options


class MoveForm(forms.Form):
    """A move as posted by the board: the move JSON and the move number the page showed."""

    expected_version = forms.IntegerField(min_value=0)
    move = forms.CharField(max_length=2000)

    def clean_move(self) -> dict[str, Any]:
        move = read_json(self.cleaned_data["move"])
        if move is TOO_DEEP:
            raise forms.ValidationError(
                _("This move is nested too deeply (at most %(max)s levels of lists and objects)."),
                params={"max": payloads.MAX_DEPTH},
            )
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise forms.ValidationError(_("That move could not be read."))
        return move

    def error_text(self) -> str:
        for errors in self.errors.values():
            return str(errors[0])
        return ""


class ImportGameForm(forms.Form):
    file = forms.FileField(label=_("Exported game (JSON)"))

    def clean_file(self) -> dict[str, Any]:
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("This file is too large for an exported game."))
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("This file is not valid JSON.")) from None
        data = read_json(text)
        if data is TOO_DEEP:
            raise forms.ValidationError(
                _(
                    "This file is nested too deeply to be a game export "
                    "(at most %(max)s levels of lists and objects)."
                ),
                params={"max": payloads.MAX_DEPTH},
            )
        if data is None:
            raise forms.ValidationError(_("This file is not valid JSON."))
        if not isinstance(data, dict):
            raise forms.ValidationError(_("This file is not a game exported from this site."))
        return data


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


class GameNightForm(forms.Form):
    """Schedule a game night: the date and time are read in the member's own time zone.

    A time the clocks show twice that day (when summer time ends) adds the field `fold`: the
    member chooses the first ("0") or the second ("1") of the two instants."""

    engine_slug = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    day = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    clock = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    bot_level = forms.ChoiceField(
        label=_("Bots fill the seats still empty at the time"),
        choices=[("easy", _("Easy bot")), ("normal", _("Normal bot")), ("hard", _("Hard bot"))],
        initial="normal",
    )
    invited = forms.ModelMultipleChoiceField(
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
        self.fields["engine_slug"].choices = [(info.slug, info.title) for info in games]
        most = max((info.max_players for info in games), default=2)
        self.fields["players"].choices = [(n, str(n)) for n in range(2, most + 1)]
        self.fields["invited"].queryset = (
            User.objects.filter(is_active=True).exclude(pk=user.pk).order_by("username")
        )
        self.fields["clock"].help_text = _("In your time zone: %(zone)s.") % {"zone": self.zone}
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
            self.order_fields(["engine_slug", "players", "day", "clock", "fold"])

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
        elif self.twice:
            if data.get("fold") in ("0", "1"):
                data["starts_at"] = self.twice[int(data["fold"])]
        else:
            instant = aware_instant(day, clock, self.zone)
            if instant is None:
                self.add_error(
                    "clock",
                    _("The clocks skip this time that day (summer time begins); choose another."),
                )
            data["starts_at"] = instant
        return data


class TournamentForm(forms.Form):
    """Create a tournament; the first round's date and time are read in the organiser's zone
    (a time the clocks show twice is the first of the two)."""

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
        choices=[("easy", _("Easy bot")), ("normal", _("Normal bot")), ("hard", _("Hard bot"))],
        initial="normal",
    )
    day = forms.DateField(
        label=_("First round: date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    clock = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    round_minutes = forms.IntegerField(
        label=_("Minutes between the starts of rounds"),
        min_value=0,
        max_value=7 * 24 * 60,
        initial=60,
        help_text=_("A round starts at its time once every game of the round before is over."),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = member_zone(user)
        self.fields["engine_slug"].choices = [(i.slug, i.title) for i in playable_games()]
        self.fields["clock"].help_text = _("In your time zone: %(zone)s.") % {"zone": self.zone}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("format") == "swiss" and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss tournament has 1 to 12 rounds."))
        day, clock = data.get("day"), data.get("clock")
        if day and clock:
            today = timezone.localdate(timezone=self.zone)
            instant = aware_instant(day, clock, self.zone)
            if day < today:
                self.add_error("day", _("Choose a time for the first round that is still to come."))
            elif (day - today).days > settings.NIGHT_DAYS_AHEAD:
                self.add_error("day", _("The first round can be at most a year ahead."))
            elif instant is None:
                self.add_error(
                    "clock",
                    _("The clocks skip this time that day (summer time begins); choose another."),
                )
            data["first_round_at"] = instant


# A season's days: a year at most, and dates a page can always show (its day after the last
# is still in the calendar, issue 31).
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
        data = super().clean()
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
                self.add_error(
                    None,
                    _("These days overlap the season %(name)s (%(first)s to %(last)s).")
                    % {
                        "name": other.name,
                        "first": date_format(other.starts_on, "SHORT_DATE_FORMAT"),
                        "last": date_format(other.ends_on, "SHORT_DATE_FORMAT"),
                    },
                )
        return data
