"""Every game page passes axe-core with no violation, at desk and at phone width, and the site's
header takes one row on a phone (issue 21, item 7).

axe-core comes from npm (package.json, devDependencies) and is injected into the page; the
context bypasses the Content-Security-Policy only for that injected script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games import engines
from tests.conftest import make_user
from tests.e2e.test_play import logged_in_page
from tests.games.conftest import build_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = [pytest.param(1280, id="1280px"), pytest.param(390, id="390px")]
LANGUAGES = ["en", "hu", "pl"]


def axe_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
    ]


def open_game_page(new_page: Any, server: str, slug: str, width: int, language: str) -> Any:
    alice = make_user("alice", display_name="Alice")
    alice.language = language
    alice.save()
    engine = engines.get(slug)
    game = build_game(alice, *["easy"] * (engine.min_players - 1), engine=slug, seed=3)
    page = logged_in_page(
        new_page,
        server,
        alice,
        viewport={"width": width, "height": 844},
        bypass_csp=True,
        locale={"en": "en-GB", "hu": "hu-HU", "pl": "pl-PL"}[language],
    )
    page.goto(f"http://{server}/games/{game.pk}/")
    page.wait_for_selector("#game-board[data-version]")
    return page


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("slug", sorted(engines.ENGINE_MODULES))
def test_a_game_page_has_no_accessibility_violation(
    asgi_server: str, new_page: Any, slug: str, width: int, language: str
) -> None:
    page = open_game_page(new_page, asgi_server, slug, width, language)
    assert page.evaluate("document.documentElement.lang") == language
    assert axe_violations(page) == []
    assert page.errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_header_takes_one_row_and_its_menu_opens(
    asgi_server: str, new_page: Any, language: str
) -> None:
    page = open_game_page(new_page, asgi_server, "babylon", 390, language)
    header = page.locator(".site-header")
    brand = page.locator(".site-header .brand")
    toggle = page.locator(".site-header .nav-toggle")
    row = brand.bounding_box()
    # One row: the brand and the menu button side by side, the header no taller than a row.
    assert toggle.is_visible()
    assert abs(toggle.bounding_box()["y"] - row["y"]) < row["height"]
    assert header.bounding_box()["height"] <= 64
    links = page.locator("#site-menu a")
    assert not links.first.is_visible()

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert links.first.is_visible()
    assert page.locator("#language-select").is_visible()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not links.first.is_visible()
    assert page.evaluate("document.activeElement.classList.contains('nav-toggle')")
    assert page.errors == []


def test_at_desk_width_the_header_shows_its_links_without_a_menu_button(
    asgi_server: str, new_page: Any
) -> None:
    page = open_game_page(new_page, asgi_server, "babylon", 1280, "en")
    assert not page.locator(".site-header .nav-toggle").is_visible()
    assert page.locator("#site-menu a").first.is_visible()
    assert page.locator(".site-header").bounding_box()["height"] <= 64
