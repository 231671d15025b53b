"""The bot levels a seat may be played by, shared by the seats and the tournaments' models
(games/models.py, games/tournament_models.py) without either importing the other."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy bot")
    NORMAL = "normal", _("Normal bot")
    HARD = "hard", _("Hard bot")
