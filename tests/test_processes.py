"""Celery and Channels across real processes, on whichever broker and layer are configured
(Redis in CI's first run, the embedded filesystem broker and SQLite relay in its second)."""

from __future__ import annotations

import asyncio
import subprocess

import pytest
import websockets
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connections

from accounts.models import Notification, User
from accounts.tasks import send_notification
from tests.conftest import make_user

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def session_cookie_for(user: User) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def test_task_runs_in_a_real_worker_process(celery_worker_process: subprocess.Popen[bytes]) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    user = make_user("worker-test")
    result = send_notification.delay(user.pk, "Hello from the worker")
    note_id = result.get(timeout=60)
    note = Notification.objects.get(pk=note_id)
    assert note.user == user
    assert note.message == "Hello from the worker"
    assert celery_worker_process.poll() is None


async def receive_one(url: str, cookie: str, trigger: object) -> str:
    headers = {"Cookie": cookie, "Origin": f"http://{url.split('/')[2]}"}
    async with websockets.connect(url, additional_headers=headers) as ws:
        await asyncio.sleep(0.5)  # let the consumer join its group
        await asyncio.to_thread(trigger)  # type: ignore[arg-type]
        return str(await asyncio.wait_for(ws.recv(), timeout=30))


def test_websocket_client_receives_a_message_sent_from_the_worker(
    asgi_server: str, celery_worker_process: subprocess.Popen[bytes]
) -> None:
    """The bot-move path: a worker process sends through the channel layer, and a browser
    connected to the server process receives it (embedded mode included)."""
    user = make_user("socket-test")
    cookie = session_cookie_for(user)

    def trigger() -> None:
        send_notification.delay(user.pk, "Your seat was taken over by a bot").get(timeout=60)

    message = asyncio.run(receive_one(f"ws://{asgi_server}/ws/notifications/", cookie, trigger))
    assert "Your seat was taken over by a bot" in message
    assert 'hx-swap-oob="beforeend"' in message


def test_websocket_refuses_anonymous_visitors(asgi_server: str) -> None:
    async def connect() -> None:
        async with websockets.connect(
            f"ws://{asgi_server}/ws/notifications/",
            additional_headers={"Origin": f"http://{asgi_server}"},
        ) as ws:
            await asyncio.wait_for(ws.recv(), timeout=10)

    with pytest.raises(websockets.exceptions.WebSocketException):
        asyncio.run(connect())


def test_users_only_receive_their_own_notifications(asgi_server: str) -> None:
    """A message for bob goes through the layer from this (test) process; alice's socket gets
    nothing."""
    alice = make_user("alice-live")
    bob = make_user("bob-live")
    from accounts import broadcast

    cookie_alice, cookie_bob = session_cookie_for(alice), session_cookie_for(bob)

    def write_and_announce() -> None:
        try:
            note = Notification.objects.create(user=bob, message="For Bob only")
            broadcast.notify_user(bob.pk, note.pk)
        finally:
            connections.close_all()  # this thread's connection would outlive the test database

    async def run() -> tuple[str, str | None]:
        base = f"ws://{asgi_server}/ws/notifications/"
        origin = {"Origin": f"http://{asgi_server}"}
        async with (
            websockets.connect(base, additional_headers={**origin, "Cookie": cookie_alice}) as wa,
            websockets.connect(base, additional_headers={**origin, "Cookie": cookie_bob}) as wb,
        ):
            await asyncio.sleep(0.5)
            await asyncio.to_thread(write_and_announce)
            got_bob = str(await asyncio.wait_for(wb.recv(), timeout=30))
            try:
                got_alice: str | None = str(await asyncio.wait_for(wa.recv(), timeout=1.5))
            except TimeoutError:
                got_alice = None
            return got_bob, got_alice

    got_bob, got_alice = asyncio.run(run())
    assert "For Bob only" in got_bob
    assert got_alice is None
    assert get_user_model().objects.count() == 2
