"""Replay every game's move log and compare it with the stored state (DESIGN.md principle 3)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.services import audit_game


class Command(BaseCommand):
    help = "Replay each game's move log and check it gives the stored state, status and results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default: all)")

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = failed = 0
        for game in games.iterator():
            checked += 1
            problems = audit_game(game=game)
            if problems:
                failed += 1
                for problem in problems:
                    self.stderr.write(f"game {game.pk} ({game.engine_slug}): {problem}")
        if failed:
            raise CommandError(f"{failed} of {checked} games do not match their move log.")
        self.stdout.write(self.style.SUCCESS(f"{checked} games match their move log."))
