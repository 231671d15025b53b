"""Boards with the same garden share what is derived from it, for the bots' turn planner.

A board's `cache` holds what its tiles and pieces alone decide: the engine's placement
options (`placement.options`) and the planner's quick estimates (`estimates.py`); the
engine already shares it between the storage states of one garden
(`Board.with_storage`). But each determinization of a search builds its boards anew from
the view, and playing out turns builds the same garden again in many positions (an
opponent's reply after each of the bot's turns, a second tile after each first one), so a
new board object started with an empty cache: in a profile of one hard game (seed 40001,
60 iterations) 11,920 of 41,932 option listings were computed, for 2,701 different
gardens. `shared(board)` gives a board the cache of the first board met with the same
tiles and pieces. The caches are remembered in a bot cache (bounded, released after each
search: `games/bots/memo.py`).

This module stands below `heuristics.py` and imports nothing of the bots' but `memo`.
"""

from __future__ import annotations

from typing import Any

from games.bots import memo
from games.engines.babylon.state import Board, Piece, Tile

# Marks a cache dict as the shared one of its garden (a board given it needs no look-up).
_SHARED = "shared"

_caches: memo.BoundedCache[dict[str, Any]] = memo.BoundedCache()


def content(board: Board) -> tuple[tuple[Tile, ...], tuple[Piece, ...]]:
    """What a board's derived data depends on: its tiles and pieces, not its storage."""
    return board.tiles, board.pieces


def shared(board: Board) -> Board:
    """The board, its cache now the one shared by every board of the same garden."""
    cache = board.cache
    if _SHARED in cache:
        return board
    key = content(board)
    known = _caches.get(key)
    if known is None:
        cache[_SHARED] = True
        _caches.put(key, cache)
    else:
        object.__setattr__(board, "cache", known)
    return board
