"""The Babylon game page in a real browser, at phone size: a member digs a tile from the
quarry, builds a terrace (tile, cells, rotation, corners, preview, confirm), places a statue
on it and ends the turn; the other member sees the last move marked. Then a turn by keyboard
alone."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from games import engines, services
from tests.conftest import make_user
from tests.e2e.test_play import in_another_thread, logged_in_page, wait_for_version
from tests.games.conftest import build_game, state_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ENGINE = engines.get("babylon")


def after_the_removals(game: Any) -> int:
    """Play the six clay removals of a 2-player game (spec §2.1 step 6); return the version."""
    number = 0
    while state_of(game).phase == "remove":
        state = state_of(game)
        seat = ENGINE.to_move(state)[0]
        move = ENGINE.legal_moves(state, seat)[0]
        in_another_thread(
            lambda seat=seat, move=move, number=number: services.play_move(
                game_id=game.pk, seat=seat, move=move, expected_version=number
            )
        )
        number += 1
    return number


def open_board(new_page: Any, server: str, user: Any, game: Any, version: int) -> Any:
    page = logged_in_page(new_page, server, user, viewport=PHONE)
    page.goto(f"http://{server}/games/{game.pk}/")
    page.wait_for_selector(f'#game-board[data-version="{version}"]')
    return page


def richest_stack(game: Any, seat: int) -> tuple[int, int]:
    view = ENGINE.view(state_of(game), seat)
    best = max((e for e in view["quarry"] if e["top"]), key=lambda e: e["yield"])
    assert best["yield"] >= 4
    return best["x"], best["y"]


def shot(page: Any, name: str) -> None:
    """With BABYLON_SCREENSHOTS set to a folder: the page, and the first garden alone."""
    folder = os.environ.get("BABYLON_SCREENSHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)
        page.locator("#bab-garden-0").screenshot(path=f"{folder}/{name}-garden.png")


def test_dig_build_decorate_and_end_a_turn_by_mouse(asgi_server: str, new_page: Any) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = build_game(alice, bob, engine="babylon", seed=11)
    version = after_the_removals(game)
    page = open_board(new_page, asgi_server, alice, game, version)
    assert "Dig" in page.inner_text(".instruction")
    shot(page, "dig")

    # A: dig the stack that gives the most pillars; its yield is on the button.
    x, y = richest_stack(game, 0)
    stack = page.locator(f'.bab-stack[data-x="{x}"][data-y="{y}"] button')
    assert "digging it gives you" in stack.get_attribute("aria-label")
    stack.click()
    wait_for_version(page, version + 1)
    assert game.moves.get(number=version).payload == {"type": "dig", "x": x, "y": y}

    # B: the stored starting tile, on the cells from C3 (one click), turned once.
    page.locator('.bab-tile-choice[data-tile="stored"]').click()
    assert page.locator('.bab-tile-choice[data-tile="stored"]').get_attribute("aria-pressed") == (
        "true"
    )
    page.locator('.bab-garden.mine .bab-cell[data-x="2"][data-y="2"]').click()
    shown = page.locator(".bab-stand:not(.bab-off)")
    assert shown.count() >= 1
    # Every choice shown stands at C3; on a phone each says it in a short line (issue 34).
    assert {(c.get_attribute("data-x"), c.get_attribute("data-y")) for c in shown.all()} == {
        ("2", "2")
    }
    assert all(len(text) < 60 for text in shown.all_inner_texts())
    page.locator("[data-bab-action=turn]").click()
    preview = page.locator(".bab-preview .bab-preview-tile:not(.bab-off)")
    assert preview.count() == 1
    assert preview.get_attribute("data-tile") == "stored"
    assert preview.get_attribute("data-rotation") == "1"
    assert page.locator(".bab-iso-preview:not(.bab-off) .bab-preview-tile:not(.bab-off)").count()
    # Turned once, the starting tile (SFBT) shows its statue on the north-west corner: leave
    # the south-east corner open for a belvedere (three singles).
    choice = page.locator('.bab-stand:not(.bab-off)[data-open="2"]')
    assert "belvedere: south-east" in choice.inner_text()
    choice.locator("input").check()
    shot(page, "place")
    page.locator(".bab-confirm").click()
    wait_for_version(page, version + 2)
    placed = game.moves.get(number=version + 1).payload
    assert {k: placed[k] for k in ("type", "tile", "x", "y", "rotation", "level")} == {
        "type": "place",
        "tile": "stored",
        "x": 2,
        "y": 2,
        "rotation": 1,
        "level": 1,
    }
    assert placed["open_corner"] == 2
    assert page.locator("#bab-garden-0 .bab-top-tile").count() == 1
    assert page.locator("#bab-garden-0 .bab-iso-tile").count() == 1
    assert page.locator("#bab-garden-0 .bab-pillar").count() == 3

    # The starting tile shows a statue symbol: the first statue may go there.
    statue = page.locator('.bab-decorate[data-kind="statue"]')
    assert statue.count() == 1
    statue.click()
    wait_for_version(page, version + 3)
    assert game.moves.get(number=version + 2).payload["type"] == "decorate"
    assert state_of(game).boards[0].pieces[-1].kind == "statue"
    shot(page, "decorated")

    # C: store the dug tile (the slot is empty now) and end the turn.
    page.locator('.bab-end[data-taken="store"]').click()
    wait_for_version(page, version + 4)
    assert game.moves.get(number=version + 3).payload == {"type": "end_turn", "taken": "store"}
    assert "Waiting for Bob." in page.inner_text(".turn-bar")
    assert page.errors == []

    # Bob sees Alice's turn marked: the tile outlined, the stack, the move log in words.
    other = open_board(new_page, asgi_server, bob, game, version + 4)
    assert other.locator("#bab-garden-0 .bab-last-outline").count() == 1
    assert other.locator(f'.bab-stack.bab-last[data-x="{x}"][data-y="{y}"]').count() == 1
    text = other.inner_text(".bab-last-turn")
    assert "Alice dug" in text and "statue" in text and "stored" in text
    assert other.errors == []


def test_a_terrace_built_by_keyboard_alone(asgi_server: str, new_page: Any) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = build_game(alice, bob, engine="babylon", seed=12)
    version = after_the_removals(game)
    x, y = richest_stack(game, 0)
    move = {"type": "dig", "x": x, "y": y}
    in_another_thread(
        lambda: services.play_move(game_id=game.pk, seat=0, move=move, expected_version=version)
    )
    page = open_board(new_page, asgi_server, alice, game, version + 1)

    # Tab reaches the cells of the garden (one tab stop); arrows move; Enter picks a cell.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('bab-cell')"):
            break
    else:
        pytest.fail("Tab never reached the cells of the garden")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    cell = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y]")
    page.keyboard.press("Enter")
    assert page.locator(".bab-stand:not(.bab-off)").count() >= 1
    # Enter on a cell moves the focus to the confirm button; `r` turns the tile first.
    page.keyboard.press("r")
    page.keyboard.press("Enter")
    wait_for_version(page, version + 2)
    placed = game.moves.get(number=version + 1).payload
    assert placed["type"] == "place"
    assert (placed["x"], placed["y"]) == (int(cell[0]), int(cell[1]))
    assert placed["rotation"] == 1
    assert json.dumps(placed)
    assert page.errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_tab_order_follows_the_turn(asgi_server: str, new_page: Any, width: int) -> None:
    # Issue 21 item 6: the tile in hand, then the garden's cells, then the turn's buttons.
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = build_game(alice, bob, engine="babylon", seed=12)
    version = after_the_removals(game)
    x, y = richest_stack(game, 0)
    move = {"type": "dig", "x": x, "y": y}
    in_another_thread(
        lambda: services.play_move(game_id=game.pk, seat=0, move=move, expected_version=version)
    )
    page = logged_in_page(new_page, asgi_server, alice, viewport={"width": width, "height": 844})
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_selector(f'#game-board[data-version="{version + 1}"]')

    kinds = {
        "bab-tile-choice": "tile",
        "bab-cell": "cell",
        "bab-confirm": "confirm",
        "bab-end": "end",
    }
    order: list[str] = []
    for _ in range(120):
        page.keyboard.press("Tab")
        kind = page.evaluate(
            "(() => { const e = document.activeElement;"
            " if (e.closest('.bab-ends')) return 'bab-end';"
            " for (const c of ['bab-tile-choice', 'bab-cell', 'bab-confirm'])"
            "   if (e.classList.contains(c)) return c;"
            " return null; })()"
        )
        if kind and (not order or order[-1] != kinds[kind]):
            order.append(kinds[kind])
        if kind == "bab-end":
            break
    # (The confirm button waits, hidden, until a cell is chosen.)
    assert order == ["tile", "cell", "end"], order
    assert page.errors == []
