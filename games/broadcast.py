"""Telling open game pages that a game changed (DESIGN.md principle 7: sockets are hints).

The group message carries only the game's id and move number (and, traced, the times of its
hops: infra/timing.py), never HTML or state: the boards are rendered in the server processes,
each from one seat's view (principle 4).
"""

from __future__ import annotations

import secrets

from channels.layers import get_channel_layer

from infra import announce, timing

LOBBY_GROUP = "lobby"


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def notify_lobby_changed() -> None:
    """A game was opened, a seat taken or given back, a game started or abandoned: open lobby
    pages fetch their lists again (each its own: which games a member sees depends on them)."""
    layer = get_channel_layer()
    if layer is None:
        return
    # Sent after the response in a server process (infra/announce.py).
    announce.send(
        layer, LOBBY_GROUP, {"type": "lobby.changed"}, "a change of the lobby", supersedes=True
    )


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def night_group(night_id: int) -> str:
    return f"night-{night_id}"


def notify_page_changed(group: str) -> None:
    """A tournament or a game night changed (`tournament_group`, `night_group`): its open pages,
    and theirs alone, fetch their live part again. A change elsewhere in the club makes no
    tournament or night page fetch."""
    layer = get_channel_layer()
    if layer is None:
        return
    announce.send(layer, group, {"type": "page.changed"}, f"a change of {group}", supersedes=True)


def notify_game_changed(game_id: int, revision: int) -> None:
    """Once per change, whatever the number of sockets: each server process's hub hears it
    and renders each viewpoint once (games/live). `revision` is `Game.revision` (moves
    and steps taken back, `Game.revision`). `event` tells two announcements of the same
    revision apart (results stored, a seat handed to a bot: the board changes, not the
    revision)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "game.changed",
        "game": game_id,
        "version": revision,
        "event": secrets.token_hex(6),
    }
    # Only when tracing (settings.LIVE_TRACE): the time each hop begins, from the commit.
    timing.traced(message, "commit")
    # At most once anyway: a page that misses this fetches the board when it notices. Each hub
    # reads the game as it is when the hint arrives, so a later hint makes a kept one needless.
    what = f"revision {revision} of game {game_id}"
    announce.send(layer, group_name(game_id), message, what, supersedes=True)
