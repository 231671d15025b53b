"""The post-game review in a real browser, in Hungarian: a member finishes a game against a
bot, asks for the review, watches its progress arrive over the game's socket, opens the
costliest decision on the replay and sees the bot's choice on the board."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from games import engines, services
from games.models import Game, Review
from tests.conftest import make_user
from tests.e2e.test_play import TURN_TIMEOUT_MS, in_another_thread, logged_in_page, version
from tests.games.conftest import state_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Akropolis for two always lasts 72 moves (the stacks run out); the member plays the last
# turns in the browser.
MOVES = 72
LEFT_FOR_THE_BROWSER = 6
REVIEW_TIMEOUT_MS = 600_000


def play_until(game: Game, number: int) -> None:
    """The member's random moves through the one move path; the worker plays the bot's."""
    engine = engines.get(game.engine_slug)
    rng = random.Random(1)
    deadline = time.monotonic() + 300
    while game.version < number and time.monotonic() < deadline:
        state = state_of(game)
        if engine.to_move(state) == [0]:
            move = rng.choice(engine.legal_moves(state, 0))
            services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        else:
            time.sleep(0.1)
        game.refresh_from_db()
    assert game.version >= number


def test_a_member_reviews_a_finished_game_in_hungarian(
    asgi_server: str, celery_worker_process: Any, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice", language="hu")
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=3,
    )
    in_another_thread(lambda: play_until(game, MOVES - LEFT_FOR_THE_BROWSER))
    page = logged_in_page(new_page, asgi_server, alice)
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    for _ in range(LEFT_FOR_THE_BROWSER + 2):
        page.wait_for_selector(
            "#game-board[data-my-turn], #game-board .game-over", timeout=TURN_TIMEOUT_MS
        )
        if page.locator("#game-board .game-over").count():
            break
        number = version(page)
        if page.get_attribute("#game-board", "data-phase") == "take":
            page.locator("button.site-tile.can-take").first.click()
        else:
            page.locator("button.confirm-button").click()
        page.wait_for_function(
            f"() => Number(document.getElementById('game-board').dataset.version) > {number}",
            timeout=TURN_TIMEOUT_MS,
        )
    else:
        pytest.fail("the game did not end")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    # The game page, loaded again now that the game is over, offers the review.
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.get_by_role("button", name="A játszma elemzése").click()
    progress = page.locator("#review-progress")
    progress.wait_for(timeout=TURN_TIMEOUT_MS)
    shown = re.compile(r"A nehéz bot elemzi a játszmát: (\d+)\. lépés / 72\.")
    first = shown.search(progress.inner_text())
    assert first is not None
    # The next counts arrive over the socket, without a reload.
    page.wait_for_function(
        "n => { const m = /(\\d+)\\. lépés/.exec("
        "document.getElementById('review-progress').innerText); return m && Number(m[1]) > n; }",
        arg=int(first.group(1)),
        timeout=REVIEW_TIMEOUT_MS,
    )
    page.wait_for_selector("#review-progress a.review-link", timeout=REVIEW_TIMEOUT_MS)
    assert "Az elemzés elkészült." in progress.inner_text()
    review = Review.objects.get(game=game)
    assert review.status == "done"
    assert [d["number"] for d in review.decisions] == list(range(1, MOVES + 1))

    # The link opens the costliest decision on the replay.
    page.locator("#review-progress a.review-link").click()
    page.wait_for_selector(".review-decision")
    assert f"?move={review.costliest}" in page.url
    decision = page.inner_text(".review-decision")
    assert f"{review.costliest}. lépés:" in decision
    # Advice, not history: what to do instead, naming the tile or the placement.
    assert re.search(r"Jobb lett volna( .+ számára)?: (Vedd el|Rakd le ide)", decision), decision
    assert "ponttal jobb" in decision
    assert "Becsült elvesztett pontok" in page.inner_text(".review-summaries")
    assert page.locator(".review-chart polyline").count() == 2

    # The bot's choice, drawn on the board in place of the move made.
    made = page.inner_html("#game-board > :first-child")
    page.get_by_role("link", name="A bot választása a táblán").click()
    page.wait_for_selector(".alt-note")
    assert "alt=1" in page.url
    assert "A tábla a megtett lépés helyett a bot választását mutatja." in page.inner_text(
        ".review-decision"
    )
    assert page.inner_html("#game-board > :first-child") != made
    page.get_by_role("link", name="A megtett lépés mutatása").wait_for()
    assert page.errors == []
