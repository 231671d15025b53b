"""Telling a member's open pages about their notifications (hints only: DESIGN.md principle 7).

The messages carry ids, never text: each socket renders what it sends.
"""

from __future__ import annotations

from typing import Any

from channels.layers import get_channel_layer

from infra import announce


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(user_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    # The notification is stored; the page fetches the count when it reconnects.
    what = f"{message['type']} to member {user_id}"
    announce.send(layer, user_group(user_id), message, what)


def notify_user(user_id: int, notification_id: int) -> None:
    """Tell the member's open pages that a notification exists; each socket renders it."""
    _send(user_id, {"type": "notification.created", "id": notification_id})


def notify_read(user_id: int) -> None:
    """The member marked notifications read (on another page): badges show the new count."""
    _send(user_id, {"type": "notifications.read"})
