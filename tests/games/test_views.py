"""The game pages: alice and bob are seated, carol is not (a spectator)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import engines, services
from games.forms import CreateGameForm
from games.models import Game, Seat
from tests.games.conftest import play_random_moves, state_of, waiting_game

pytestmark = pytest.mark.django_db


ENGINE = engines.get("akropolis")
HTMX = {"HX-Request": "true"}
TAKE_0 = json.dumps({"type": "take_tile", "index": 0})
TAKE_3 = json.dumps({"type": "take_tile", "index": 3})


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game(make_game: Callable[..., Game], alice: User, bob: User) -> Game:
    return make_game(alice, bob)  # seed 7: alice (seat 0) moves first, with 1 stone


def post_move(user: User, game: Game, move: str, version: int, htmx: bool = True):  # noqa: ANN201
    headers = HTMX if htmx else {}
    return client_for(user).post(
        reverse("games:move", args=[game.pk]),
        {"move": move, "expected_version": version},
        headers=headers,
    )


def post_create(user: User, *seats: str, first_player: str = "listed", **extra: Any):  # noqa: ANN201
    """The lobby's create form as a browser posts it: every seat field is sent, and the
    ones past the player count say "open" (the form ignores them)."""
    data = {"engine_slug": "akropolis", "players": len(seats), "first_player": first_player}
    every_seat = range(CreateGameForm().max_seats)  # as many as the largest game has
    data |= {f"seat_{n}": seats[n] if n < len(seats) else "open" for n in every_seat}
    return client_for(user).post(reverse("games:create"), data | extra)


def assert_unchanged(game: Game) -> None:
    game.refresh_from_db()
    assert game.version == 0
    assert game.moves.count() == 0


# --- the play page ----------------------------------------------------------------------------


def test_player_to_move_sees_take_forms_and_the_others_do_not(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    url = reverse("games:play", args=[game.pk])
    mine = client_for(alice).get(url).content.decode()
    assert "Your turn." in mine
    assert mine.count('class="take-form"') == 2
    theirs = client_for(bob).get(url).content.decode()
    assert "take-form" not in theirs
    assert "Waiting for Alice." in theirs


def test_spectator_sees_the_board_read_only(game: Game, carol: User) -> None:
    response = client_for(carol).get(reverse("games:play", args=[game.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "You are watching this game." in page
    assert 'class="city-svg' in page
    assert "take-form" not in page and "place-form" not in page


def test_play_page_connects_the_game_socket(game: Game, alice: User) -> None:
    page = client_for(alice).get(reverse("games:play", args=[game.pk])).content.decode()
    assert f'ws-connect="/ws/games/{game.pk}/"' in page
    assert f'data-board-url="/games/{game.pk}/board/"' in page


def test_anonymous_visitor_is_sent_to_log_in(game: Game) -> None:
    response = Client().get(reverse("games:play", args=[game.pk]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


# --- moves ------------------------------------------------------------------------------------


def test_htmx_move_answers_with_the_new_board_partial(game: Game, alice: User) -> None:
    response = post_move(alice, game, TAKE_0, 0)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<section id="game-board"')
    assert 'data-version="1"' in body and 'data-phase="place"' in body
    assert 'class="place-form"' in body
    game.refresh_from_db()
    assert game.version == 1


def test_move_without_htmx_redirects_to_the_game(game: Game, alice: User) -> None:
    response = post_move(alice, game, TAKE_0, 0, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:play", args=[game.pk])


def test_spectator_may_not_move(game: Game, carol: User) -> None:
    for htmx in (True, False):
        response = post_move(carol, game, TAKE_0, 0, htmx=htmx)
        assert response.status_code == 403
        assert "You do not have a seat in this game." in response.content.decode()
    assert_unchanged(game)


@pytest.mark.parametrize(
    ("who", "move", "version", "message", "status"),
    [
        ("bob", TAKE_0, 0, "It is not your turn.", 409),
        ("alice", TAKE_0, 3, "The game has moved on since this page was loaded", 409),
        ("alice", TAKE_3, 0, "That tile costs 3 stones and you have 1.", 400),
        ("alice", "{not json", 0, "That move could not be read.", 400),
        ("alice", json.dumps(["take_tile", 0]), 0, "That move could not be read.", 400),
        (
            "alice",
            json.dumps({"type": "fly_away"}),
            0,
            "That is not a move this game understands.",
            400,
        ),
    ],
    ids=["wrong-seat", "stale", "illegal", "malformed-json", "not-an-object", "unknown-type"],
)
def test_bad_move_shows_the_reason_and_changes_nothing(
    game: Game, alice: User, bob: User, who: str, move: str, version: int, message: str, status: int
) -> None:
    user = alice if who == "alice" else bob
    response = post_move(user, game, move, version)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert 'class="message error move-error" role="alert"' in body
    assert message in body
    assert 'data-version="0"' in body
    assert_unchanged(game)

    page = post_move(user, game, move, version, htmx=False)
    assert page.status_code == status
    assert "<html" in page.content.decode() and message in page.content.decode()
    assert_unchanged(game)


def test_missing_move_number_is_a_clear_error(game: Game, alice: User) -> None:
    response = client_for(alice).post(
        reverse("games:move", args=[game.pk]), {"move": TAKE_0}, headers=HTMX
    )
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert_unchanged(game)


# --- hidden information -------------------------------------------------------------------------


def without_csrf(html: str) -> str:
    # CSRF tokens are masked afresh on every response.
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


def test_page_does_not_change_when_only_the_hidden_stacks_change(
    game: Game, alice: User, bob: User
) -> None:
    """A seat's page is built from its view alone: reordering the face-down stacks (which
    nobody may see) leaves every byte of every seat's page as it was."""
    clients = {"alice": client_for(alice), "bob": client_for(bob)}
    url = reverse("games:play", args=[game.pk])
    before = {name: without_csrf(c.get(url).content.decode()) for name, c in clients.items()}
    data = dict(game.state)
    data["stacks"] = [list(reversed(stack)) for stack in reversed(data["stacks"])]
    Game.objects.filter(pk=game.pk).update(state=data)
    after = {name: without_csrf(c.get(url).content.decode()) for name, c in clients.items()}
    assert before == after


def test_page_names_no_tile_of_the_face_down_stacks(game: Game, alice: User) -> None:
    page = client_for(alice).get(reverse("games:play", args=[game.pk])).content.decode()
    stacks = game.state["stacks"]
    assert json.dumps(stacks) not in page
    assert "data-tile" not in page and '"stacks"' not in page


# --- gap recovery -------------------------------------------------------------------------------


def shown_stamp(user: User, game: Game) -> str:
    page = client_for(user).get(reverse("games:play", args=[game.pk])).content.decode()
    match = re.search(r'id="game-board"[^>]*data-stamp="([^"]*)"', page)
    assert match, "the board carries its stamp"
    return match.group(1)


def test_board_endpoint_is_empty_when_the_browser_is_up_to_date(game: Game, alice: User) -> None:
    url = reverse("games:board", args=[game.pk])
    known = {"known": 0, "stamp": shown_stamp(alice, game)}
    assert client_for(alice).get(url, known, headers=HTMX).status_code == 204
    play_random_moves(game, count=1)
    response = client_for(alice).get(url, known, headers=HTMX)
    assert response.status_code == 200
    assert 'data-version="1"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_board_endpoint_sends_a_change_made_without_a_move(
    game: Game, alice: User, bob: User
) -> None:
    """A resignation keeps the move number: a browser that missed its live message must still
    get the new board when it asks (reconnecting after a drop)."""
    url = reverse("games:board", args=[game.pk])
    known = {"known": 0, "stamp": shown_stamp(alice, game)}
    services.resign(game_id=game.pk, user=bob)
    response = client_for(alice).get(url, known, headers=HTMX)
    assert response.status_code == 200
    assert "played by a bot" in response.content.decode()


@pytest.mark.parametrize("query", [{"known": "²"}, {"known": "9" * 5000}, {"known": "-1"}])
def test_board_endpoint_survives_odd_numbers(game: Game, alice: User, query: dict) -> None:
    response = client_for(alice).get(reverse("games:board", args=[game.pk]), query, headers=HTMX)
    assert response.status_code == 200
    assert 'data-version="0"' in response.content.decode()


# --- lobby --------------------------------------------------------------------------------------


def test_lobby_shows_my_games_with_whose_turn_it_is(game: Game, alice: User, bob: User) -> None:
    mine = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert "Your turn" in mine
    theirs = client_for(bob).get(reverse("games:lobby")).content.decode()
    # Issue 33, item 1: the member's own game says whom it waits for, the name a link.
    profile = reverse("accounts:member", args=["alice"])
    assert f'Waiting for <a href="{profile}">Alice</a>' in theirs


def test_create_a_game_against_a_bot_starts_it(alice: User) -> None:
    response = post_create(
        alice, "me", "hard", **{"akropolis-variants": ["houses"], "akropolis-long_game": "on"}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:play", args=[game.pk])
    assert game.status == Game.Status.RUNNING
    assert game.options["variants"] == ["houses"]
    assert game.options["long_game"] is True and game.options["lake_counts_as_edge"] is False
    assert [(s.user, s.bot_level) for s in game.seats.all()] == [(alice, ""), (None, "hard")]


def test_the_create_form_offers_each_games_own_options(alice: User) -> None:
    """The option fields come from games/catalog.py, grouped by game, so a new engine's
    options appear in the same lobby; only the chosen game's options reach its engine."""
    page = client_for(alice).get(reverse("games:lobby")).content.decode()
    group = re.search(
        r'<fieldset class="game-options" data-game="akropolis">.*?</fieldset>', page, re.S
    )
    assert group is not None
    for name in ("variants", "long_game", "lake_counts_as_edge", "lake_is_enclosed_region"):
        assert f'name="akropolis-{name}"' in group.group(0)
    assert 'value="gardens"' in group.group(0)


def test_a_long_game_for_four_is_refused_with_a_reason(alice: User) -> None:
    """games/akropolis.md 2.2: the long game is for 2 or 3 players only."""
    response = post_create(alice, "me", "easy", "easy", "easy", **{"akropolis-long_game": "on"})
    assert response.status_code == 400
    assert "These game options cannot be combined." in response.content.decode()
    assert not Game.objects.exists()


def test_create_rejects_two_seats_for_me(alice: User) -> None:
    response = post_create(alice, "me", "me")
    assert response.status_code == 400
    assert "You can take only one seat in a game." in response.content.decode()
    assert not Game.objects.exists()


def test_a_random_first_player_keeps_the_listed_clockwise_order(alice: User) -> None:
    """games/akropolis.md A13: the first player is drawn at random and the others follow
    clockwise, so the seats are rotated, never shuffled."""
    listed = ["me", "easy", "normal", "hard"]
    positions = set()
    for _ in range(30):
        response = post_create(alice, *listed, first_player="random")
        assert response.status_code == 302
        game = Game.objects.latest("pk")
        seats = list(game.seats.order_by("position"))
        mine = next(s.position for s in seats if s.user_id == alice.pk)
        positions.add(mine)
        # Reading clockwise from alice's seat gives the order she listed.
        clockwise = [seats[(mine + k) % 4] for k in range(4)]
        assert [s.bot_level for s in clockwise[1:]] == listed[1:]
    # 30 draws among 4 seats: all on one seat would happen with probability 4 * 4**-30.
    assert len(positions) > 1


def test_the_waiting_room_lists_seats_in_the_order_of_the_form(alice: User, bob: User) -> None:
    """The first player is drawn when the game starts: until then the seats keep the order
    the host gave, and after the draw the listed clockwise order still holds."""
    listed = ["me", "hard", "open", "easy"]
    for _ in range(12):
        response = post_create(alice, *listed, first_player="random")
        game = Game.objects.latest("pk")
        room = client_for(alice).get(f"/games/{game.pk}/join/").content.decode()
        order = [room.index(name) for name in ("Alice", "Hard bot", "Open seat", "Easy bot")]
        assert order == sorted(order), "the room lists the seats as the form had them"
        services.join_seat(game_id=game.pk, user=bob)
        seats = list(game.seats.order_by("position"))
        mine = next(s.position for s in seats if s.user_id == alice.pk)
        clockwise = [seats[(mine + k) % 4] for k in range(4)]
        assert [s.bot_level or s.user.username for s in clockwise] == [
            "alice",
            "hard",
            "bob",
            "easy",
        ]
        assert response.status_code == 302


def test_each_open_seat_names_the_bot_level_that_fills_it(alice: User) -> None:
    response = post_create(alice, "me", "open_hard", "open_easy", fill_after_minutes=15)
    assert response.status_code == 302
    game = Game.objects.get()
    seats = {s.position: s for s in game.seats.all()}
    assert (seats[1].fill_bot_level, seats[2].fill_bot_level) == ("hard", "easy")
    assert seats[1].is_open and seats[2].is_open
    wait = seats[1].fill_deadline - timezone.now()
    assert timedelta(minutes=14) < wait <= timedelta(minutes=15)


def test_invite_link_seats_the_guest_and_starts_the_game(alice: User, bob: User) -> None:
    post_create(alice, "me", "open")
    game = Game.objects.get()
    open_seat = game.seats.get(position=1)
    waiting = client_for(alice).get(reverse("games:join", args=[game.pk])).content.decode()
    assert f"?token={open_seat.invite_token}" in waiting
    guest = client_for(bob)
    invite = guest.get(reverse("games:join", args=[game.pk]), {"token": open_seat.invite_token})
    assert "Join this game" in invite.content.decode()
    response = guest.post(reverse("games:join", args=[game.pk]), {"token": open_seat.invite_token})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.seats.get(position=1).user == bob


def test_an_invited_seat_cannot_be_taken_with_an_empty_post(
    alice: User, bob: User, carol: User
) -> None:
    """Issue 10, defect 7: the seat waits for the holder of its link, and the game is not
    offered to the rest of the club."""
    post_create(alice, "me", "invite")
    game = Game.objects.get()
    invited = game.seats.get(position=1)
    lobby = client_for(carol).get(reverse("games:lobby")).content.decode()
    assert f'data-game="{game.pk}"' not in lobby
    room = client_for(carol).get(reverse("games:join", args=[game.pk])).content.decode()
    assert "Join this game" not in room
    response = client_for(carol).post(reverse("games:join", args=[game.pk]), follow=True)
    assert "invitation link" in response.content.decode()
    invited.refresh_from_db()
    assert invited.user is None
    client_for(bob).post(reverse("games:join", args=[game.pk]), {"token": invited.invite_token})
    invited.refresh_from_db()
    assert invited.user == bob


def test_the_waiting_room_refreshes_itself_and_moves_on_to_the_board_at_the_start(
    alice: User, bob: User, carol: User
) -> None:
    game = waiting_game(alice, players=3)
    room = reverse("games:join", args=[game.pk])
    services.join_seat(game_id=game.pk, user=bob)
    refreshed = client_for(alice).get(room, headers=HTMX)
    assert refreshed.status_code == 200
    assert "<html" not in refreshed.content.decode()  # only the room, swapped into the page
    assert 'id="waiting-room"' in refreshed.content.decode()
    assert "Bob" in refreshed.content.decode()  # the member who just sat down
    services.join_seat(game_id=game.pk, user=carol)  # the last seat: the game starts
    started = client_for(alice).get(room, headers=HTMX)
    assert started.headers["HX-Redirect"] == reverse("games:play", args=[game.pk])


def test_member_can_leave_before_the_start(alice: User, bob: User) -> None:
    post_create(alice, "me", "open")
    game = Game.objects.get()
    client_for(bob).post(reverse("games:join", args=[game.pk]))
    # The game started when bob sat down; alice creates another to test leaving.
    post_create(alice, "me", "open", "open")
    waiting = Game.objects.get(status=Game.Status.OPEN)
    client_for(bob).post(reverse("games:join", args=[waiting.pk]))
    response = client_for(bob).post(reverse("games:leave", args=[waiting.pk]))
    assert response.status_code == 302
    assert not Seat.objects.filter(game=waiting, user=bob).exists()


def test_a_game_everyone_left_is_no_longer_offered(alice: User, carol: User) -> None:
    game = waiting_game(alice)
    client_for(alice).post(reverse("games:leave", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    lobby = client_for(carol).get(reverse("games:lobby")).content.decode()
    assert f"#{game.pk}</a>" not in lobby
    page = client_for(carol).get(reverse("games:join", args=[game.pk]), follow=True)
    assert page.status_code == 200
    assert "Everyone left this game before it started." in page.content.decode()


# --- resign, history, replay, export, import ----------------------------------------------------


def test_resign_hands_the_seat_to_a_bot(game: Game, alice: User) -> None:
    response = client_for(alice).post(reverse("games:resign", args=[game.pk]))
    assert response.status_code == 302
    seat = game.seats.get(user=alice)
    assert seat.resigned and seat.is_bot
    page = client_for(alice).get(reverse("games:play", args=[game.pk])).content.decode()
    assert "take-form" not in page and "Your turn." not in page


def test_a_member_whose_seat_a_bot_took_over_can_take_it_back(
    game: Game, alice: User, bob: User, settings
) -> None:
    settings.TURN_TIMEOUT = 60
    services.take_over_timed_out_seats(now=timezone.now() + timedelta(minutes=5))
    page = client_for(alice).get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Take my seat back" in page
    assert (
        "Take my seat back"
        not in client_for(bob).get(reverse("games:play", args=[game.pk])).content.decode()
    )
    response = client_for(alice).post(reverse("games:reclaim_seat", args=[game.pk]), follow=True)
    assert "you play your seat again" in response.content.decode()
    assert not game.seats.get(user=alice).is_bot
    assert "Your turn." in response.content.decode()
    again = client_for(alice).post(reverse("games:reclaim_seat", args=[game.pk]), follow=True)
    assert "You already play this seat yourself." in again.content.decode()


def test_the_live_board_offers_the_seat_back_as_soon_as_a_bot_takes_it_over(
    game: Game, alice: User, settings
) -> None:
    """The socket's rendering (no request, no CSRF token) carries the reclaim-seat form too, so
    the member sees it without reloading; htmx posts it with the CSRF header from <body>."""
    from games import rendering

    settings.TURN_TIMEOUT = 60
    before = rendering.board_html(game=Game.objects.get(pk=game.pk), seat=0)
    assert "Take my seat back" not in before and "resign-form" in before
    services.take_over_timed_out_seats(now=timezone.now() + timedelta(minutes=5))
    live = rendering.board_html(game=Game.objects.get(pk=game.pk), seat=0)
    reclaim = reverse("games:reclaim_seat", args=[game.pk])
    assert f'hx-post="{reclaim}"' in live and "Take my seat back" in live
    assert "Take my seat back" not in rendering.board_html(
        game=Game.objects.get(pk=game.pk), seat=1
    )
    response = client_for(alice).post(reclaim, headers=HTMX)
    assert response["HX-Redirect"] == reverse("games:play", args=[game.pk])
    assert not game.seats.get(user=alice).is_bot


def test_replay_shows_the_board_after_move_k(game: Game, alice: User, carol: User) -> None:
    play_random_moves(game, count=4)
    game.refresh_from_db()
    moves = list(game.moves.order_by("number"))
    url = reverse("games:replay", args=[game.pk])
    for k in (0, 1, 2, 4):
        state = ENGINE.new_game(2, game.seed, game.options)
        for m in moves[:k]:
            state = ENGINE.apply_move(state, m.seat, m.payload)
        view = ENGINE.view(state, None)
        page = client_for(carol).get(url, {"move": k}).content.decode()
        assert f"After move {k} of 4" in page
        assert f'data-phase="{view["phase"]}"' in page
        for seat in (0, 1):
            city = re.search(
                rf'<svg class="city-svg[^"]*"[^>]*data-seat="{seat}">.*?</svg>', page, re.S
            )
            assert city is not None
            assert city.group(0).count('<g class="hex') == len(view["cities"][seat])
    partial = client_for(carol).get(url, {"move": 1}, headers=HTMX).content.decode()
    assert "<html" not in partial and 'id="replay"' in partial


def test_replay_of_a_running_game_keeps_to_the_players_own_seat(game: Game, alice: User) -> None:
    play_random_moves(game, count=1)
    page = client_for(alice).get(reverse("games:replay", args=[game.pk]), {"move": 1, "seat": 1})
    # Alice asked for bob's seat; she gets her own (seat 0 is drawn first as "mine").
    assert re.search(r'<figure class="city card mine" id="city-0">', page.content.decode())
    assert "Seen by" not in page.content.decode()


def test_history_export_and_import_of_a_finished_game(game: Game, alice: User, bob: User) -> None:
    play_random_moves(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    history = client_for(bob).get(reverse("games:history")).content.decode()
    assert f"Akropolis #{game.pk}" in history and reverse("games:replay", args=[game.pk]) in history

    # After the end every seat's view may be replayed, by anyone.
    replay = client_for(alice).get(reverse("games:replay", args=[game.pk]), {"seat": 1})
    assert '<figure class="city card mine" id="city-1">' in replay.content.decode()
    assert "Seen by" in replay.content.decode()

    final = client_for(bob).get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Final scores" in final and 'class="score-chart"' in final

    export = client_for(bob).get(reverse("games:export", args=[game.pk]))
    assert export["Content-Type"] == "application/json"
    assert "attachment" in export["Content-Disposition"]
    data = json.loads(export.content)
    assert len(data["moves"]) == game.version

    upload = SimpleUploadedFile("game.json", export.content, content_type="application/json")
    response = client_for(alice).post(reverse("games:import"), {"file": upload})
    imported = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:replay", args=[imported.pk])
    assert state_of(imported) == state_of(game)
    # The importer finds the imported game in their history, marked as such.
    history = client_for(alice).get(reverse("games:history")).content.decode()
    assert reverse("games:replay", args=[imported.pk]) in history
    assert re.search(rf'#{imported.pk}</a> <span class="badge">imported</span>', history)


def test_export_of_a_running_game_is_refused(game: Game, alice: User) -> None:
    response = client_for(alice).get(reverse("games:export", args=[game.pk]), follow=True)
    assert "Only a finished game can be exported." in response.content.decode()


def test_import_of_absurdly_nested_json_shows_why(alice: User) -> None:
    upload = SimpleUploadedFile("game.json", b"[" * 100_000 + b"]" * 100_000)
    response = client_for(alice).post(reverse("games:import"), {"file": upload})
    assert response.status_code == 400
    assert "This file is nested too deeply to be a game export" in response.content.decode()


def test_a_move_of_absurdly_nested_json_is_refused_with_a_reason(game: Game, alice: User) -> None:
    response = post_move(alice, game, "[" * 999 + "]" * 999, 0)
    assert response.status_code == 200
    assert "This move is nested too deeply (at most 32 levels" in response.content.decode()
    assert_unchanged(game)


def test_an_invitation_with_odd_characters_is_refused_politely(alice: User, bob: User) -> None:
    game = waiting_game(alice)
    response = client_for(bob).post(
        reverse("games:join", args=[game.pk]), {"token": "é"}, follow=True
    )
    assert response.status_code == 200
    assert "This invitation link is not valid for this game." in response.content.decode()
    assert game.seats.get(position=1).user is None


def test_import_of_a_broken_file_shows_why(alice: User) -> None:
    upload = SimpleUploadedFile("game.json", b"{broken", content_type="application/json")
    response = client_for(alice).post(reverse("games:import"), {"file": upload})
    assert response.status_code == 400
    assert "This file is not valid JSON." in response.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_fetches_its_lists_again_when_its_socket_says_so(alice: User, bob: User) -> None:
    """Issue 10, defect 3: the lobby page listens on /ws/lobby/; on a hint (or a reconnect)
    htmx fetches the lists alone, which show a game opened since the page was drawn."""
    page = client_for(bob).get(reverse("games:lobby")).content.decode()
    assert 'ws-connect="/ws/lobby/"' in page
    assert "htmx:wsAfterMessage from:#lobby-live" in page
    game = waiting_game(alice)
    lists = client_for(bob).get(reverse("games:lobby"), headers=HTMX).content.decode()
    assert "<html" not in lists and 'id="lobby-lists"' in lists
    assert f'data-game="{game.pk}"' in lists
    services.join_seat(game_id=game.pk, user=bob)
    lists = client_for(bob).get(reverse("games:lobby"), headers=HTMX).content.decode()
    assert "No game is waiting for players." in lists


@pytest.mark.parametrize("game_id", [0, 987_654, 2**63 - 1, 2**63, 10**30])
def test_a_game_that_is_not_there_is_not_found(alice: User, game_id: int) -> None:
    """No such game, whatever its number (one past the database's keys included): the page
    and a move posted to it answer "not found", never a server error."""
    client = client_for(alice)
    assert client.get(f"/games/{game_id}/").status_code == 404
    move = {"move": TAKE_0, "expected_version": 0}
    assert client.post(f"/games/{game_id}/move/", move, headers=HTMX).status_code == 404
