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

    from infra.views import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"Something went wrong" in response.content


@pytest.mark.django_db
def test_htmx_and_websocket_extension_are_served_locally(client: Client) -> None:
    page = client.get("/")
    assert "/static/vendor/htmx/htmx.min.js" in page.text
    assert "/static/vendor/htmx-ext-ws/dist/ws.js" in page.text
    assert "://" not in page.text.split("<script", 1)[1].split(">", 1)[0]


@pytest.mark.django_db
def test_the_favicon_is_a_real_icon(client: Client) -> None:
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    icon = b"".join(response.streaming_content)
    # An ICO file: reserved 0, type 1 (icon), one image, holding a 32x32 PNG.
    assert icon[:6] == b"\x00\x00\x01\x00\x01\x00"
    assert icon[6:8] == b"\x20\x20" and icon[22:30] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.django_db
def test_get_on_a_form_address_gives_a_page_of_the_site(client: Client, alice) -> None:
    client.force_login(alice)
    response = client.get("/games/new/")
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert "This address is for a form" in response.text
    assert 'class="site-footer"' in response.text


@pytest.mark.django_db
def test_a_member_who_is_not_an_editor_gets_the_sites_403_page(client: Client, alice) -> None:
    from django.core.management import call_command

    call_command("import_rulebooks", verbosity=0)
    client.force_login(alice)
    response = client.get("/rules/akropolis/hu/overview/edit/")
    assert response.status_code == 403
    assert "Only rulebook editors can change the rules." in response.text
    assert 'class="site-footer"' in response.text


@pytest.mark.django_db
def test_a_game_without_an_engine_is_shown_as_rules_only(
    client: Client, alice, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.management import call_command

    from games import engines

    # Whatever games are playable today: take a playable one's engine away, and the pages
    # must say so.
    slug = next(info.slug for info in catalog.games() if info.playable)
    monkeypatch.delitem(engines.ENGINE_MODULES, slug)
    call_command("import_rulebooks", verbosity=0)
    client.force_login(alice)
    home = client.get("/").text
    card = home[home.index(f'id="game-{slug}"') :]
    card = card[: card.index("</li>")]
    assert "Rules only for now" in card
    assert "/games/?game=" not in card and f"/rules/{slug}/" in card
    lobby = client.get("/games/").text
    assert f'<option value="{slug}"' not in lobby
    assert f'href="/rules/{slug}/"' in lobby[lobby.index("Rules only for now") :]
    book = client.get(f"/rules/{slug}/").text
    assert "This game cannot be played on the site yet" in book
    # A playable game says nothing of the kind.
    for other in [info.slug for info in catalog.games() if info.playable]:
        assert "cannot be played on the site yet" not in client.get(f"/rules/{other}/").text


@pytest.mark.django_db
def test_games_are_named_as_their_readers_know_them(client: Client, alice) -> None:
    from rulebooks.titles import game_title

    for language in ("hu", "pl"):
        alice.language = language
        alice.save()
        client.force_login(alice)
        home = client.get("/").text
        for game in catalog.games():
            title = game_title(game.slug, language)
            card = home[home.index(f'id="game-{game.slug}"') :]
            assert f"<h3>{title}</h3>" in card[: card.index("</li>")]
    # The Hungarian and Polish names of Tower of Babel are not the English one.
    assert game_title("tower-of-babel", "hu") == "Bábel tornya"
    assert game_title("tower-of-babel", "pl") == "Wieża Babel"
