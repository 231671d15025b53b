"""Seasons: stretches of the club's year with standings per game (games/seasons.py counts
them). Imported at the end of games/models.py, so the app's models are one set."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    """A stretch of the club's year, from `starts_on` to `ends_on` (both days included, in the
    club's time zone), set by an organiser. Seasons never overlap (games/seasons.py checks it
    before saving); each season's standings come from the rated games finished in it."""

    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The season's standings are counted once and kept (SeasonStanding), then brought up to
    # date as each of its games is scored (games/season_standings.py); a change the game's
    # end does not see (its days edited, results written in bulk) clears this. Kept with the
    # minimum of games they were placed with: another minimum places them again.
    standings_stored = models.BooleanField(default=False)
    standings_min_games = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "-pk"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        permissions = [("manage_seasons", _("Can create and edit seasons"))]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:season", args=[self.pk])


class SeasonStanding(models.Model):
    """One member's standing in one game of a season, as games/season_standings.py keeps it:
    the pages read these rows (the leaders by `place`, a member's own by `user`) rather than
    count the season's results again."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="stored_standings")
    engine_slug = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    doubled = models.IntegerField()  # twice the place points (games/season_standings.grouped)
    played = models.PositiveIntegerField()
    rank_sum = models.PositiveIntegerField()  # the ranks finished on: the average is this / played
    rating = models.FloatField(null=True, blank=True)  # rating_after at the season's end
    place = models.PositiveIntegerField(null=True, blank=True)  # None: not yet ranked

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "engine_slug", "user"], name="unique_season_standing"
            )
        ]
        indexes = [
            # The leaders of each game (the seasons' index, the club page), and a member's
            # rows (the profile).
            models.Index(fields=["season", "engine_slug", "place"], name="season_standing_place"),
            models.Index(fields=["user", "season"], name="season_standing_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.season_id} ({self.engine_slug})"
