from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from accounts.broadcast import user_group
from accounts.models import Notification


class NotificationConsumer(AsyncWebsocketConsumer):
    """Read-only pipe: pushes a member's new notifications to their open pages."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.user_id = user.pk
        self.language = user.language or "en"
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def notification_created(self, event: dict) -> None:
        html = await self.render(event["id"])
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def render(self, notification_id: int) -> str:
        note = Notification.objects.filter(pk=notification_id, user_id=self.user_id).first()
        if note is None:
            return ""
        with translation.override(self.language):
            return render_to_string("accounts/_notification_live.html", {"note": note})
