"""Writers for member data that other apps call (notifications)."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import translation

from accounts import broadcast
from accounts.models import Notification, User


def notify(*, user: User, message: str, link: str = "") -> Notification:
    """Store a notification and push it to the member's open pages after commit.

    ``message`` may be a lazy translation: it is rendered in the member's preferred language.
    """
    with translation.override(user.language or "en"):
        text = str(message)
    note = Notification.objects.create(user=user, message=text[:300], link=link)
    transaction.on_commit(partial(broadcast.notify_user, user.pk, note.pk))
    return note
