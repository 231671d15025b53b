"""Writers for member data that other apps call (notifications)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation

from accounts import broadcast
from accounts.models import Notification, User


def notify(
    *,
    user: User,
    message: Any = "",
    link: str = "",
    kind: str = "",
    params: dict[str, Any] | None = None,
) -> Notification:
    """Store a notification, push it to the member's open pages after commit, and hand it to
    the e-mail task if the member asked for e-mail of this kind (accounts/mail.py).

    A notification of a known `kind` with `params` is written when it is read, in the
    reader's language then (accounts/texts.py); `message` (which may be a lazy translation,
    rendered in the member's language) is for notices without parameters.
    Each member's notifications are numbered 1, 2, 3...; the member's row is locked while the
    next number is taken, so call this in a transaction of its own (games do, after their
    own commit) rather than inside one that holds other members' rows.
    """
    from accounts import mail, texts

    params = dict(params or {})
    with translation.override("en" if params else (user.language or "en")):
        text = (texts.render_kind(kind, params) if params else None) or str(message)
    with transaction.atomic():
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
        last = Notification.objects.filter(user=user).aggregate(n=Max("number"))["n"] or 0
        note = Notification.objects.create(
            user=user, number=last + 1, kind=kind, params=params, message=text[:300], link=link
        )
    transaction.on_commit(partial(broadcast.notify_user, user.pk, note.pk), robust=True)
    if mail.wants_email(user, kind):
        mail.send_on_commit(note.pk)
    return note


def mark_read(*, user: User, upto: int) -> int:
    """Mark the member's notifications up to number `upto` read (the ones their page showed;
    one that arrived since stays unread). Returns how many were unread."""
    count = Notification.objects.filter(user=user, number__lte=upto, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    if count:
        transaction.on_commit(partial(broadcast.notify_read, user.pk), robust=True)
    return count


def withdraw(*, user: User, kind: str, game_id: int) -> int:
    """Mark read the member's unread notices of `kind` about game `game_id`, which no longer
    hold (a "your turn" after the member resigned): the badge stops counting them. Returns
    how many there were."""
    count = Notification.objects.filter(
        user=user, kind=kind, params__game=game_id, read_at__isnull=True
    ).update(read_at=timezone.now())
    if count:
        transaction.on_commit(partial(broadcast.notify_read, user.pk), robust=True)
    return count


def badge(user: User) -> dict[str, int]:
    """What the badge on every page shows: the unread count, and the newest number the
    member has (a live page compares it with the numbers of the messages it receives)."""
    notes = Notification.objects.filter(user=user)
    return {
        "unread": notes.filter(read_at__isnull=True).count(),
        "number": notes.aggregate(n=Max("number"))["n"] or 0,
    }
