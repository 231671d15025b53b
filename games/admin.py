from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from accounts import times
from games import season_standings
from games.models import (
    Game,
    GameNight,
    Move,
    Rating,
    Result,
    Season,
    Seat,
    Tournament,
    TournamentEntry,
    Vacation,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = readonly_fields = (
        "position",
        "user",
        "bot_level",
        "label",
        "bot_took_over",
        "resigned",
    )
    can_delete = False


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = readonly_fields = (
        "seat",
        "user",
        "bot_level",
        "score",
        "rank",
        "rating_before",
        "rating_after",
    )
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "engine_slug", "players", "status", "version", "created_by", "updated_at"]
    list_filter = ["engine_slug", "status", "imported"]
    search_fields = ["seats__user__username", "seats__user__display_name"]
    inlines = [SeatInline, ResultInline]
    # The log is the truth and services are its only writers (principle 2): read-only here.
    readonly_fields = [
        "engine_slug",
        "options",
        "seed",
        "salt",
        "commitment",
        "players",
        "status",
        "created_by",
        "started_at",
        "finished_at",
        "turn_started_at",
        "days_per_move",
        "state",
        "version",
        "steps_taken_back",
        "imported",
    ]

    # Principle 11: until a game is finished its seed and salt never leave the server, nor
    # its state, which holds every draw to come; not even to the admin's pages.
    SECRET_UNTIL_FINISHED = ("seed", "salt", "state")

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and obj.status == Game.Status.FINISHED:
            return fields
        return [f for f in fields if f not in self.SECRET_UNTIL_FINISHED]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "seat", "by_bot", "created_at"]
    list_filter = ["by_bot"]
    readonly_fields = ["game", "number", "seat", "payload", "by_bot", "can_take_back", "created_at"]

    def get_fields(self, request, obj=None):
        # A running game's moves may hold what a seat chose in secret (an offer, a card kept
        # back): as with the game's seed and state, not before the game is finished.
        fields = super().get_fields(request, obj)
        if obj is not None and obj.game.status == Game.Status.FINISHED:
            return fields
        return [f for f in fields if f != "payload"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["engine_slug", "user", "bot_level", "mu", "sigma", "games_played"]
    list_filter = ["engine_slug", "bot_level"]


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    # Scheduling, joining and the start go through games/services/nights.py: read-only here.
    # The instant through accounts/times.py: a night stored at the end of the calendar would
    # take Django's own rendering of the field past year 9999 in the admin's zone.
    list_display = ["pk", "engine_slug", "host", "when", "players", "status"]
    list_filter = ["engine_slug", "status"]
    exclude = ["starts_at"]
    readonly_fields = [
        "when" if f.name == "starts_at" else f.name for f in GameNight._meta.fields
    ] + ["invited"]

    @admin.display(description=_("starts at"), ordering="starts_at")
    def when(self, night: GameNight) -> str:
        shown = times.shown(night.starts_at)
        return f"{shown.text} {shown.zone}"

    def has_add_permission(self, request: object) -> bool:
        return False


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = readonly_fields = ("user", "status", "first_round")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    # Entries, rounds and tables go through games/services/tournaments.py: read-only here.
    list_display = ["pk", "name", "engine_slug", "format", "organiser", "status"]
    list_filter = ["engine_slug", "format", "status"]
    readonly_fields = [f.name for f in Tournament._meta.fields]
    inlines = [TournamentEntryInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Organisers edit seasons on the site (games/views/seasons.py), which refuses overlaps."""

    list_display = ["name", "starts_on", "ends_on"]
    readonly_fields = ["created_by", "standings_stored", "standings_min_games"]

    def save_model(self, request: Any, obj: Season, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        season_standings.forget_season(obj)  # its days may have changed


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    # Members take vacations on their own page (games/services/clocks.py checks the allowance).
    list_display = ["user", "starts_at", "ends_at"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "starts_at", "ends_at"]

    def has_add_permission(self, request: object) -> bool:
        return False
