"""The audit of one game against its move log (DESIGN.md principle 3), as `audit_games` runs it.

A game that never started (still waiting for players, or abandoned in its waiting room when
its last member left) has no state to replay: all its log may hold is nothing. Every other game
is replayed by `services.audit_game`.
"""

from __future__ import annotations

from games import services
from games.models import Game

NEVER_STARTED = (Game.Status.OPEN, Game.Status.ABANDONED)


def audit_game(*, game: Game) -> list[str]:
    """Problems found in the game's log and stored cache; empty when they agree."""
    if game.status in NEVER_STARTED:
        if game.version == 0 and not game.moves.exists():
            return []
        return ["moves before the start"]
    return services.audit_game(game=game)
