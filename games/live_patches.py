"""Which sockets of the hub (games/live.py) are sent a move's changes rather than its whole
board, and the making of those changes (games/board_patches.py holds the message format).

A change is made from the board a socket sent last to the new board of the same game,
viewpoint and language, never another seat's (principle 4), and only where the hub still keeps
that board; a socket that has sent none (just joined) gets the whole board.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from games import board_patches

logger = logging.getLogger(__name__)

# A drawn board (games/live.py): game, revision, stamp, viewpoint (a seat, or None for
# spectators), language.
BoardKey = tuple[int, int, str, int | None, str]


@dataclass(frozen=True)
class Patch:
    """An incremental update (games/board_patches): it turns the board of key `base` into the
    board the socket is sent, and is sent only to a socket whose last board was `base`."""

    base: BoardKey
    message: str


def patch_base(sent: BoardKey | None, key: BoardKey) -> BoardKey | None:
    """The board a socket that last sent `sent` may be updated from to reach `key`: the same
    game, viewpoint and language (never another seat's view), an older revision or another
    stamp."""
    if sent is None or sent[0] != key[0] or sent[3:] != key[3:] or sent[1:3] == key[1:3]:
        return None
    return sent if sent[1] <= key[1] else None


def changes_from(
    bases: Mapping[BoardKey, str], keys: set[BoardKey], drawn: Mapping[BoardKey, str]
) -> dict[tuple[BoardKey, BoardKey], str]:
    """The incremental update from each board of `bases` to the new board of each of `keys`
    (the views the sockets want) of the same viewpoint and language (`patch_base`), where
    `board_patches` finds one worth sending."""
    patches: dict[tuple[BoardKey, BoardKey], str | None] = {}
    if not bases:
        return {}
    for key in keys:
        new = drawn.get(key)
        if new is None:
            continue
        for base, old in bases.items():
            if patch_base(base, key) != base:
                continue
            try:
                patches[(base, key)] = board_patches.board_patch(old, new, base=(base[1], base[2]))
            except Exception:
                logger.exception("Game %s: no incremental update was made", key[0])
                patches[(base, key)] = None
    return {pair: message for pair, message in patches.items() if message is not None}
