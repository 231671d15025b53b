"""Which sockets of the hub (games/live.py) are sent a move's changes rather than its whole
board, and the making of those changes (games/board_patches.py holds the message format).

A change is made from the board a socket sent last to the new board of the same game,
viewpoint and language, never another seat's (principle 4), and only where the hub still keeps
that board; a socket that has sent none (just joined) gets the whole board. The hub keeps
those boards in `KeptBoards`: the newest of each view, within a count and a size.
"""

from __future__ import annotations

import logging
import sys
from collections import OrderedDict
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


def held_bytes(html: str) -> int:
    """The memory a board's text takes: Python keeps a string at one, two or four bytes a
    character, by its widest character."""
    return sys.getsizeof(html)


class KeptBoards:
    """The boards a hub keeps drawn: the newest of each view (game, viewpoint, language), for
    only that one is the base of a move's changes (games/live_patches.py), and of those the
    oldest are forgotten first, once there are more than `count` or they hold more than `size`
    bytes of memory in all (`held_bytes`: a board with a Hungarian ő or a dash in it is held at
    two bytes a character, a board of ASCII at one). The size is counted as boards come and go
    rather than summed again over the hundreds kept for every announcement."""

    def __init__(self, count: int, size: int) -> None:
        self.count, self.size = count, size
        self.boards: OrderedDict[BoardKey, str] = OrderedDict()
        self.newest: dict[tuple[int, int | None, str], BoardKey] = {}
        self.held = 0

    def __contains__(self, key: object) -> bool:
        return key in self.boards

    def get(self, key: BoardKey) -> str | None:
        return self.boards.get(key)

    def add(self, drawn: Mapping[BoardKey, str]) -> None:
        for key, html in drawn.items():
            view = (key[0], key[3], key[4])
            kept = self.newest.get(view)
            if kept is not None and kept[1] > key[1]:
                continue  # a later revision of the view is kept already
            if kept is not None:
                self._forget(kept)
            self.boards[key] = html
            self.newest[view] = key
            self.held += held_bytes(html)
        while self.boards and (len(self.boards) > self.count or self.held > self.size):
            self._forget(next(iter(self.boards)))

    def _forget(self, key: BoardKey) -> None:
        self.held -= held_bytes(self.boards.pop(key))
        del self.newest[(key[0], key[3], key[4])]

    def clear(self) -> None:
        self.boards.clear()
        self.newest.clear()
        self.held = 0
