"""E-mail for games played over days: opt-in per kind of notice, sent by a Celery task.

A notification of a kind the member asked e-mail for (their profile's switches) is handed to
`accounts.tasks.send_notification_email` once it is committed; the worker writes the e-mail
in the member's language and time zone and sends it through Django's mail backend. A request
never sends mail (it only hands the task to the outbox thread, which also keeps a broker that
is down from holding the request up).

At most one e-mail per notification: the task marks the notification e-mailed under its row
lock before sending, so a task delivered twice sends once. "Your turn" is notified once per
wait (games' `Seat.told_turn`, cleared when the member moves), so it is e-mailed once per
game until the member has moved.

Every e-mail carries a one-click unsubscribe link (a signed token naming the member and the
switch), in the body and in the List-Unsubscribe headers of RFC 8058.
"""

from __future__ import annotations

import email.policy
import logging
from email.policy import Policy
from typing import Any, cast
from urllib.parse import urljoin

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import models, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy
from kombu.exceptions import OperationalError

from accounts import times
from accounts.models import Notification, User

logger = logging.getLogger(__name__)

Kind = Notification.Kind

# Which switch of the profile asks for e-mail of which kind of notification.
SWITCHES: dict[str, str] = {
    Kind.YOUR_TURN: "email_your_turn",
    # The warning that a clock runs out is about one's turn (games/services/clocks.py).
    Kind.CLOCK_WARNING: "email_your_turn",
    Kind.FINISHED: "email_finished",
    Kind.NIGHT_INVITED: "email_game_nights",
    Kind.NIGHT_REMINDER: "email_game_nights",
    Kind.NIGHT_STARTED: "email_game_nights",
    Kind.NIGHT_CANCELLED: "email_game_nights",
    # A tournament's rounds are scheduled games, like game nights.
    Kind.TOURNAMENT_ROUND: "email_game_nights",
    Kind.TOURNAMENT_REMINDER: "email_game_nights",
    Kind.TOURNAMENT_CANCELLED: "email_game_nights",
    # A seat handed to a bot at a round's deadline is about one's turn, as a timeout is.
    Kind.TOURNAMENT_DEADLINE: "email_your_turn",
}
UNSUBSCRIBE_SALT = "accounts.mail.unsubscribe"
# The unsubscribe page's question and its answer once done, per switch.
UNSUBSCRIBE_WORDS: dict[str, tuple[Any, Any]] = {
    "email_your_turn": (
        gettext_lazy("Stop the e-mails that tell you it is your turn?"),
        gettext_lazy("Done: you will no longer get an e-mail when it is your turn."),
    ),
    "email_finished": (
        gettext_lazy("Stop the e-mails that tell you a game has finished?"),
        gettext_lazy("Done: you will no longer get an e-mail when a game has finished."),
    ),
    "email_game_nights": (
        gettext_lazy("Stop the e-mails about the game nights you are invited to?"),
        gettext_lazy("Done: you will no longer get e-mails about game nights."),
    ),
}
# RFC 5322 allows header lines of up to 998 characters (78 is a recommendation). Python's
# email package folds a longer header that has no space in it into RFC 2047 encoded-words,
# and mail clients do not read `=?utf-8?q?=3Chttps…` as RFC 8058's List-Unsubscribe link.
HEADER_LINE = 998


class ClubEmail(EmailMessage):
    """An e-mail whose headers are folded at RFC 5322's limit, not at 78 characters, so that
    List-Unsubscribe stays one plain `<https://…>` (the token keeps it far below 998)."""

    def message(self, *, policy: Policy | None = email.policy.default) -> Any:
        # None is the standard library's default policy, as for Django's own message().
        folded = (policy or email.policy.default).clone(max_line_length=HEADER_LINE)
        return super().message(policy=folded)


def wants_email(user: User, kind: str) -> bool:
    switch = SWITCHES.get(kind)
    return bool(switch and user.email and getattr(user, switch, False))


def send_on_commit(notification_id: int) -> None:
    """After commit, hand the e-mail to a worker (a request never sends mail)."""
    transaction.on_commit(lambda: hand_to_worker(notification_id), robust=True)


def hand_to_worker(notification_id: int) -> None:
    """Send the task from the outbox thread: a broker that is down must not hold up the
    request whose notice is already stored (games/outbox.py)."""
    from games.outbox import outbox

    outbox.submit(publish, notification_id)


def publish(notification_id: int) -> None:
    # By its registered name: the task calls this module, so this module does not import it.
    task = current_app.signature("accounts.tasks.send_notification_email")
    try:
        task.apply_async(args=(notification_id,), ignore_result=True)  # as in games/services
    except OperationalError:
        raise  # the broker is unreachable: the outbox tries again until it answers
    except Exception:
        logger.exception("Could not send the e-mail task of notification %s", notification_id)


def unsubscribe_token(user: User, switch: str) -> str:
    return signing.dumps({"u": user.pk, "s": switch}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """(member id, switch) from a token this site signed, or None for anything else."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, switch = data.get("u"), data.get("s")
    if type(user_id) is not int or switch not in set(SWITCHES.values()):
        return None
    return user_id, switch


def absolute(path: str) -> str:
    return urljoin(settings.SITE_URL, path)


def switch_label(switch: str) -> str:
    return str(cast(models.Field, User._meta.get_field(switch)).verbose_name)


def build_email(note: Notification) -> EmailMessage:
    """The e-mail for `note`, in its member's language and time zone."""
    from accounts.adapter import club_name

    user = note.user
    switch = SWITCHES[note.kind]
    language = user.language or settings.LANGUAGE_CODE
    unsubscribe = absolute(reverse("accounts:unsubscribe", args=[unsubscribe_token(user, switch)]))
    with translation.override(language), timezone.override(times.member_zone(user)):
        text = note.text
        context: dict[str, Any] = {
            "member": user,
            "text": text,
            "link": absolute(note.link) if note.link else "",
            "unsubscribe": unsubscribe,
            "switch": switch_label(switch),
            "club": club_name(),
        }
        subject = f"[{club_name()}] {text}"
        body = render_to_string("accounts/email/notification.txt", context)
    return ClubEmail(
        subject=" ".join(subject.split())[:200],
        body=body,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def send_notification_email(notification_id: int) -> bool:
    """Send the notification's e-mail if its member still wants it; True when sent."""
    with transaction.atomic():
        note = (
            Notification.objects.select_for_update()
            .select_related("user")
            .filter(pk=notification_id)
            .first()
        )
        if note is None or note.emailed_at is not None or not wants_email(note.user, note.kind):
            return False
        note.emailed_at = timezone.now()
        note.save(update_fields=["emailed_at"])
    message = build_email(note)
    try:
        message.send()
    except Exception:
        # Marked already: a member is sent at most one e-mail per notice, never two.
        logger.exception("Could not e-mail notification %s", notification_id)
        return False
    return True


def unsubscribe(token: str) -> User | None:
    """Turn the token's switch off; returns the member, or None for a bad token."""
    found = read_unsubscribe_token(token)
    if found is None:
        return None
    user_id, switch = found
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return None
    if getattr(user, switch):
        setattr(user, switch, False)
        user.save(update_fields=[switch])
    return user
