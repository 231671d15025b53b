from __future__ import annotations

import zoneinfo
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts import texts


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone the system knows (a callable: a new tzdata needs no migration)."""
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    """A club member. ``display_name`` is what other members see; ``language`` is remembered."""

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    # Game nights are scheduled, and times shown, in this zone (the club's by default).
    time_zone = models.CharField(
        _("time zone"), max_length=64, choices=time_zone_choices, default=settings.TIME_ZONE
    )
    # E-mail is opt-in, one switch per kind of notice (accounts/mail.py).
    email_your_turn = models.BooleanField(_("e-mail me when it is my turn"), default=False)
    email_finished = models.BooleanField(_("e-mail me when a game has finished"), default=False)
    email_game_nights = models.BooleanField(
        _("e-mail me about game nights I am invited to"), default=False
    )

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("accounts:profile")


class Notification(models.Model):
    """Something a member should be told (a bot took over a seat, a game ended...).

    Stored, so nothing is lost when the member is offline; pushed live when they are online.
    """

    Kind = texts.Kind

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # 1, 2, 3... per member: live messages carry it, so a page that sees a gap (or reconnects)
    # fetches the count over HTTP, as game pages do with move numbers (DESIGN.md principle 7).
    number = models.PositiveIntegerField(_("number"), default=0)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, blank=True)
    # What happened, as data: the text is written when the notification is read, in the
    # reader's language then (accounts/texts.py). `message` is the English text, kept for the
    # admin and for notifications stored before kinds had parameters.
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    message = models.CharField(_("message"), max_length=300, blank=True)
    link = models.CharField(_("link"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    # Set when the e-mail for it was handed to the mail backend: at most one per notification.
    emailed_at = models.DateTimeField(_("e-mailed"), null=True, blank=True)

    class Meta:
        ordering = ["-number", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "number"], name="unique_notification_number")
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return self.message

    @property
    def text(self) -> str:
        """The notification in the active language."""
        return texts.render(self)
