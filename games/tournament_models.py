"""Tournaments: an organiser's competition in one game, played in rounds of tables
(games/services/tournaments.py runs them, games/pairing.py pairs them).

Imported at the end of games/models.py, so the app's models are one set.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.levels import BotLevel

# An async round lasts at most this many days.
MAX_ROUND_DAYS = 60


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    engine_slug = models.CharField(_("game"), max_length=40)
    format = models.CharField(_("format"), max_length=12, choices=Format)
    table_size = models.PositiveSmallIntegerField(_("players at a table"))
    capacity = models.PositiveSmallIntegerField(_("places"))
    bot_level = models.CharField(_("bots fill empty seats"), max_length=8, choices=BotLevel)
    status = models.CharField(
        _("status"), max_length=12, choices=Status, default=Status.REGISTRATION
    )
    # Async rounds: each round lasts `round_days` from its start, its games on a clock of
    # `days_per_move` (Game.days_per_move). None: live rounds, each at its `starts_at`.
    round_days = models.PositiveSmallIntegerField(_("days per round"), null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    # Round robin: the entries in the order the schedule seats them (fixed at the start).
    order = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("organise_tournament", "Can organise tournaments")]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:tournament", args=[self.pk])

    @property
    def is_async(self) -> bool:
        return self.round_days is not None


class TournamentEntry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("On the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    status = models.CharField(max_length=12, choices=Status)
    # The first round the member was paired in; a late entry starts at 0 points then.
    first_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # The place in the final ranking, stored when the tournament finishes (bots have no entry).
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="unique_tournament_entry")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()  # from 1
    # Live: the round's time. Async: the first round's time, then when the round started.
    starts_at = models.DateTimeField(_("starts at"))
    # Async: set when the round starts; the games still running then are played out by bots.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # Live: its members were reminded of the start (TOURNAMENT_REMINDER before it).
    reminded = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status, default=Status.SCHEDULED)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_tournament_round")
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class TournamentTable(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()  # from 1, top table first
    # The entry id at each seat of the game, in seat order; null for a bot.
    entries = models.JSONField(default=list)
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"
