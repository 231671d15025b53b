"""The history and a profile's head-to-head on a phone (issue 33, item 6): at 1280 px and at
390 px, in English, Hungarian and Polish, each game's place, score, winner and rating change,
and every figure of the head-to-head, are seen without scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from tests.conftest import make_user
from tests.e2e.test_final_table import SEEN_WITHOUT_SIDEWAYS_SCROLLING
from tests.e2e.test_play import logged_in_page
from tests.games.test_stats import finished

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {1280: 800, 390: 844}
LANGUAGES = ("en", "hu", "pl")


def assert_seen(page: Any, selector: str, count: int, where: str) -> None:
    cells = page.locator(selector)
    assert cells.count() == count, (where, selector)
    for i in range(count):
        cell = cells.nth(i)
        assert cell.inner_text().strip(), f"{where}: {selector} {i} is empty"
        found = cell.evaluate(SEEN_WITHOUT_SIDEWAYS_SCROLLING)
        assert found["pageWidth"] <= found["viewport"], f"{where}: the page scrolls sideways"
        assert found["scrollX"] == 0 and found["scrolledBoxes"] == [], (where, found)
        assert found["left"] >= 0 and found["right"] <= found["viewport"], (where, selector, found)
        assert found["seen"], f"{where}: {selector} {i} is hidden"


def test_history_and_head_to_head_keep_their_key_columns_on_a_phone(
    asgi_server: str, new_page: Any
) -> None:
    # Long names, as members choose them.
    alice = make_user("alice", display_name="Alexandra Wiśniewska-Kovács")
    bob = make_user("bob", display_name="Bartholomew Szczepański-Nagy")
    carol = make_user("carol", display_name="Karolina Brzęczyszczykiewicz")
    finished("tower-of-babel", 1, [(alice, 50, 1, {}, 0.0, 1.0), (bob, 40, 2), (carol, 3, 3)])
    finished("hanging-gardens", 2, [(alice, 30, 2, {}, 1.0, 0.5), (bob, 45, 1), ("normal", 9, 3)])
    finished("akropolis", 3, [(alice, 60, 1), (carol, 60, 1)], rated=False)
    for width, height in WIDTHS.items():
        page = logged_in_page(
            new_page, asgi_server, alice, viewport={"width": width, "height": height}
        )
        for language in LANGUAGES:
            User.objects.filter(pk=alice.pk).update(language=language)
            where = f"{width} px, {language}"
            page.goto(f"http://{asgi_server}/games/history/")
            assert page.locator("html").get_attribute("lang") == language, where
            for column in ("place", "score", "winners", "rated"):
                assert_seen(page, f".history-table td.{column}", 3, f"history, {where}")
            page.goto(f"http://{asgi_server}/members/profile/alice/")
            for column in ("th", "td"):
                count = 3 if column == "th" else 12  # bob, carol, the normal bot; 4 figures
                assert_seen(page, f".head-to-head tbody {column}", count, f"profile, {where}")
        assert page.errors == []


def test_each_point_of_the_rating_chart_says_its_game_on_focus_and_on_tap(
    asgi_server: str, new_page: Any
) -> None:
    """Issue 33, item 2: details were shown on hover only. A point focused from the keyboard
    or tapped on a phone shows its game's words above the plot, inside the picture."""
    alice = make_user("alice", display_name="Alice")
    bob = make_user("bob", display_name="Bob")
    for day, (before, after, rank) in enumerate([(0.0, 1.0, 1), (1.0, 0.5, 2), (0.5, 2.0, 1)]):
        finished("akropolis", day + 1, [(alice, 40, rank, {}, before, after), (bob, 30, 3 - rank)])
    for width, height in WIDTHS.items():
        phone = width < 800
        page = logged_in_page(
            new_page,
            asgi_server,
            alice,
            viewport={"width": width, "height": height},
            has_touch=phone,
        )
        for language in LANGUAGES:
            User.objects.filter(pk=alice.pk).update(language=language)
            where = f"{width} px, {language}"
            page.goto(f"http://{asgi_server}/members/profile/alice/")
            points = page.locator(".rating-chart-svg .point")
            assert points.count() == 3, where
            readouts = page.locator(".rating-chart-svg .readout")
            assert not readouts.nth(1).is_visible(), where
            if phone:
                points.nth(1).locator(".target").tap()
            else:
                points.nth(0).focus()
                page.keyboard.press("Tab")  # the next point
            assert page.evaluate("document.activeElement.getAttribute('class')") == "point", where
            shown = readouts.nth(1)
            assert shown.is_visible(), where
            assert not readouts.nth(0).is_visible() and not readouts.nth(2).is_visible(), where
            assert "1020" in shown.text_content(), where
            box, svg = shown.bounding_box(), page.locator(".rating-chart-svg").bounding_box()
            assert box["x"] >= svg["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"], (
                where,
                box,
                svg,
            )
        assert page.errors == []


def click_in_the_running_list(page: Any, link: str, url: str) -> None:
    """Follow `link` of the club page's running games to `url`. The list is drawn again
    whenever a bot moves: a click that met the list being swapped is made again, as a member
    would."""
    for _attempt in range(3):
        page.locator(link).first.click()
        try:
            page.wait_for_url(url, timeout=6000)
            return
        except PlaywrightTimeoutError:
            continue
    page.wait_for_url(url)


def test_from_the_club_page_to_a_profile_to_the_standings_and_back_to_a_game(
    asgi_server: str, new_page: Any
) -> None:
    """Issue 33, item 1: names lead to people and standings are at hand, at 1280 and 390 px,
    in English, Hungarian and Polish."""
    from django.urls import reverse

    from games.models import Rating
    from tests.e2e.test_play import in_another_thread
    from tests.games.conftest import build_game

    alice = make_user("alice", display_name="Alice")
    bob = make_user("bob", display_name="Bob")
    Rating.objects.create(engine_slug="babylon", user=bob, mu=30, sigma=5, games_played=6)
    games: list[Any] = []
    in_another_thread(lambda: games.append(build_game(bob, "easy", engine="babylon", seed=4)))
    game = games[0]
    for width, height in WIDTHS.items():
        page = logged_in_page(
            new_page, asgi_server, alice, viewport={"width": width, "height": height}
        )
        for language in LANGUAGES:
            User.objects.filter(pk=alice.pk).update(language=language)
            where = f"{width} px, {language}"
            page.goto(f"http://{asgi_server}/")
            running = f'#club-running [data-game="{game.pk}"]'
            member = reverse("accounts:member", args=["bob"])
            click_in_the_running_list(page, f'{running} a[href="{member}"]', f"**{member}")
            assert page.locator("h1").inner_text() == "Bob", where
            toggle = page.locator(".site-header .nav-toggle")
            if toggle.is_visible():
                toggle.click()
            page.locator(f'.nav a[href="{reverse("games:standings")}"]').click()
            page.wait_for_url(f"**{reverse('games:standings')}")
            top = page.locator('.standings-top[data-game="babylon"]')
            assert top.locator('[data-player="u:bob"]').is_visible(), where
            top.locator(f'a[href="{reverse("games:leaderboard", args=["babylon"])}"]').click()
            page.wait_for_url(f"**{reverse('games:leaderboard', args=['babylon'])}")
            assert page.locator('tr[data-player="u:bob"]').is_visible(), where
            page.go_back()
            page.go_back()
            page.go_back()
            page.wait_for_url(f"http://{asgi_server}/")
            play = reverse("games:play", args=[game.pk])
            click_in_the_running_list(page, f'#club-running a[href="{play}"]', f"**{play}")
            assert page.locator("html").get_attribute("lang") == language, where
        assert page.errors == []
