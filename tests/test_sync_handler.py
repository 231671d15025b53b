"""A request's middleware and view run in one hop to its thread (infra/sync_handler.py): the
site answers through its ASGI app as it did, and the request's code never hands work back to
the event loop on its way to the view."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator
from django.urls import reverse

from infra.sync_handler import OneHopASGIHandler


@pytest.fixture
def returns_to_the_loop(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every call from synchronous code back to the event loop, while the test runs."""
    calls: list[Any] = []
    original = sync.AsyncToSync.__call__

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(self.awaitable)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted)
    return calls


async def ask(method: str, path: str, body: bytes = b"") -> dict[str, Any]:
    from config.asgi import router

    headers = [(b"host", b"testserver")]
    if body:
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    request = HttpCommunicator(router, method, path, body=body, headers=headers)
    return await request.get_response(timeout=10)


def test_the_site_is_served_by_the_one_hop_handler() -> None:
    from config import asgi

    assert isinstance(asgi.django_asgi_app, OneHopASGIHandler)


@pytest.mark.django_db(transaction=True)
async def test_pages_are_answered_without_going_back_to_the_loop(returns_to_the_loop) -> None:
    for path in ("/", "/rules/", "/no-such-page/"):
        response = await ask("GET", path)
        assert response["status"] == (404 if path == "/no-such-page/" else 200), path
        assert b"<html" in response["body"]
    assert returns_to_the_loop == []


@pytest.mark.django_db(transaction=True)
async def test_a_post_without_its_csrf_token_gets_the_sites_refusal(returns_to_the_loop) -> None:
    response = await ask("POST", reverse("account_login"), b"login=ann&password=x")
    assert response["status"] == 403
    assert b"<html" in response["body"]
    assert returns_to_the_loop == []
