from __future__ import annotations

import pytest
from django.test import Client

from games import catalog


@pytest.mark.django_db
def test_home_lists_the_four_games_with_players(client: Client) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for game in catalog.games():
        assert game.name in page.text
        assert f'id="game-{game.slug}"' in page.text
    assert "2–4" in page.text and "3–5" in page.text


@pytest.mark.django_db
def test_unknown_page_gives_the_friendly_404(client: Client) -> None:
    page = client.get("/no/such/page/")
    assert page.status_code == 404
    assert "Page not found" in page.text
    assert "Traceback" not in page.text


def test_server_error_page_renders_without_database() -> None:
    from django.test import RequestFactory

    from config.views import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"Something went wrong" in response.content


@pytest.mark.django_db
def test_htmx_and_websocket_extension_are_served_locally(client: Client) -> None:
    page = client.get("/")
    assert "/static/vendor/htmx/htmx.min.js" in page.text
    assert "/static/vendor/htmx-ext-ws/dist/ws.js" in page.text
    assert "://" not in page.text.split("<script", 1)[1].split(">", 1)[0]
