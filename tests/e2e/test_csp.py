"""The Content-Security-Policy in a real browser: nothing on the pages is blocked, and what the
templates used to do with inline handlers (select to submit, click to select) still works."""

from __future__ import annotations

from typing import Any

import pytest

from rulebooks.importers import CONTENT_DIR, import_rulebook
from tests.conftest import make_user
from tests.e2e.test_play import in_another_thread, logged_in_page
from tests.games.conftest import build_game, play_random_moves, waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def watch_for_blocked_content(page: Any) -> list[str]:
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return blocked


def test_the_policy_blocks_nothing_and_the_moved_handlers_work(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice-csp", display_name="Alice"), make_user("bob-csp")
    made: dict[str, Any] = {}

    def set_up() -> None:  # announcements need a thread without Playwright's event loop
        made["game"] = play_random_moves(build_game(alice, bob, seed=5))  # to the end
        made["room"] = waiting_game(alice)
        import_rulebook(CONTENT_DIR / "babylon")

    in_another_thread(set_up)
    game, room = made["game"], made["room"]
    page = logged_in_page(new_page, asgi_server, alice)
    blocked = watch_for_blocked_content(page)
    base = f"http://{asgi_server}"

    for path in ["/", "/rules/", "/games/", f"/games/{game.pk}/"]:
        page.goto(base + path)
    page.wait_for_selector("#game-board")

    # The replay of the finished game: its "Seen by" list shows a seat's view once chosen.
    page.goto(f"{base}/games/{game.pk}/replay/")
    page.select_option("#replay-seat", "1")
    page.wait_for_url("**seat=1**")

    # The invite link selects itself when clicked, ready to copy.
    # The room fetches itself again once its socket opens: click after that refresh, or the
    # swap replaces the field that was just selected.
    page.add_init_script(
        "document.addEventListener('htmx:afterSettle', (e) => {"
        " if (e.target.id === 'room-refresh') { window.roomRefreshed = true; } })"
    )
    page.goto(f"{base}/games/{room.pk}/join/")
    page.wait_for_function("() => window.roomRefreshed === true")
    page.locator("input.invite-link").first.click()
    selected = page.evaluate(
        "() => { const f = document.querySelector('input.invite-link');"
        " return f.selectionEnd - f.selectionStart === f.value.length && f.value.length > 0; }"
    )
    assert selected

    # The rulebook's print button opens the browser's print dialog.
    page.goto(f"{base}/rules/babylon/")
    page.evaluate("() => { window.print = () => { document.body.dataset.printed = 'yes'; }; }")
    page.locator("button[data-print]").click()
    page.wait_for_selector("body[data-printed=yes]")

    # The language list switches the page's language by itself.
    page.select_option("#language-select", "pl")
    page.wait_for_selector('html[lang="pl"]')

    assert blocked == []
    assert page.errors == []
