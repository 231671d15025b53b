from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A club member. ``display_name`` is what other members see; ``language`` is remembered."""

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, default="en"
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

    class Kind(models.TextChoices):
        JOINED = "joined", _("Someone joined your game")
        YOUR_TURN = "your_turn", _("Your turn")
        FINISHED = "finished", _("Game finished")
        TAKEN_OVER = "taken_over", _("A bot took over your seat")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # 1, 2, 3... per member: live messages carry it, so a page that sees a gap (or reconnects)
    # fetches the count over HTTP, as game pages do with move numbers (DESIGN.md principle 7).
    number = models.PositiveIntegerField(_("number"), default=0)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, blank=True)
    message = models.CharField(_("message"), max_length=300)
    link = models.CharField(_("link"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        ordering = ["-number", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "number"], name="unique_notification_number")
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return self.message
