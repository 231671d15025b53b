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

        from games import registry, season_standings
        from games.bots import memo

        registry.all()
        # Deletes in the admin (or anywhere) make the seasons they touch count again.
        season_standings.watch_deletes()
        memo.set_limit(settings.BOT_CACHE_ENTRIES)
