from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def notify_user(user_id: int, notification_id: int) -> None:
    """Tell the member's open pages that a notification exists; each socket renders it."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        user_group(user_id), {"type": "notification.created", "id": notification_id}
    )
