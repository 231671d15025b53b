"""Playing Akropolis in real browsers: two members against each other, and a member against a bot.

The moves go through the pages (htmx posts to the ASGI server); the other side's moves must
appear by themselves over the game socket, without a reload.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TURN_TIMEOUT_MS = 60_000


def logged_in_page(new_page: Any, server: str, user: User, **context: Any) -> Any:
    """A browser page holding `user`'s session (signing in through the form is tested elsewhere)."""
    client = Client()
    client.force_login(user)
    page = new_page(**context)
    page.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": f"http://{server}",
            }
        ]
    )
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def in_another_thread(action: Any) -> None:
    """Run `action` as another member's own browser would: from outside this thread, whose
    Playwright event loop forbids the synchronous channel-layer call that announces it."""

    def run() -> None:
        try:
            action()
        finally:
            connections.close_all()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()


def join_in_another_thread(game: Game, user: User) -> None:
    in_another_thread(lambda: services.join_seat(game_id=game.pk, user=user))


def version(page: Any) -> int:
    return int(page.get_attribute("#game-board", "data-version"))


def wait_for_version(page: Any, number: int) -> None:
    page.wait_for_selector(f'#game-board[data-version="{number}"]', timeout=TURN_TIMEOUT_MS)


# htmx's classes of a swap in progress: a board swapped in over HTTP carries them for its
# settle delay after its move number is already showing, and what the page does once a board
# has settled (a member's input put back, static/js/game.js) is not done yet.
SWAP_IN_PROGRESS = (
    "#game-board.htmx-request, #game-board.htmx-swapping, #game-board.htmx-settling,"
    " #game-board.htmx-added, #game-board .htmx-settling, #game-board .htmx-added"
)


def wait_until_settled(page: Any) -> None:
    page.wait_for_selector(SWAP_IN_PROGRESS, state="detached", timeout=TURN_TIMEOUT_MS)


def wait_for_version_at_least(page: Any, number: int) -> int:
    """Wait until the board shows move `number` or a later one, and return the one it shows.
    For a move a bot answers at once: the page may never show the move itself, only the
    bot's answer (the server draws each announcement's board from the game as it is then)."""
    for _ in range(TURN_TIMEOUT_MS // 100):
        shown = version(page)
        if shown >= number:
            return shown
        page.wait_for_timeout(100)
    raise AssertionError(f"the board still shows move {version(page)}, not {number} or later")


def test_the_waiting_room_fills_live_and_opens_the_board_when_the_game_starts(
    asgi_server: str, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    game = waiting_game(alice, players=3)
    page = logged_in_page(new_page, asgi_server, alice)
    page.add_init_script(
        'document.addEventListener("htmx:wsOpen", () => { window.roomSocketOpen = true; })'
    )
    page.goto(f"http://{asgi_server}/games/{game.pk}/join/")
    page.wait_for_function("() => window.roomSocketOpen === true")
    page.evaluate("window.stillTheSamePage = true")
    join_in_another_thread(game, bob)
    page.wait_for_selector("#waiting-room >> text=Bob", timeout=TURN_TIMEOUT_MS)
    assert page.evaluate("window.stillTheSamePage") is True
    join_in_another_thread(game, carol)  # the last seat: the game starts
    page.wait_for_url(f"http://{asgi_server}/games/{game.pk}/", timeout=TURN_TIMEOUT_MS)
    page.wait_for_selector('#game-board[data-version="0"]')
    assert page.errors == []


def test_two_members_see_each_others_moves_live(asgi_server: str, new_page: Any) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(alice, seed=7)
    services.join_seat(game_id=game.pk, user=bob)
    url = f"http://{asgi_server}/games/{game.pk}/"
    alice_page = logged_in_page(new_page, asgi_server, alice)
    bob_page = logged_in_page(new_page, asgi_server, bob)
    for page in (alice_page, bob_page):
        page.goto(url)
        page.wait_for_selector('#game-board[data-version="0"]')
        # Set a flag that a reload would wipe out.
        page.evaluate("window.stillTheSamePage = true")

    # Alice takes a tile: bob's board follows.
    assert "Waiting for Alice." in bob_page.inner_text(".turn-bar")
    alice_page.locator("button.site-tile.can-take").first.click()
    wait_for_version(alice_page, 1)
    wait_for_version(bob_page, 1)

    # Alice picks a place, rotates, sees her preview and confirms.
    alice_page.locator("#game-board .spot").first.click()
    assert alice_page.locator("#game-board .preview.shown").count() == 1
    before = alice_page.eval_on_selector(".placement-select", "s => s.value")
    alice_page.get_by_role("button", name="Rotate").click()
    assert alice_page.locator("#game-board .preview.shown").count() == 1
    chosen = alice_page.eval_on_selector(".placement-select", "s => s.value")
    alice_page.get_by_role("button", name="Confirm placement").click()
    wait_for_version(alice_page, 2)
    wait_for_version(bob_page, 2)
    played = Game.objects.get(pk=game.pk).moves.get(number=1).payload
    assert played == json.loads(chosen)
    assert before != chosen or alice_page.locator("option").count() == 1

    # Now bob moves, and alice sees it.
    assert "Your turn." in bob_page.inner_text(".turn-bar")
    bob_page.locator("button.site-tile.can-take").first.click()
    wait_for_version(bob_page, 3)
    wait_for_version(alice_page, 3)
    bob_page.get_by_role("button", name="Confirm placement").click()
    wait_for_version(alice_page, 4)
    assert "Your turn." in alice_page.inner_text(".turn-bar")

    # A lost message (DESIGN.md principle 6): bob's browser drops the one of move 5; when the one
    # after it shows the gap, bob's page fetches the board over HTTP instead.
    bob_page.evaluate(
        """document.addEventListener("htmx:wsBeforeMessage", function drop(event) {
             if (event.detail.message.indexOf('data-version="5"') < 0) { return; }
             document.removeEventListener("htmx:wsBeforeMessage", drop, true);
             window.droppedMessage = true;
             event.preventDefault();
           }, true)"""
    )
    alice_page.locator("button.site-tile.can-take").first.click()
    wait_for_version(alice_page, 5)
    bob_page.wait_for_function("() => window.droppedMessage === true")
    assert version(bob_page) == 4
    with bob_page.expect_response(lambda r: f"/games/{game.pk}/board/" in r.url) as fetched:
        alice_page.get_by_role("button", name="Confirm placement").click()
        wait_for_version(bob_page, 6)
    assert fetched.value.status == 200

    for page in (alice_page, bob_page):
        assert page.evaluate("window.stillTheSamePage") is True
        assert page.errors == []


def move_in_another_thread(game: Game, seat: int, number: int) -> None:
    """Play the seat's first legal move, as that player's browser would."""
    from games import engines

    def play() -> None:
        engine = engines.get(game.engine_slug)
        state = engine.load(Game.objects.get(pk=game.pk).state)
        move = engine.legal_moves(state, seat)[0]
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=number)

    in_another_thread(play)


def test_a_browser_that_reconnects_after_a_drop_fetches_the_board(
    asgi_server: str, new_page: Any
) -> None:
    """DESIGN.md principle 6: the socket drops while bob moves, so alice never receives that
    message; when htmx reconnects, her page asks for the board over HTTP and catches up."""
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    game = waiting_game(bob, seed=7)
    join_in_another_thread(game, alice)  # bob (seat 0) moves first; alice watches
    sockets: list[Any] = []
    swallowed: list[Any] = []
    cut = {"on": False}

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)
        server.on_message(lambda m: swallowed.append(m) if cut["on"] else ws.send(m))
        ws.on_message(lambda m: server.send(m))

    page = logged_in_page(new_page, asgi_server, alice)
    page.route_web_socket(lambda url: "/ws/games/" in url, relay)
    # Only the game's socket counts (every page also opens one for notifications), and only
    # once its opening fetch of the board has come back.
    page.add_init_script(
        """document.addEventListener("htmx:wsOpen", (event) => {
             if (event.target.id === "game-live") {
               window.socketsOpened = (window.socketsOpened || 0) + 1;
             }
           })"""
    )
    with page.expect_response(lambda r: f"/games/{game.pk}/board/" in r.url):
        page.goto(f"http://{asgi_server}/games/{game.pk}/")
    page.wait_for_function("() => window.socketsOpened === 1")
    page.evaluate("window.stillTheSamePage = true")
    assert version(page) == 0

    cut["on"] = True  # the connection is failing: bob's move never reaches alice
    move_in_another_thread(game, 0, 0)
    page.wait_for_timeout(500)
    assert swallowed, "the server did announce bob's move"
    assert version(page) == 0
    cut["on"] = False
    with page.expect_response(lambda r: f"/games/{game.pk}/board/" in r.url) as fetched:
        sockets[0].close(code=1012)  # "service restart": htmx reconnects
        page.wait_for_function("() => window.socketsOpened === 2", timeout=TURN_TIMEOUT_MS)
    assert fetched.value.status == 200
    wait_for_version(page, 1)
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.errors == []


def test_member_plays_a_whole_game_against_a_bot(
    asgi_server: str, celery_worker_process: Any, new_page: Any
) -> None:
    alice = make_user("alice", display_name="Alice")
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=3,
    )
    page = logged_in_page(new_page, asgi_server, alice, viewport={"width": 390, "height": 844})
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    for _ in range(200):
        page.wait_for_selector(
            "#game-board[data-my-turn], #game-board .game-over", timeout=TURN_TIMEOUT_MS
        )
        if page.locator("#game-board .game-over").count():
            break
        number = version(page)
        if page.get_attribute("#game-board", "data-phase") == "take":
            page.locator("button.site-tile.can-take").first.click()
        else:
            page.get_by_role("button", name="Confirm placement").click()
        page.wait_for_function(
            f"() => Number(document.getElementById('game-board').dataset.version) > {number}",
            timeout=TURN_TIMEOUT_MS,
        )
    else:
        pytest.fail("the game did not end")

    assert "The game is over." in page.inner_text(".turn-bar")
    assert "Total" in page.inner_text(".score-table")
    categories = page.inner_text(".score-breakdown")
    for category in ("Houses", "Markets", "Barracks", "Temples", "Gardens", "Stones"):
        assert f"{category} (points)" in categories
    assert page.locator(".score-chart rect").count() > 0
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.moves.filter(by_bot=True).count() > 0
    assert page.errors == []
