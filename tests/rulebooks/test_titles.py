"""A game is shown under the name its readers know, from one source: titles in book.json."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rulebooks.titles import game_title, game_titles


def test_tower_of_babel_has_its_published_local_titles() -> None:
    assert game_title("tower-of-babel", "en") == "Tower of Babel"
    assert game_title("tower-of-babel", "hu") == "Bábel tornya"
    assert game_title("tower-of-babel", "pl") == "Wieża Babel"


def test_games_without_a_local_edition_keep_their_name() -> None:
    for language in ("en", "hu", "pl"):
        assert game_title("akropolis", language) == "Akropolis"
        assert game_title("hanging-gardens", language) == "The Hanging Gardens"


def test_the_title_follows_the_active_language_and_falls_back_to_english() -> None:
    with translation.override("hu"):
        assert game_title("tower-of-babel") == "Bábel tornya"
    assert game_title("tower-of-babel", "de") == "Tower of Babel"
    assert game_title("no-such-game", "hu") == "no-such-game"


def test_every_game_is_listed_once() -> None:
    assert len(game_titles("pl")) == 4
    assert "Wieża Babel" in game_titles("pl")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"), [("en", "Tower of Babel"), ("hu", "Bábel tornya"), ("pl", "Wieża Babel")]
)
def test_footer_and_rules_index_use_the_same_title(
    client: Client, rulebooks: None, language: str, title: str
) -> None:
    client.cookies["django_language"] = language
    html = client.get(reverse("rulebooks:index")).content.decode()
    card = html[html.index('id="tower-of-babel"') :]
    assert f">{title}</a></h2>" in card[: card.index("</li>")]
    footer = html[html.index('<footer class="site-footer">') :]
    assert title in footer


@pytest.mark.django_db
def test_the_rulebook_page_is_titled_in_the_language_of_its_text(
    client: Client, rulebooks: None
) -> None:
    html = client.get(reverse("rulebooks:book", args=["tower-of-babel"]) + "?lang=hu").content
    assert '<h1 lang="hu">Bábel tornya</h1>' in html.decode()
