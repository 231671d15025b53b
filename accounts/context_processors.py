from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def notifications(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: the query runs only when a template shows the count.
    return {"unread_notifications": user.notifications.filter(read_at__isnull=True)}
