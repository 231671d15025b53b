"""Deals anyone can verify (DESIGN.md principle 11).

When a game is created the site draws its seed and a salt of 16 random bytes, written as 32
lowercase hexadecimal digits. The commitment is

    sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()

that is, the SHA-256 of the ASCII bytes of the seed in decimal (no sign, no leading zeros), a
colon and the salt, written as 64 lowercase hexadecimal digits: `printf '%s:%s' SEED SALT |
sha256sum` prints it. The game page shows the commitment from the start. The seed and the salt
stay on the server while the game runs (no page, fragment, socket message or export of a
running game holds them); once the game is finished, the game page, the replay, the export
and the verify page show both.

Verifying a game (`services.verify_deal`) recomputes the commitment from the revealed seed and
salt and compares it with the one shown from the start, then replays the move log through the
engine from the seed (`services.audit_game`): every draw of the game lies in the stored state,
which must equal the replay, and each logged move must be legal in the replayed position.

An imported game, and a game created before commitments, has neither salt nor commitment: its
seed and moves still replay, but no commitment was shown before the game.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from games.models import Game
from infra.links import reverse

SALT_BYTES = 16


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """The commitment to a seed, in the byte format of the module's docstring."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def committed(seed: int) -> dict[str, Any]:
    """A new game's `salt` and `commitment` fields for `seed`."""
    salt = new_salt()
    return {"salt": salt, "commitment": commitment(seed, salt)}


def revealed(game: Game) -> bool:
    """Whether the game's seed and salt may leave the server: only once it is finished."""
    return game.status == Game.Status.FINISHED


def shown(game: Any) -> dict[str, Any]:
    """What a game's pages show of its deal: the commitment always, the seed and the salt
    only once the game is finished (they are not even put in the context before)."""
    deal: dict[str, Any] = {
        "commitment": game.commitment,
        "imported": bool(game.imported),
        "revealed": False,
        "verify_url": reverse("games:verify", args=[game.pk]),
    }
    if revealed(game):
        deal.update(revealed=True, seed=str(game.seed), salt=game.salt)
    return deal
