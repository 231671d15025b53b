"""Taking back a step through the one move path run backwards (DESIGN.md principle 8)."""

from __future__ import annotations

import html
import json
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games import engines, services
from games.engines.base import Engine, turn_goes_on
from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import build_game, state_of
from tests.games.engines.test_take_back import playout

TAKING_BACK = ["babylon", "hanging-gardens", "tower-of-babel"]
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def members(count: int) -> list[User]:
    return [User.objects.filter(username=name).first() or make_user(name) for name in NAMES[:count]]


def canonical(data: Any) -> str:
    """The state's JSON, byte for byte; keys sorted, because PostgreSQL's jsonb keeps its
    own key order."""
    return json.dumps(data, sort_keys=True)


def step_goes_on(engine: Engine, before: Any, seat: int, move: dict) -> bool:
    """The rule of principle 8 for the last step, from the engine's own answers: the seat is
    still to move after it (the same turn) and it showed nothing hidden."""
    after = engine.apply_move(before, seat, move)
    return turn_goes_on(engine, after, seat) and not engine.reveals(before, seat, move)


def play_through_the_site(game: Game, steps: list[tuple[Any, int, dict]]) -> None:
    for number, (_, seat, move) in enumerate(steps):
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=number)


@pytest.mark.parametrize("slug", TAKING_BACK)
@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_step_that_may_be_taken_back_restores_the_state_and_no_other_can_be(
    db: None, slug: str, data: st.DataObject
) -> None:
    engine = engines.get(slug)
    players = data.draw(st.integers(engine.min_players, engine.max_players), label="players")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    played = playout(engine, seed, players, steps=70)
    # Mostly end on a step after which the same seat moves on: the interesting case.
    ends = [
        i + 1
        for i, (b, s, m) in enumerate(played)
        if s in engine.to_move(engine.apply_move(b, s, m))
    ]
    cut = data.draw(
        st.sampled_from(ends or [len(played)]) | st.integers(1, len(played)), label="cut"
    )
    game = build_game(*members(players), engine=slug, seed=seed)
    play_through_the_site(game, played[:cut])
    log = played[:cut]
    while log:
        before, last_seat, move = log[-1]
        allowed = step_goes_on(engine, before, last_seat, move)
        for seat in range(players):
            game.refresh_from_db()
            stored, version = canonical(game.state), game.version
            if seat == last_seat and allowed:
                continue
            # Another seat's step, or one that showed something or ended the turn: refused,
            # and nothing changes.
            with pytest.raises(services.GameError) as refused:
                services.take_back_step(game_id=game.pk, seat=seat, expected_version=version)
            if seat != last_seat:
                assert refused.value.code == "nothing_to_take_back"
            elif turn_goes_on(engine, engine.apply_move(before, last_seat, move), seat):
                assert refused.value.code == "cannot_take_back_step_revealed"
            else:
                assert refused.value.code == "cannot_take_back_turn_passed"
            game.refresh_from_db()
            assert (canonical(game.state), game.version) == (stored, version)
        if not allowed:
            break
        services.take_back_step(game_id=game.pk, seat=last_seat, expected_version=len(log))
        log.pop()
        game.refresh_from_db()
        assert canonical(game.state) == canonical(engine.dump(before))
        assert game.version == len(log) == game.moves.count()
        assert services.audit_game(game=game) == []


def a_double_turn(engine: Engine) -> tuple[int, list[tuple[Any, int, dict]]]:
    """A random Tower of Babel game (the first seed that has one) up to a Double turn played
    (§3.4), the one step of that game that shows nothing and keeps the turn."""
    for seed in range(200):
        played = playout(engine, seed, 3, steps=400)
        for i, (_, _, move) in enumerate(played):
            if move["type"] == "double_turn":
                return seed, played[: i + 1]
    raise AssertionError("no Double turn in 200 random games")


def test_a_double_turn_of_tower_of_babel_can_be_taken_back(db: None) -> None:
    engine = engines.get("tower-of-babel")
    seed, played = a_double_turn(engine)
    game = build_game(*members(3), engine="tower-of-babel", seed=seed)
    play_through_the_site(game, played)
    before, seat, _ = played[-1]
    services.take_back_step(game_id=game.pk, seat=seat, expected_version=len(played))
    game.refresh_from_db()
    assert canonical(game.state) == canonical(engine.dump(before))
    assert engine.load(game.state).phase == "double_turn"  # the window is open again
    # The step before it opened that window, which showed the card: it stays.
    with pytest.raises(services.GameError) as refused:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=len(played) - 1)
    assert refused.value.code == "cannot_take_back_step_revealed"


def babylon_after_a_build(*players: User | str) -> tuple[Game, int, str]:
    """A Babylon game whose seat to move has just built a tile after its dig (a step that
    may be taken back): the game, that seat, and the stored state before the build."""
    engine = engines.get("babylon")
    game = build_game(*players, engine="babylon", seed=3)
    while True:
        state = state_of(game)
        stored = canonical(game.state)
        seat = engine.to_move(state)[0]
        moves = engine.legal_moves(state, seat)
        place = next((m for m in moves if m["type"] == "place"), None)
        move = place or moves[0]
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)
        if place is not None:
            game.refresh_from_db()
            return game, seat, stored


def test_the_board_goes_back_live_and_bots_are_sent_again(
    db: None, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    announced: list[tuple[int, int]] = []
    monkeypatch.setattr(
        services.common.broadcast, "notify_game_changed", lambda g, v: announced.append((g, v))
    )
    revision = game.revision
    with django_capture_on_commit_callbacks(execute=True):
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=game.version)
    game.refresh_from_db()
    # One more change of the board, though the move number went back by one.
    assert game.revision == revision + 1
    assert announced == [(game.pk, revision + 1)]


def test_a_member_whose_seat_a_bot_plays_cannot_take_back(db: None) -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    game.seats.filter(position=seat).update(bot_level="normal", bot_took_over=True)
    with pytest.raises(services.GameError) as refused:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=game.version)
    assert refused.value.code == "bot_seat"


def test_a_step_a_bot_played_cannot_be_taken_back(db: None) -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    game.moves.filter(number=game.version - 1).update(by_bot=True)
    with pytest.raises(services.GameError) as refused:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=game.version)
    assert refused.value.code == "nothing_to_take_back"


def test_an_akropolis_move_cannot_be_taken_back(db: None) -> None:
    alice, bob = members(2)
    game = build_game(alice, bob, engine="akropolis", seed=5)
    engine = engines.get("akropolis")
    state = state_of(game)
    seat = engine.to_move(state)[0]
    services.play_move(
        game_id=game.pk, seat=seat, move=engine.legal_moves(state, seat)[0], expected_version=0
    )
    with pytest.raises(services.GameError) as refused:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=1)
    # Said as it is: Akropolis has no steps to take back, a move is the whole turn.
    assert refused.value.code == "cannot_take_back_whole_turns"
    assert game.moves.count() == 1


# --- races: real threads, each with its own connection ------------------------------------------


def race(*calls: Any) -> list[str]:
    """Run the calls at the same moment from threads with their own database connections;
    on PostgreSQL the row lock serialises them, on SQLite BEGIN IMMEDIATE does."""
    start = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call: Any) -> None:
        start.wait()
        try:
            call()
            outcomes.append("done")
        except services.GameError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


def consistent_history(game: Game) -> None:
    """Exactly one history: numbered without gaps, replaying to the stored state."""
    game.refresh_from_db()
    assert list(game.moves.values_list("number", flat=True)) == list(range(game.version))
    assert services.audit_game(game=game) == []


@pytest.mark.django_db(transaction=True)
def test_two_take_backs_at_once_take_back_one_step() -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    version = game.version

    def take_back() -> None:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=version)

    assert race(take_back, take_back) == ["done", "stale"]
    consistent_history(game)
    assert game.version == version - 1
    assert canonical(game.state) == before


@pytest.mark.django_db(transaction=True)
def test_a_take_back_racing_the_next_step_leaves_one_history() -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    engine = engines.get("babylon")
    version = game.version
    next_step = engine.legal_moves(state_of(game), seat)[-1]

    def take_back() -> None:
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=version)

    def play_on() -> None:
        services.play_move(game_id=game.pk, seat=seat, move=next_step, expected_version=version)

    assert race(take_back, play_on) == ["done", "stale"]
    consistent_history(game)
    if game.version == version - 1:  # the take-back came first: the build is gone
        assert canonical(game.state) == before
    else:
        assert game.version == version + 1
        assert game.moves.get(number=version).payload == next_step


# --- the page: the button, and what a post answers ----------------------------------------------

HTMX = {"HX-Request": "true"}


def client_for(user: User, language: str = "en") -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def board_of(client: Client, game: Game) -> str:
    return client.get(reverse("games:board", args=[game.pk])).content.decode()


def take_back_url(game: Game) -> str:
    return reverse("games:take_back_step", args=[game.pk])


@pytest.mark.parametrize(
    ("language", "label"), [("en", "Take back"), ("hu", "Visszavonás"), ("pl", "Cofnij")]
)
def test_the_take_back_button_is_shown_to_the_member_whose_step_it_was(
    db: None, language: str, label: str
) -> None:
    alice, bob, carol = members(3)
    game, seat, _ = babylon_after_a_build(alice, bob)
    mover, other = (alice, bob) if seat == 0 else (bob, alice)
    assert label in board_of(client_for(mover, language), game)
    assert take_back_url(game) not in board_of(client_for(other, language), game)
    assert take_back_url(game) not in board_of(client_for(carol, language), game)


def test_no_button_after_a_step_that_cannot_be_taken_back(db: None) -> None:
    alice, bob = members(2)
    game = build_game(alice, bob, engine="akropolis", seed=5)
    engine = engines.get("akropolis")
    for _ in range(4):  # two turns each: each the whole turn, in one move
        state = state_of(game)
        seat = engine.to_move(state)[0]
        move = engine.legal_moves(state, seat)[0]
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)
        game.refresh_from_db()
        for member in (alice, bob):
            assert take_back_url(game) not in board_of(client_for(member), game)


def test_taking_back_answers_the_board_as_it_was(db: None) -> None:
    alice, bob = members(2)
    game, seat, before = babylon_after_a_build(alice, bob)
    mover = alice if seat == 0 else bob
    client = client_for(mover)
    revision = game.revision
    response = client.post(take_back_url(game), {"expected_version": game.version}, headers=HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    assert f'data-version="{revision + 1}"' in body
    game.refresh_from_db()
    assert canonical(game.state) == before


@pytest.mark.parametrize("expected", ["", "abc", "-1", "99999999999999999999", "1.5"])
def test_a_take_back_with_a_garbled_move_number_changes_nothing(db: None, expected: str) -> None:
    alice, bob = members(2)
    game, seat, _ = babylon_after_a_build(alice, bob)
    client = client_for(alice if seat == 0 else bob)
    version = game.version
    response = client.post(take_back_url(game), {"expected_version": expected})
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_member_without_a_seat_cannot_take_back(db: None) -> None:
    alice, bob, carol = members(3)
    game, _, _ = babylon_after_a_build(alice, bob)
    response = client_for(carol).post(take_back_url(game), {"expected_version": game.version})
    assert response.status_code == 403


# --- the live board: a spectator's socket ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_spectators_socket_gets_the_board_as_it_was_after_the_newer_one() -> None:
    from tests.games.test_consumers import connect

    @sync_to_async
    def prepare() -> tuple[Game, int, dict, User]:
        alice, bob, carol = members(3)
        game, seat, _ = babylon_after_a_build(alice, bob)
        build = game.moves.get(number=game.version - 1).payload
        services.take_back_step(game_id=game.pk, seat=seat, expected_version=game.version)
        game.refresh_from_db()
        return game, seat, build, carol

    game, seat, build, carol = await prepare()
    moves = game.version
    socket = await connect(game.pk, carol)
    try:
        await sync_to_async(services.play_move)(
            game_id=game.pk, seat=seat, move=build, expected_version=moves
        )
        built = await socket.receive_from(timeout=10)
        assert f"Moves played: {moves + 1}" in built
        await sync_to_async(services.take_back_step)(
            game_id=game.pk, seat=seat, expected_version=moves + 1
        )
        # A board with fewer moves, yet newer: it carries the next revision, and is sent.
        back = await socket.receive_from(timeout=10)
        assert f"Moves played: {moves}" in back
        assert f'data-version="{game.revision + 2}"' in back
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "each move is a whole turn"),
        ("hu", "minden lépés egy teljes kör"),
        ("pl", "każdy ruch to cała tura"),
    ],
)
def test_a_refused_take_back_in_akropolis_says_why_in_the_members_language(
    db: None, language: str, reason: str
) -> None:
    # Akropolis hides nothing: the refusal must not say a step "showed something hidden".
    alice, bob = members(2)
    game = build_game(alice, bob, engine="akropolis", seed=5)
    engine = engines.get("akropolis")
    state = state_of(game)
    seat = engine.to_move(state)[0]
    services.play_move(
        game_id=game.pk, seat=seat, move=engine.legal_moves(state, seat)[0], expected_version=0
    )
    client = client_for(alice if seat == 0 else bob, language)
    # htmx swaps only 2xx answers: the reason is shown inside the fresh board.
    response = client.post(take_back_url(game), {"expected_version": 1}, headers=HTMX)
    assert reason in html.unescape(response.content.decode())
    assert game.moves.count() == 1


def test_choosing_a_disc_in_tower_of_babel_can_be_taken_back_until_an_offer_is_in(
    db: None,
) -> None:
    # Issue 34 item 2: choosing the disc to build shows nothing (§2.4 step 1), and the
    # builder's turn goes on while the others offer; until one of them has, it may go back.
    engine = engines.get("tower-of-babel")
    players = members(3)
    game = build_game(*players, engine="tower-of-babel", seed=11)
    state = state_of(game)
    builder = engine.to_move(state)[0]
    build = next(m for m in engine.legal_moves(state, builder) if m["type"] == "build")
    services.play_move(game_id=game.pk, seat=builder, move=build, expected_version=0)
    page = board_of(client_for(players[builder]), game)
    assert take_back_url(game) in page and "Waiting for" in page
    services.take_back_step(game_id=game.pk, seat=builder, expected_version=1)
    game.refresh_from_db()
    assert canonical(game.state) == canonical(engine.dump(state))

    # Chosen again, and an offer comes in: the builder's step is no longer the last one.
    services.play_move(game_id=game.pk, seat=builder, move=build, expected_version=0)
    after = state_of(game)
    offerer = engine.to_move(after)[0]
    offer = engine.legal_moves(after, offerer)[0]
    services.play_move(game_id=game.pk, seat=offerer, move=offer, expected_version=1)
    with pytest.raises(services.GameError) as refused:
        services.take_back_step(game_id=game.pk, seat=builder, expected_version=2)
    assert refused.value.code == "nothing_to_take_back"
    assert take_back_url(game) not in board_of(client_for(players[builder]), game)
