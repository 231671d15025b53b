"""Forms of the game pages: creating a game, posting a move, importing an exported file.

Forms only read and shape input; what a move or a game set-up means is decided by
`games.services` (and the engines behind it).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import catalog, engines

MAX_SEATS = 4
IMPORT_MAX_BYTES = 2 * 1024 * 1024

SEAT_CHOICES = [
    ("me", _("Me")),
    ("open", _("Open seat (invite someone)")),
    ("open_easy", _("Open seat; an easy bot joins if nobody does")),
    ("open_normal", _("Open seat; a normal bot joins if nobody does")),
    ("open_hard", _("Open seat; a hard bot joins if nobody does")),
    ("easy", _("Easy bot")),
    ("normal", _("Normal bot")),
    ("hard", _("Hard bot")),
]
BOT_LEVELS = ("easy", "normal", "hard")

AKROPOLIS_VARIANTS = [
    ("houses", _("Houses variant")),
    ("markets", _("Markets variant")),
    ("barracks", _("Barracks variant")),
    ("temples", _("Temples variant")),
    ("gardens", _("Gardens variant")),
]


def read_json(raw: str) -> Any:
    """Parse JSON sent by a browser; None when it cannot be read (including nesting so deep
    that the parser gives up, which a crafted request can reach within the size limits)."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def playable_games() -> list[tuple[str, str]]:
    """The games of the catalogue whose engine exists (the lobby offers only those)."""
    choices = []
    for info in catalog.GAMES:
        try:
            engines.get(info.slug)
        except KeyError:
            continue
        choices.append((info.slug, info.name))
    return choices


class CreateGameForm(forms.Form):
    engine_slug = forms.ChoiceField(label=_("Game"), choices=playable_games)
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(n, str(n)) for n in range(2, MAX_SEATS + 1)]
    )
    seat_0 = forms.ChoiceField(label=_("Seat 1"), choices=SEAT_CHOICES, initial="me")
    seat_1 = forms.ChoiceField(label=_("Seat 2"), choices=SEAT_CHOICES, initial="normal")
    seat_2 = forms.ChoiceField(label=_("Seat 3"), choices=SEAT_CHOICES, initial="normal")
    seat_3 = forms.ChoiceField(label=_("Seat 4"), choices=SEAT_CHOICES, initial="normal")
    first_player = forms.ChoiceField(
        label=_("Who starts"),
        choices=[
            ("random", _("A player drawn at random (then clockwise)")),
            ("listed", _("Seat 1 (the order listed)")),
        ],
        initial="random",
    )
    fill_after_minutes = forms.IntegerField(
        label=_("Minutes before a bot takes an open seat"),
        min_value=1,
        max_value=7 * 24 * 60,
        initial=30,
        required=False,
    )
    # Akropolis options (spec: variants and the long game).
    variants = forms.MultipleChoiceField(
        label=_("Variants"),
        choices=AKROPOLIS_VARIANTS,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    long_game = forms.BooleanField(label=_("Long game (all tiles)"), required=False)
    lake_counts_as_edge = forms.BooleanField(
        label=_("A lake counts as the city's edge for barracks"), required=False
    )
    lake_is_enclosed_region = forms.BooleanField(
        label=_("A lake counts as an enclosed region for gardens"), required=False
    )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{n}"] for n in range(MAX_SEATS)]

    def option_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in ("variants", "long_game", "lake_counts_as_edge", "lake_is_enclosed_region")
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
        if data.get("engine_slug") != "akropolis":
            return {}
        return {
            "variants": list(data.get("variants") or []),
            "long_game": bool(data.get("long_game")),
            "lake_counts_as_edge": bool(data.get("lake_counts_as_edge")),
            "lake_is_enclosed_region": bool(data.get("lake_is_enclosed_region")),
        }


class MoveForm(forms.Form):
    """A move as posted by the board: the move JSON and the move number the page showed."""

    expected_version = forms.IntegerField(min_value=0)
    move = forms.CharField(max_length=2000)

    def clean_move(self) -> dict[str, Any]:
        move = read_json(self.cleaned_data["move"])
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
        if data is None:
            raise forms.ValidationError(_("This file is not valid JSON."))
        if not isinstance(data, dict):
            raise forms.ValidationError(_("This file is not a game exported from this site."))
        return data
