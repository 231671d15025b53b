"""Issue 35 in a real browser, in English, Hungarian and Polish: a member enters a tournament
from its page, the round starts and its table appears without a reload, the member plays the
table's game against the bot that took the other seat, and the standings on the tournament
page, left open in another tab, move without a reload; then the final ranking comes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, TournamentEntry
from games.services import tournaments
from tests.conftest import empty_task_queue, make_user, start_celery_worker, stop
from tests.e2e.test_live_notices import COUNT_SOCKETS
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page
from tests.games.test_tournaments import organiser

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"enter": "Enter the tournament", "final": "Final ranking"},
    "hu": {"enter": "Jelentkezés a versenyre", "final": "Végeredmény"},
    "pl": {"enter": "Zgłoś się do turnieju", "final": "Klasyfikacja końcowa"},
}


@pytest.fixture
def play_worker(process_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """The `play` worker alone (bot turns and the end of games): this test asks nothing of the
    heavy queue, whose niced worker can take minutes to come up on a busy machine."""
    empty_task_queue()
    proc = start_celery_worker(process_env, tmp_path / "worker-play.log")
    yield proc
    stop(proc)


def open_live(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => window.opened && window.opened['tournament-live']")
    page.evaluate("window.stillTheSamePage = true")


def play_to_the_end(page: Any) -> None:
    """Akropolis as the member: take the first tile offered, confirm the placement offered."""
    for _ in range(200):
        page.wait_for_selector(
            "#game-board[data-my-turn], #game-board .game-over", timeout=TURN_TIMEOUT_MS
        )
        if page.locator("#game-board .game-over").count():
            return
        number = int(page.get_attribute("#game-board", "data-version"))
        if page.get_attribute("#game-board", "data-phase") == "take":
            page.locator("button.site-tile.can-take").first.click()
        else:
            page.locator("button.confirm-button").click()
        page.wait_for_function(
            f"() => Number(document.getElementById('game-board').dataset.version) > {number}",
            timeout=TURN_TIMEOUT_MS,
        )
    pytest.fail("the game did not end")


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_a_member_enters_plays_the_round_and_sees_the_standings_move_live(
    asgi_server: str, play_worker: Any, new_page: Any, language: str
) -> None:
    words = WORDS[language]
    alice = make_user("alice", display_name="Alice", language=language)
    bob = make_user("bob", display_name="Bob")
    t = tournaments.create_tournament(
        organiser=organiser(),
        name="Cup",
        engine_slug="akropolis",
        format="swiss",
        table_size=2,
        capacity=8,
        bot_level="easy",
        first_round_at=timezone.now() + timedelta(hours=1),
        round_interval=timedelta(hours=1),
        rounds=1,
    )
    in_another_thread(lambda: tournaments.register(tournament_id=t.pk, user=bob))
    url = f"http://{asgi_server}{t.get_absolute_url()}"
    page = logged_in_page(new_page, asgi_server, alice)
    page.add_init_script(COUNT_SOCKETS)
    open_live(page, url)
    page.get_by_role("button", name=words["enter"]).click()
    page.wait_for_selector("#tournament-entries li:has-text('Alice')")
    assert TournamentEntry.objects.get(user=alice).status == "registered"
    open_live(page, url)

    # The round starts (the beat at the first round's time): the table comes without a reload.
    starts = t.rounds.get().starts_at
    in_another_thread(lambda: tournaments.run_tournaments(now=starts))
    link = page.locator("#round-1 .tournament-tables a")
    link.wait_for(timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("window.stillTheSamePage") is True
    game = Game.objects.get(tournament_table__round__tournament=t)
    assert link.get_attribute("href") == game.get_absolute_url()
    row = page.locator('#tournament-standings tr[data-member="alice"]')
    assert row.get_attribute("data-played") == "0"

    # Bob withdraws: a bot plays his seat on, and the member plays the table's game in a tab.
    in_another_thread(lambda: tournaments.withdraw(tournament_id=t.pk, user=bob))
    board = page.context.new_page()
    board.goto(f"http://{asgi_server}{game.get_absolute_url()}")
    play_to_the_end(board)

    # At a table of two the first gets 1 point; a seat that resigned ranks last.
    page.wait_for_selector(
        '#tournament-standings tr[data-member="alice"][data-played="1"][data-points="1"]',
        timeout=TURN_TIMEOUT_MS,
    )
    assert page.evaluate("window.stillTheSamePage") is True
    rows = page.locator("#tournament-standings tbody tr")
    assert rows.first.get_attribute("data-member") == "alice"

    # The beat closes the round: the last one, so the final ranking shows.
    later = starts + timedelta(minutes=1)
    in_another_thread(lambda: tournaments.run_tournaments(now=later))
    page.get_by_role("heading", name=words["final"]).wait_for(timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.errors == []
