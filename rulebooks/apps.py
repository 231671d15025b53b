from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulebooksConfig(AppConfig):
    name = "rulebooks"
    verbose_name = _("Rulebooks")
