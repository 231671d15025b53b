"""Every game page passes axe-core with no violation, at desk and at phone width, and the site's
header takes one row on a phone (issue 21, item 7). Issue 34, item 4: not only a game's first
page, but every page of a game as it is played (a bot's last move marked, the member's turn
and its next step), its replay and the finished game, for the four games, in the three
languages, at both widths.

axe-core comes from npm (package.json, devDependencies) and is injected into the page; the
context bypasses the Content-Security-Policy only for that injected script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games import engines, services
from games.engines.base import Engine
from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_final_table import finished_games
from tests.e2e.test_play import in_another_thread, logged_in_page
from tests.games.conftest import build_game
from tests.games.test_pages_conformance import random_moves

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


SEED = 19


def game_in_play(engine: Engine, member: User, *, own_steps: int) -> tuple[Game, int]:
    """A seeded random game of `member` (seat 0) against bots, played through the one move
    path until, some moves in, the member is to move just after another seat moved; then
    up to `own_steps` of the member's own steps more, while the turn stays theirs. Returns the game
    and the number of moves played."""
    players = engine.min_players
    levels = ["easy", "normal", "hard", "easy"][: players - 1]
    game = services.create_game(
        engine_slug=engine.slug,
        players=players,
        options={},
        seats=[{"kind": "me"}] + [{"kind": "bot", "bot_level": level} for level in levels],
        created_by=member,
        seed=SEED,
    )
    state = engine.new_game(players, SEED)
    played, last_seat, steps = 0, None, None
    for seat, move in random_moves(engine, players, SEED):
        if steps is None and played >= 12 and 0 in engine.to_move(state) and last_seat != 0:
            steps = 0
        after = engine.apply_move(state, seat, move)
        if steps is not None and (
            steps == own_steps or seat != 0 or 0 not in engine.to_move(after)
        ):
            break
        services.play_move(
            game_id=game.pk, seat=seat, move=move, expected_version=played, by_bot=seat > 0
        )
        state = after
        played, last_seat = played + 1, seat
        if steps is not None:
            steps += 1
    assert 0 in engine.to_move(state)
    return Game.objects.get(pk=game.pk), played


def test_every_page_of_every_game_has_no_accessibility_violation(
    asgi_server: str, new_page: Any
) -> None:
    member = make_user("alice", display_name="Alice")
    pages: list[tuple[str, str]] = []

    def play_them() -> None:
        for engine in engines.all():
            for own_steps in (0, 1):
                game, played = game_in_play(engine, member, own_steps=own_steps)
                which = "its turn" if own_steps == 0 else "its next step"
                pages.append((f"{engine.slug}, {which}", f"/games/{game.pk}/"))
                if own_steps == 0:
                    url = f"/games/{game.pk}/replay/?move={played // 2}"
                    pages.append((f"{engine.slug}, replay", url))

    # Moves announce themselves on the channel layer, which the test thread's Playwright
    # event loop forbids: play them from another thread.
    in_another_thread(play_them)
    for game in finished_games(member):
        pages.append((f"{game.engine_slug}, finished", f"/games/{game.pk}/"))
        pages.append((f"{game.engine_slug}, finished replay", f"/games/{game.pk}/replay/?move=1"))
    found = {}
    for width in (1280, 390):
        page = logged_in_page(
            new_page, asgi_server, member, viewport={"width": width, "height": 844}, bypass_csp=True
        )
        for language in LANGUAGES:
            User.objects.filter(pk=member.pk).update(language=language)
            for where, url in pages:
                page.goto(f"http://{asgi_server}{url}")
                page.wait_for_selector("#game-board[data-version], #replay")
                assert page.evaluate("document.documentElement.lang") == language
                violations = axe_violations(page)
                if violations:
                    found[f"{where}, {width} px, {language}"] = violations
        assert page.errors == []
    assert found == {}, json.dumps(found, indent=1)


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
