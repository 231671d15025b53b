from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts import services, times
from accounts.broadcast import user_group
from accounts.models import Notification
from accounts.sessions import SessionBound


class NotificationConsumer(SessionBound, AsyncWebsocketConsumer):
    """Read-only pipe: pushes a member's new notifications, and the badge with their unread
    count and newest number, to their open pages."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.user = user
        self.language = user.language or "en"
        self.group = user_group(user.pk)
        # The member's group also tells when one of their sessions ends (accounts/sessions).
        self.remember_session(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers have nothing to say here; ignore it."""

    async def notification_created(self, event: dict[str, Any]) -> None:
        html = await self.render(event["id"])
        if html:
            await self.send(text_data=html)

    async def notifications_read(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await self.render(None))

    @database_sync_to_async
    def render(self, notification_id: int | None) -> str:
        note = None
        if notification_id is not None:
            note = Notification.objects.filter(pk=notification_id, user_id=self.user.pk).first()
            if note is None:
                return ""
        zone = times.member_zone(self.user)
        with translation.override(self.language), timezone.override(zone):
            return render_to_string(
                "accounts/_notification_live.html",
                {"note": note, "badge": services.badge(self.user), "live": True},
            )
