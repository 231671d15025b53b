"""The final table in a real browser (issue 19, item 1): for each game, at 1280 px and on a
390 px phone, in English, Hungarian and Polish, the total and the rating of every player are
visible without scrolling sideways, and no two labels of the chart's legend overlap.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import engines
from games.models import Game
from tests.conftest import make_user
from tests.e2e.test_play import in_another_thread, logged_in_page
from tests.games.test_final_table import finished

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {1280: 800, 390: 844}
LANGUAGES = ("en", "hu", "pl")

# Where a cell sits once the page is scrolled up or down to it, but never sideways, and
# whether it is the element seen at its centre (not clipped by a scroll box or covered).
SEEN_WITHOUT_SIDEWAYS_SCROLLING = """(cell) => {
  const before = cell.getBoundingClientRect();
  window.scrollTo(0, window.scrollY + before.top - window.innerHeight / 2);
  const box = cell.getBoundingClientRect();
  const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const scrolledBoxes = [];
  for (let node = cell.parentElement; node; node = node.parentElement) {
    if (node.scrollLeft !== 0) scrolledBoxes.push(node.className);
  }
  return {left: box.left, right: box.right, width: box.width, scrollX: window.scrollX,
          pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth,
          seen: seen !== null && (seen === cell || cell.contains(seen)), scrolledBoxes};
}"""


def intersect(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def finished_games(member: User) -> list[Game]:
    games: list[Game] = []
    # Moves announce themselves on the channel layer, which the test thread's Playwright
    # event loop forbids: play them as the other tests do, from another thread.
    in_another_thread(lambda: games.extend(finished(e, member) for e in engines.all()))
    return games


def check_final_table(page: Any, game: Game, width: int, language: str) -> None:
    where = f"{game.engine_slug}, {width} px, {language}"
    table = page.locator(".score-table.final")
    table.wait_for()
    assert page.locator("html").get_attribute("lang") == language, where
    assert table.locator("tbody tr").count() == game.players, where
    for kind in ("total", "rating"):
        cells = table.locator(f"td.{kind}")
        assert cells.count() == game.players, where
        for i in range(game.players):
            cell = cells.nth(i)
            assert cell.inner_text().strip(), f"{where}: an empty {kind}"
            found = cell.evaluate(SEEN_WITHOUT_SIDEWAYS_SCROLLING)
            assert found["pageWidth"] <= found["viewport"], f"{where}: the page scrolls sideways"
            assert found["scrollX"] == 0 and found["scrolledBoxes"] == [], where
            assert found["left"] >= 0 and found["right"] <= found["viewport"], (where, kind, found)
            assert found["seen"], f"{where}: the {kind} of row {i + 1} is hidden"

    labels = page.locator(".chart-legend li")
    categories = page.locator(".score-breakdown tbody tr").count()
    assert labels.count() == categories > 0, where
    boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
    for i, box in enumerate(boxes):
        assert box is not None and box["width"] > 0, where
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{where}: label {i} cut off"
        for j in range(i):
            assert not intersect(box, boxes[j]), (
                f"{where}: legend labels {labels.nth(j).inner_text()!r} and "
                f"{labels.nth(i).inner_text()!r} overlap"
            )


def test_total_rating_and_legend_fit_at_desktop_and_phone_width_in_every_language(
    asgi_server: str, new_page: Any
) -> None:
    # A long name, as members choose them, in the narrowest column.
    member = make_user("alice", display_name="Alexandra Wiśniewska-Kovács")
    games = finished_games(member)
    assert [g.status for g in games] == [Game.Status.FINISHED] * len(games)
    for width, height in WIDTHS.items():
        page = logged_in_page(
            new_page, asgi_server, member, viewport={"width": width, "height": height}
        )
        for language in LANGUAGES:
            User.objects.filter(pk=member.pk).update(language=language)
            for game in games:
                page.goto(f"http://{asgi_server}/games/{game.pk}/")
                check_final_table(page, game, width, language)
        assert page.errors == []
