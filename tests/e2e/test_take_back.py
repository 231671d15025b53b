"""Taking back a step in a real browser (DESIGN.md principle 8): the member whose step it was
presses "Take back" (by keyboard, on a phone-sized page), and another member's open page
shows the board as it was before that step, live, without a reload."""

from __future__ import annotations

from typing import Any

import pytest

from games import engines, services
from games.engines.base import can_take_back_step
from tests.conftest import make_user
from tests.e2e.test_play import in_another_thread, logged_in_page, wait_for_version
from tests.games.engines.test_take_back import playout

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ["Alice", "Bob", "Carol"]


def up_to_a_step(slug: str, players: int, kind: str) -> tuple[int, list[tuple[Any, int, dict]]]:
    """The first random game (by seed) with a step of type `kind` that may be taken back, and
    its steps up to that one."""
    engine = engines.get(slug)
    for seed in range(300):
        played = playout(engine, seed, players, steps=400)
        for i, (before, seat, move) in enumerate(played):
            if move["type"] != kind:
                continue
            after = engine.apply_move(before, seat, move)
            if can_take_back_step(engine, before, seat, move, after):
                return seed, played[: i + 1]
    raise AssertionError(f"no {kind} to take back in 300 random games of {slug}")


def take_back_seen_by_another(
    asgi_server: str, new_page: Any, slug: str, players: int, kind: str, shown: str = ""
) -> str:
    """Play a game up to a step of type `kind` that may be taken back, take it back from the
    mover's page and watch another member's page; return the watcher's phase before the
    take-back. `shown` (with `{seat}` for the mover's seat) selects what the step added to
    the watcher's board: one of them less afterwards."""
    from tests.games.conftest import build_game

    seed, played = up_to_a_step(slug, players, kind)
    cast = [make_user(name.lower(), display_name=name) for name in NAMES[:players]]
    game = build_game(*cast, engine=slug, seed=seed)

    def play(steps: list[tuple[Any, int, dict]], first: int) -> None:
        for number, (_, seat, move) in enumerate(steps, start=first):
            services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=number)

    moves = len(played)
    in_another_thread(lambda: play(played[:-1], 0))
    seat = played[-1][1]
    mover = logged_in_page(new_page, asgi_server, cast[seat], viewport=PHONE)
    watcher = logged_in_page(new_page, asgi_server, cast[(seat + 1) % players])
    for page in (mover, watcher):
        page.goto(f"http://{asgi_server}/games/{game.pk}/")
        wait_for_version(page, moves - 1)
    assert mover.locator(".take-back-step").count() == 0
    # The step, as from another tab of the mover: both pages get it live, the mover's with
    # the button.
    in_another_thread(lambda: play(played[-1:], moves - 1))
    for page in (mover, watcher):
        wait_for_version(page, moves)
    phase_after = watcher.get_attribute("#game-board", "data-phase")
    added = watcher.locator(shown.format(seat=seat)) if shown else None
    count = added.count() if added is not None else 0
    assert f"Moves played: {moves}" in watcher.inner_text(".turn-bar")
    assert watcher.locator(".take-back-step").count() == 0  # not the watcher's step

    # By keyboard: the button is a tab stop of the turn bar, and Enter presses it.
    button = mover.get_by_role("button", name="Take back")
    button.focus()
    mover.keyboard.press("Enter")
    wait_for_version(mover, moves + 1)  # one more change of the board
    wait_for_version(watcher, moves + 1)
    assert f"Moves played: {moves - 1}" in watcher.inner_text(".turn-bar")
    assert game.moves.count() == moves - 1
    before = engines.get(slug).view(played[-1][0], None)
    assert watcher.get_attribute("#game-board", "data-phase") == before["phase"]
    if added is not None:
        assert added.count() == count - 1
    for page in (mover, watcher):
        assert page.errors == []
    return str(phase_after)


def test_a_babylon_build_taken_back_is_seen_by_the_other_member(
    asgi_server: str, new_page: Any
) -> None:
    phase_after = take_back_seen_by_another(
        asgi_server, new_page, "babylon", 2, "place", shown="#bab-garden-{seat} .bab-top-tile"
    )
    assert phase_after == "build"


def test_a_hanging_gardens_card_taken_back_is_seen_by_the_other_member(
    asgi_server: str, new_page: Any
) -> None:
    phase_after = take_back_seen_by_another(
        asgi_server, new_page, "hanging-gardens", 2, "place_card"
    )
    assert phase_after == "temple"  # the card was placed, its temple not yet chosen


def test_a_tower_of_babel_double_turn_taken_back_is_seen_by_the_other_member(
    asgi_server: str, new_page: Any
) -> None:
    phase_after = take_back_seen_by_another(
        asgi_server, new_page, "tower-of-babel", 3, "double_turn"
    )
    assert phase_after == "turn"  # the extra turn; taken back, the window is open again
