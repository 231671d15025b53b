"""Forms of the game pages: creating a game, posting a move, importing an exported file,
scheduling a game night.

Forms only read and shape input; what a move or a game set-up means is decided by
`games.services` (and the engines behind it).
"""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games import catalog, payloads

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
        cast(forms.ChoiceField, self.fields["engine_slug"]).choices = [
            (g.slug, g.title) for g in self.games
        ]
        low = min((g.min_players for g in self.games), default=2)
        self.max_seats = max((g.max_players for g in self.games), default=4)
        cast(forms.ChoiceField, self.fields["players"]).choices = [
            (n, str(n)) for n in range(low, self.max_seats + 1)
        ]
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
        data = super().clean() or {}
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
