from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Every registered game's engine, board and bot knowledge is loaded and checked
        # against its Protocols now: a game missing a hook stops the site at start-up.
        from django.conf import settings

        from games import registry
        from games.bots import memo

        registry.all()
        memo.set_limit(settings.BOT_CACHE_ENTRIES)
