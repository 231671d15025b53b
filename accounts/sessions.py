"""A member's open sockets end with the session they were opened in, as the pages do.

A socket is authenticated once, when it opens. When its session ends (the member logs out, or
the password changes, which ends every other session: Django checks a hash of the password on
each request), the member's sockets are told (`session.ended`, in the member's group for their
own sockets and in `SESSIONS_GROUP` for each server's hub of game sockets). The socket of the
session that logged out closes at once; every other socket of the member looks its session up
again the way a page's request does (`django.contrib.auth.get_user`) and closes if it no longer
signs the member in. Game sockets also look every minute, for a message that was lost.
"""

from __future__ import annotations

import hashlib
from functools import partial
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts.broadcast import user_group
from infra import announce

SESSIONS_GROUP = "sessions"


def session_digest(session_key: str | None) -> str:
    """Names a session in messages without giving its key (which signs in) to the layer."""
    if not session_key:
        return ""
    return hashlib.sha256(f"ended-session:{session_key}".encode()).hexdigest()


def signs_in(session_key: str | None, user_id: int) -> bool:
    """Whether a page's request with this session would still be this member's."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated and user.pk == user_id)


def announce_session_ended(user_id: int, session_key: str | None = None) -> None:
    """Tell the member's sockets that a session ended (`session_key`: the one that logged out;
    none: the password changed, and each socket checks its own)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "session.ended", "user": user_id, "session": session_digest(session_key)}
    what = f"the end of a session of member {user_id}"
    announce.send(layer, user_group(user_id), message, what)
    announce.send(layer, SESSIONS_GROUP, message, what)


@receiver(user_logged_out)
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is None or user.pk is None:
        return
    session = getattr(request, "session", None)
    announce_session_ended(int(user.pk), getattr(session, "session_key", None))


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _password_changing(sender: Any, instance: Any, **kwargs: Any) -> None:
    # set_password() keeps the new raw password until the save (AbstractBaseUser._password).
    instance._ends_sessions = (
        instance.pk is not None and getattr(instance, "_password", None) is not None
    )


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _password_changed(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created and instance.__dict__.pop("_ends_sessions", False):
        transaction.on_commit(partial(announce_session_ended, int(instance.pk)), robust=True)


class SessionBound:
    """For a consumer: closes the socket when the session it was opened in ends.

    The close is a normal one (code 1000), after which the browser does not open the socket
    again: the page stays as it is, and the next thing the member does there goes over HTTP,
    which signs them out. A member who changed their password has live pages again in their
    other tabs once they reload them (the change moved their own session to a new key too)."""

    session_user_id: int | None = None
    session_key: str | None = None

    scope: dict[str, Any]

    def remember_session(self, user_id: int) -> None:
        self.session_user_id = user_id
        self.session_key = getattr(self.scope.get("session"), "session_key", None)

    async def session_ended(self, event: dict[str, Any]) -> None:
        if self.session_user_id is None or event.get("user") != self.session_user_id:
            return
        # The session that logged out, or (any other, or a password change) one that no
        # longer signs the member in.
        ended = event.get("session") or ""
        if (ended and ended == session_digest(self.session_key)) or not (
            await self.session_signs_in()
        ):
            await self.close()  # type: ignore[attr-defined]

    async def session_signs_in(self) -> bool:
        if self.session_user_id is None:
            return False
        return await database_sync_to_async(signs_in)(self.session_key, self.session_user_id)
