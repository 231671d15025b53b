"""The live game socket: every seat gets the board re-rendered from its own view (principle 4),
carrying the move number (principle 6)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test.utils import CaptureQueriesContext

from accounts.sessions import SESSIONS_GROUP
from games import broadcast, engines, live, services
from games.models import Game, OpenPage
from games.routing import websocket_urlpatterns
from tests.conftest import make_user
from tests.games.conftest import build_game, first_legal_move, play_random_moves, waiting_game
from tests.test_processes import session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True)]

APP = URLRouter(websocket_urlpatterns)
ENGINE = engines.get("akropolis")


@pytest.fixture(autouse=True)
async def close_connections_of_the_sync_thread() -> Any:
    """Database work here and in the consumer runs in asgiref's sync thread; its connection
    must close before the test database can be dropped."""
    yield
    await sync_to_async(connections.close_all)()


async def connect(game_id: int, user: Any) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(APP, f"/ws/games/{game_id}/")
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    return socket


@sync_to_async
def two_member_game() -> tuple[Game, Any, Any, Any]:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    return build_game(alice, bob, seed=13), alice, bob, carol


@sync_to_async
def play_first_move(game: Game) -> None:
    seat, move = first_legal_move(game)
    services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)


@sync_to_async
def announce(game: Game) -> None:
    game.refresh_from_db()
    broadcast.notify_game_changed(game.pk, game.version)


@sync_to_async
def reshuffle_face_down_stacks(game: Game) -> None:
    """Give the game other face-down stacks: everything a seat may see stays the same."""
    game.refresh_from_db()
    data = dict(game.state)
    tiles = [tile for stack in data["stacks"] for tile in stack]
    size = len(data["stacks"][0])
    rotated = tiles[1:] + tiles[:1]
    data["stacks"] = [rotated[i : i + size] for i in range(0, len(rotated), size)]
    assert data["stacks"] != game.state["stacks"]
    Game.objects.filter(pk=game.pk).update(state=data)
    reloaded = ENGINE.load(data)
    assert ENGINE.view(reloaded, 0) == ENGINE.view(ENGINE.load(game.state), 0)


async def next_board(socket: WebsocketCommunicator) -> str:
    html = await socket.receive_from(timeout=10)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


async def test_every_socket_receives_the_move_with_its_number() -> None:
    game, alice, bob, carol = await two_member_game()
    sockets = [await connect(game.pk, user) for user in (alice, bob, carol)]
    try:
        await play_first_move(game)
        for socket in sockets:
            message = await socket.receive_from(timeout=10)
            assert 'data-version="1"' in message
            assert 'id="game-board"' in message
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_each_socket_renders_only_its_own_seats_view(monkeypatch) -> None:
    """Whatever the renderer draws, it is handed the view of the socket's own seat."""
    rendered_for: list[Any] = []

    def spy(game: Game, position: int | None, language: str, recent: Any = None) -> str:
        rendered_for.append(position)
        view = services.view_for(game=game, seat=position)
        return json.dumps({"seat": position, "view": view, "data-version": game.version})

    monkeypatch.setattr(live, "render_board", spy)
    game, alice, bob, carol = await two_member_game()
    sockets = {
        0: await connect(game.pk, alice),
        1: await connect(game.pk, bob),
        None: await connect(game.pk, carol),
    }
    try:
        await play_first_move(game)
        for seat, socket in sockets.items():
            message = json.loads(await socket.receive_from(timeout=10))
            assert message["seat"] == seat
            assert message["view"]["seat"] == seat
            assert "stacks" not in message["view"]
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    assert sorted(rendered_for, key=str) == sorted([0, 1, None], key=str)


async def test_one_render_per_viewpoint_and_language_serves_every_socket(monkeypatch) -> None:
    """DESIGN.md principle 7: six sockets, four distinct views (two seats, the spectator in
    English and in Hungarian), four renders; sockets of one view get the same text."""
    renders: list[tuple[int | None, str]] = []
    real = live.render_board

    def counted(game: Game, position: int | None, language: str, recent: Any = None) -> str:
        renders.append((position, language))
        return real(game, position, language, recent)

    monkeypatch.setattr(live, "render_board", counted)
    game, alice, bob, carol = await two_member_game()

    @sync_to_async
    def watchers() -> tuple[Any, Any, Any]:
        return make_user("dora"), make_user("erin"), make_user("ferenc", language="hu")

    dora, erin, ferenc = await watchers()
    users = {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "dora": dora,
        "erin": erin,
        "ferenc": ferenc,
    }
    sockets = {name: await connect(game.pk, user) for name, user in users.items()}
    try:
        await play_first_move(game)
        got = {name: await next_board(socket) for name, socket in sockets.items()}
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    assert sorted(renders, key=str) == sorted(
        [(0, "en"), (1, "en"), (None, "en"), (None, "hu")], key=str
    )
    assert got["carol"] == got["dora"] == got["erin"]
    assert len({got["alice"], got["bob"], got["carol"], got["ferenc"]}) == 4
    assert all('data-version="1"' in html for html in got.values())


async def test_the_hub_reads_the_last_moves_once_for_every_view_it_draws() -> None:
    """Four views of one move (two seats, the spectator in English and in Hungarian): the log's
    last moves are read once, and each view still tells them as a board drawn alone does."""
    game, alice, bob, carol = await two_member_game()
    await play_first_move(game)

    @sync_to_async
    def draw_all() -> tuple[dict[Any, str], list[str], dict[Any, str]]:
        ferenc = make_user("ferenc", language="hu")
        wanted = {(alice.pk, "en"), (bob.pk, "en"), (carol.pk, "en"), (ferenc.pk, "hu")}
        with CaptureQueriesContext(connections["default"]) as queries:
            _, drawn, _, _ = live.read_and_draw_now(game.pk, wanted, {})
        alone = {
            key: live.render_board(Game.objects.get(pk=game.pk), key[3], key[4]) for key in drawn
        }
        return drawn, [q["sql"] for q in queries.captured_queries], alone

    drawn, queries, alone = await draw_all()
    assert sorted(((key[3], key[4]) for key in drawn), key=str) == sorted(
        [(0, "en"), (1, "en"), (None, "en"), (None, "hu")], key=str
    )
    assert len([q for q in queries if 'FROM "games_move"' in q]) == 1
    for key, html in drawn.items():
        assert html == alone[key]
        assert '<li value="1" class="newest">' in html  # the move just played, told


async def test_a_process_joins_a_games_group_once_whatever_its_number_of_sockets(
    monkeypatch,
) -> None:
    """An announcement crosses the channel layer once per server process, not per socket."""
    layer = get_channel_layer()
    joined: list[tuple[str, str]] = []
    left: list[tuple[str, str]] = []
    real_add, real_discard = layer.group_add, layer.group_discard

    async def group_add(group: str, channel: str) -> None:
        joined.append((group, channel))
        await real_add(group, channel)

    async def group_discard(group: str, channel: str) -> None:
        left.append((group, channel))
        await real_discard(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    monkeypatch.setattr(layer, "group_discard", group_discard)
    game, alice, bob, carol = await two_member_game()
    sockets = [await connect(game.pk, user) for user in (alice, bob, carol, carol)]
    try:
        # The game's group, and the group that tells the hub of members' ended sessions.
        assert [group for group, _ in joined] == [SESSIONS_GROUP, broadcast.group_name(game.pk)]
        await play_first_move(game)
        for socket in sockets:
            assert 'data-version="1"' in await socket.receive_from(timeout=10)
    finally:
        for socket in sockets:
            await socket.disconnect()
    # The last socket gone, the process leaves the groups.
    assert left == joined[::-1]


async def test_a_seats_message_never_contains_another_seats_hidden_information() -> None:
    """The real board for each seat is the same whatever the face-down stacks hold, so nothing
    of them (Akropolis spec §5: their tiles and order) can be in it."""
    game, alice, bob, carol = await two_member_game()
    users = {0: alice, 1: bob, None: carol}
    sockets = {seat: await connect(game.pk, user) for seat, user in users.items()}
    try:
        await play_first_move(game)
        before = {seat: await next_board(socket) for seat, socket in sockets.items()}
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    # New sockets (their process renders afresh: the last socket leaving cleared its boards)
    # hear the same move again after the stacks changed under it.
    assert asyncio.get_running_loop() not in live._hubs
    await reshuffle_face_down_stacks(game)
    sockets = {seat: await connect(game.pk, user) for seat, user in users.items()}
    try:
        await announce(game)
        after = {seat: await next_board(socket) for seat, socket in sockets.items()}
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    assert before == after
    # ...while the board does show what differs between seats: only the seat to move may act.
    assert before[0] != before[1]


async def test_a_signed_out_visitor_cannot_watch_a_game_over_the_socket() -> None:
    """The game pages ask a visitor to sign in; the socket, which carries the same board and
    the players' names, follows the same rule."""
    game, *_ = await two_member_game()
    socket = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/")
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    try:
        assert not connected
        await play_first_move(game)
        assert await socket.receive_nothing(timeout=0.5)
    finally:
        await socket.disconnect()


async def test_a_socket_for_an_unknown_game_is_refused() -> None:
    await sync_to_async(make_user)("dora")
    socket = WebsocketCommunicator(APP, "/ws/games/999999/")
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    assert not connected


async def test_a_late_announcement_of_an_older_move_is_not_sent_again() -> None:
    game, alice, bob, _ = await two_member_game()
    socket = await connect(game.pk, alice)
    try:
        await play_first_move(game)
        assert 'data-version="1"' in await socket.receive_from(timeout=10)
        await sync_to_async(broadcast.notify_game_changed)(game.pk, 0)
        assert await socket.receive_nothing(timeout=0.5)
    finally:
        await socket.disconnect()


async def test_a_traced_board_ends_with_the_time_each_hop_began_in_order(settings) -> None:
    game, alice, bob, _ = await two_member_game()
    socket = await connect(game.pk, alice)
    try:
        await play_first_move(game)
        plain = await socket.receive_from(timeout=10)
        assert "live-trace" not in plain
        settings.LIVE_TRACE = True
        await play_first_move(game)  # the second move: bob's turn now
        traced = await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()
    assert 'data-version="2"' in traced
    found = re.search(r"<!--live-trace (\{[^}]*\})-->$", traced)
    assert found, traced[-300:]
    hops = json.loads(found[1])
    order = ["commit", "publish", "receive", "read", "render", "send"]
    assert list(hops) == order
    times = [hops[name] for name in order]
    assert times == sorted(times)


@pytest.mark.slow
def test_a_bot_move_played_in_the_worker_reaches_a_browsers_socket(
    asgi_server: str, celery_worker_process: Any
) -> None:
    """The real path across processes: the member moves here, the worker's bot answers, and
    the socket served by the ASGI server receives the board after the bot's move (principle 5)."""
    alice = make_user("alice-live-game")
    game = build_game(alice, "easy", seed=17)
    url = f"ws://{asgi_server}/ws/games/{game.pk}/"
    headers = {"Cookie": session_cookie_for(alice), "Origin": f"http://{asgi_server}"}

    def alice_plays_her_turn() -> None:
        try:
            play_random_moves(game, count=2)
        finally:
            connections.close_all()

    async def run() -> list[int]:
        seen: list[int] = []
        async with websockets.connect(url, additional_headers=headers) as ws:
            await asyncio.sleep(0.5)  # let the consumer join its group
            await asyncio.to_thread(alice_plays_her_turn)
            while not seen or max(seen) < 3:  # moves 3 and 4 are the bot's
                message = str(await asyncio.wait_for(ws.recv(), timeout=60))
                seen.append(int(re.search(r'data-version="(\d+)"', message).group(1)))  # type: ignore[union-attr]
        return seen

    versions = asyncio.run(run())
    assert max(versions) >= 3
    bot_moves = game.moves.filter(by_bot=True, number__lt=max(versions))
    assert bot_moves.exists()


async def test_a_waiting_room_socket_hears_each_change_of_the_open_game() -> None:
    """The room's socket gets a hint (no board: the game has none yet) at every join, leave
    and start; the page fetches itself over HTTP on it."""

    @sync_to_async
    def open_game() -> tuple[Game, Any, Any]:
        alice, bob = make_user("alice"), make_user("bob")
        game = waiting_game(alice, players=3)
        return game, alice, bob

    game, alice, bob = await open_game()
    socket = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/?page=room")
    socket.scope["user"] = alice
    assert (await socket.connect())[0]
    try:
        await sync_to_async(services.join_seat)(game_id=game.pk, user=bob)
        hint = await socket.receive_from(timeout=10)
        assert 'id="room-signal"' in hint and "game-board" not in hint
        await sync_to_async(services.leave_seat)(game_id=game.pk, user=bob)
        assert 'id="room-signal"' in await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()


async def test_a_members_game_page_counts_as_open_while_its_socket_is_open() -> None:
    """Issue 10, defect 2: "your turn" goes only to a member with no page of the game open."""
    game, alice, bob, carol = await two_member_game()
    pages = sync_to_async(lambda: list(OpenPage.objects.values_list("game_id", "user_id")))
    alice_socket = await connect(game.pk, alice)
    try:
        assert await pages() == [(game.pk, alice.pk)]
    finally:
        await alice_socket.disconnect()
    assert await pages() == []


async def test_the_lobby_socket_hears_a_new_open_game_and_a_seat_taken() -> None:
    """Issue 10, defect 3: the hint makes the lobby fetch its lists again over HTTP."""

    @sync_to_async
    def members() -> tuple[Any, Any, Any]:
        return make_user("alice"), make_user("bob"), make_user("carol")

    alice, bob, carol = await members()
    socket = WebsocketCommunicator(APP, "/ws/lobby/")
    socket.scope["user"] = carol
    assert (await socket.connect())[0]
    try:
        game = await sync_to_async(waiting_game)(alice, players=3)
        hint = await socket.receive_from(timeout=10)
        assert 'id="lobby-signal"' in hint and str(game.pk) not in hint
        await sync_to_async(services.join_seat)(game_id=game.pk, user=bob)
        assert 'id="lobby-signal"' in await socket.receive_from(timeout=10)
    finally:
        await socket.disconnect()


async def test_the_lobby_socket_is_for_members_only() -> None:
    socket = WebsocketCommunicator(APP, "/ws/lobby/")
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    assert not connected


async def test_a_replay_socket_hears_the_reviews_progress_in_its_members_language(
    settings, monkeypatch
) -> None:
    """The replay of a game under review opens the game's socket with `?page=review`: each
    stored decision sends the progress line (and nothing seat-bound), and the last says the
    review is ready, in the member's language."""
    from games.bots import advice
    from games.models import Review
    from games.services import reviews

    settings.REVIEW_ITERATIONS = 2
    monkeypatch.setattr(services.common, "send_task", lambda task, args, countdown=0: None)

    @sync_to_async
    def finished_game() -> tuple[Game, Any]:
        alice, bob = make_user("alice"), make_user("bob")
        alice.language = "hu"
        alice.save(update_fields=["language"])
        game = play_random_moves(build_game(alice, bob, seed=7))
        reviews.request_review(game_id=game.pk)
        return game, alice

    game, alice = await finished_game()
    socket = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/?page=review")
    socket.scope["user"] = alice
    assert (await socket.connect())[0]
    real = advice.review_move
    reviewed: list[int] = []

    def two_then_stop(*args: Any, **kwargs: Any) -> Any:
        if len(reviewed) == 2:
            raise KeyboardInterrupt  # the worker dies after two decisions
        reviewed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(advice, "review_move", two_then_stop)
    try:
        with pytest.raises(KeyboardInterrupt):
            await sync_to_async(reviews.run_review)(game_id=game.pk)
        # One line per stored decision, each read when it is sent: the first may already
        # count the second decision.
        lines = [await socket.receive_from(timeout=10) for _ in range(2)]
        counts = [
            re.findall(rf"elemzi a játszmát: (\d+)\. lépés / {game.version}\.", x) for x in lines
        ]
        assert counts[0] in (["1"], ["2"]) and counts[1] == ["2"]
        assert all('id="review-progress"' in x and "game-board" not in x for x in lines)
        # The review is finished (here without searching: the rest is marked done).
        await sync_to_async(Review.objects.filter(game=game).update)(status="done")
        await announce(game)
        ready = await socket.receive_from(timeout=10)
        assert "Az elemzés elkészült." in ready and "review-link" in ready
    finally:
        await socket.disconnect()


# --- the move post and the mover's socket share one drawing (games/live.py: SharedBoards) ----


@sync_to_async
def post_first_move_as(game: Game, members: dict[int, Any]) -> tuple[int, str]:
    from django.test import Client
    from django.urls import reverse

    seat, move = first_legal_move(game)
    client = Client()
    client.force_login(members[seat])
    answer = client.post(
        reverse("games:move", args=[game.pk]),
        {"move": json.dumps(move), "expected_version": game.version},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    return seat, answer.content.decode()


@sync_to_async
def members_game(slug: str) -> tuple[Game, dict[int, Any]]:
    """A game of `slug` with as few members as it allows, one per seat."""
    engine = engines.get(slug)
    users = [make_user(f"{slug[:8]}-{n}") for n in range(engine.min_players)]
    return build_game(*users, engine=slug, seed=13), dict(enumerate(users))


@pytest.mark.parametrize("slug", [engine.slug for engine in engines.all()])
async def test_the_move_posts_answer_is_the_board_the_movers_socket_gets_drawn_once(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[tuple[int, int | None, str]] = []
    draw = live.render_board

    def counted(game: Game, position: int | None, language: str, recent: Any = None) -> str:
        drawn.append((game.revision, position, language))
        return draw(game, position, language, recent)

    monkeypatch.setattr(live, "render_board", counted)
    game, members = await members_game(slug)
    sockets = {seat: await connect(game.pk, user) for seat, user in members.items()}
    try:
        seat, answer = await post_first_move_as(game, members)
        boards = {s: await socket.receive_from(timeout=10) for s, socket in sockets.items()}
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    assert 'data-version="1"' in answer
    assert answer == boards[seat]
    # Every seat's view of move 1 was drawn once: the mover's for the answer and the socket
    # together, and each other seat's, which is its own.
    for other in members:
        assert drawn.count((1, other, "en")) == 1
        if other != seat:
            assert boards[other] != answer


def test_a_board_asked_for_while_it_is_drawn_waits_for_that_drawing() -> None:
    import threading

    boards = live.SharedBoards(keep=4)
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow() -> str:
        calls.append("drawn")
        started.set()
        release.wait(5)
        return "<section>board</section>"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(boards.draw("k", slow)))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=lambda: got.append(boards.draw("k", slow)))
    second.start()
    release.set()
    first.join(5)
    second.join(5)
    assert got == ["<section>board</section>"] * 2
    assert calls == ["drawn"]
    # Another key is another board.
    assert boards.draw("other", lambda: "<section>other</section>") == "<section>other</section>"


def test_a_board_whose_drawing_failed_is_drawn_again() -> None:
    boards = live.SharedBoards(keep=4)

    def broken() -> str:
        raise RuntimeError("the template failed")

    with pytest.raises(RuntimeError):
        boards.draw("k", broken)
    assert boards.draw("k", lambda: "<section>board</section>") == "<section>board</section>"


def test_only_the_latest_boards_are_kept() -> None:
    boards = live.SharedBoards(keep=2)
    for key in ("a", "b", "c"):
        boards.draw(key, lambda key=key: key)
    assert boards.draw("a", lambda: "drawn again") == "drawn again"
    assert boards.draw("c", lambda: "drawn again") == "c"


async def test_the_lobby_socket_stays_open_across_the_members_notifications() -> None:
    """Issue 33, item 7: the lobby socket listens in the member's group (for the end of the
    session), where the member's notifications are announced too. Each one used to raise "No
    handler for message type notification.created" and close the socket, so a change of the
    lobby announced meanwhile was lost. Held across several notifications, it stays open and
    still hears the lobby."""
    from accounts import services as member_services

    @sync_to_async
    def members() -> tuple[Any, Any]:
        return make_user("alice"), make_user("carol")

    alice, carol = await members()
    socket = WebsocketCommunicator(APP, "/ws/lobby/")
    socket.scope["user"] = carol
    assert (await socket.connect())[0]
    try:
        for n in range(3):
            await sync_to_async(member_services.notify)(user=carol, message=f"note {n}")
            await sync_to_async(member_services.mark_read)(user=carol, upto=n + 1)
        # Nothing is sent for a notification (the page's badge has its own socket).
        assert await socket.receive_nothing(timeout=0.5)
        game = await sync_to_async(waiting_game)(alice, players=3)
        hint = await socket.receive_from(timeout=10)
        assert 'id="lobby-signal"' in hint and str(game.pk) not in hint
    finally:
        await socket.disconnect()
