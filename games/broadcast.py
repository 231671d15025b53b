"""Telling open game pages that a game changed (DESIGN.md principle 6: sockets are hints).

The group message carries only the game's move number, never HTML or state: each socket
renders its own seat's view (principle 4).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def notify_game_changed(game_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "game.changed", "version": version}
        )
    except Exception:
        # At most once anyway: a page that misses this fetches the board when it notices.
        logger.exception("Could not announce move %s of game %s", version, game_id)
