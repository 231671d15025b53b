"""Verify one game's deal (DESIGN.md principle 11, games/deals.py): recompute the commitment
from the seed and the salt, and replay the move log through the engine from the seed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import deals, services
from games.models import Game


class Command(BaseCommand):
    help = (
        "Recompute a game's commitment from its seed and salt, and replay its moves from the "
        "seed through the engine. A running game's seed and salt are not printed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args: Any, game_id: int, **options: Any) -> None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"There is no game {game_id}.")
        check = services.verify_deal(game=game)
        say = self.stdout.write
        say(f"game {game.pk} ({game.engine_slug}), {game.status}")
        say(f"commitment shown from the start: {game.commitment or 'none'}")
        if deals.revealed(game):
            say(f"seed: {game.seed}")
            say(f"salt: {game.salt or 'none'}")
        else:
            say("seed and salt: kept secret until the game is finished (checked, not printed)")
        if check.commitment_holds is None:
            origin = "imported from a file" if game.imported else "created before commitments"
            say(f"no commitment was shown before the game ({origin}): only the replay is checked")
        elif check.commitment_holds:
            say('sha256(f"{seed}:{salt}") equals the commitment')
        else:
            say('FAILED: sha256(f"{seed}:{salt}") differs from the commitment')
        if check.replays:
            say(f"replayed {check.moves} moves from the seed: the stored game equals the replay")
        else:
            for problem in check.problems:
                say(f"FAILED: {problem}")
        if not check.ok:
            raise CommandError(f"The deal of game {game.pk} does not verify.")
        self.stdout.write(self.style.SUCCESS(f"The deal of game {game.pk} verifies."))
