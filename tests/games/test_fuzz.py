"""Fuzzing the game pages: malformed moves on the four games' boards, and the lobby's forms
(create, join, leave, resign, reclaim a seat), the import and the pages' query strings,
from seated players, other seats, members of other games and visitors.

Every answer is a 4xx that says why or a redirect, never a 500; a move posted with htmx is
answered 200 with the board and its error (htmx swaps only 2xx answers, games/views/play.py).
Input that is refused changes no game, no seat and no move log.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games import engines, services
from games.engines.base import IllegalMove
from games.forms import SEAT_CHOICES, CreateGameForm
from games.models import Game
from tests.conftest import make_user
from tests.fuzzing import (
    FIELD,
    FUZZ,
    JSON,
    ONE_MB,
    RAW_BODY,
    TEXT,
    assert_answer,
    form_data,
    one_megabyte_form,
    post_any,
    snapshot,
)
from tests.games.conftest import build_game, play_random_moves, state_of

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

SLUGS = [engine.slug for engine in engines.all()]


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def move_shapes(slug: str) -> dict[str, list[str]]:
    """Each move type of the engine with its keys, as its legal moves spell them: collected
    along random playouts, so the fuzzer starts from the real vocabulary."""
    engine = engines.get(slug)
    shapes: dict[str, set[str]] = {}
    rng = random.Random(5)
    for seed in range(3):
        state = engine.new_game(max(engine.min_players, 2), seed=seed)
        while not engine.is_over(state):
            seat = rng.choice(engine.to_move(state))
            moves = engine.legal_moves(state, seat)
            for move in moves:
                shapes.setdefault(move["type"], set()).update(move)
            state = engine.apply_move(state, seat, rng.choice(moves))
    return {kind: sorted(keys - {"type"}) for kind, keys in shapes.items()}


def shaped_move(shapes: dict[str, list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    """A move of a known (or unknown) type whose keys are some of that type's own (others
    missing) and maybe strangers, each holding a value of the wrong kind or size."""

    def build(kind: str) -> st.SearchStrategy[dict[str, Any]]:
        keys = shapes.get(kind, [])
        known = st.dictionaries(st.sampled_from(keys), JSON) if keys else st.just({})
        extra = st.dictionaries(TEXT, JSON, max_size=2)
        return st.tuples(known, extra).map(lambda kv: {**kv[1], **kv[0], "type": kind})

    return (st.sampled_from(sorted(shapes)) | TEXT).flatmap(build)


def mutated(move: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A legal move with one thing wrong: a value replaced, a key dropped or a key added."""
    move = dict(move)
    keys = [k for k in move if k != "type"]
    how = data.draw(st.sampled_from(["replace", "drop", "add"] if keys else ["add"]))
    if how == "add":
        move[data.draw(TEXT)] = data.draw(JSON)
    else:
        key = data.draw(st.sampled_from(keys))
        if how == "drop":
            del move[key]
        else:
            move[key] = data.draw(JSON)
    return move


def accepted(game: Game, seat: int | None, move: Any) -> bool:
    """Whether the engine itself would take `move` from `seat` now (then the game changing
    is the point, not a fault)."""
    if seat is None or game.status != Game.Status.RUNNING or not isinstance(move, dict):
        return False
    engine = engines.get(game.engine_slug)
    state = state_of(game)
    if seat not in engine.to_move(state):
        return False
    try:
        engine.apply_move(state, seat, move)
    except IllegalMove:
        return False
    return True


@pytest.fixture
def dave(db: None) -> User:
    return make_user("dave", display_name="Dave")


def table(slug: str, *members: User) -> tuple[User, ...]:
    engine = engines.get(slug)
    return members[: max(engine.min_players, 2)]


@pytest.mark.parametrize("slug", SLUGS)
def test_malformed_moves_are_refused_and_change_nothing(
    slug: str, alice: User, bob: User, carol: User, dave: User
) -> None:
    players = table(slug, alice, bob, dave)
    running = play_random_moves(build_game(*players, engine=slug, seed=11), count=3, seed=2)
    finished = play_random_moves(build_game(*players, engine=slug, seed=12), seed=3)
    assert finished.status == Game.Status.FINISHED
    shapes = move_shapes(slug)
    clients = {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol)}
    clients["visitor"] = client_for(None)
    seat_of = {alice.pk: 0, bob.pk: 1}

    @FUZZ
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        game = data.draw(st.sampled_from([running, finished]))
        game.refresh_from_db()
        who = data.draw(st.sampled_from(sorted(clients)))
        user = {"alice": alice, "bob": bob}.get(who)
        seat = seat_of[user.pk] if user else None
        engine = engines.get(slug)
        state = state_of(game)
        legal = [
            move
            for s in ([] if engine.is_over(state) else engine.to_move(state))
            for move in engine.legal_moves(state, s)
        ]
        move_text = data.draw(
            shaped_move(shapes).map(json.dumps)
            | (
                st.sampled_from(legal).map(lambda m: json.dumps(mutated(m, data)))
                if legal
                else FIELD
            )
            | FIELD
        )
        form = {"move": move_text, "expected_version": str(game.version)}
        payload: Any = data.draw(
            st.just(form)
            | st.just({"move": move_text})
            | form_data(["move", "expected_version", "seat"]).map(lambda junk: {**form, **junk})
            | RAW_BODY
        )
        try:
            move = json.loads(payload["move"]) if isinstance(payload, dict) else None
        except (ValueError, TypeError, RecursionError):
            move = None
        legit = (
            isinstance(payload, dict)
            and payload.get("expected_version") == str(game.version)
            and accepted(game, seat, move)
        )
        htmx = data.draw(st.booleans())
        before = snapshot()
        response = post_any(clients[who], reverse("games:move", args=[game.pk]), payload, htmx=htmx)
        if legit:  # a well-formed legal move after all: it is played, and that is fine
            assert response.status_code in (200, 302)
            return
        assert_answer(response, form_page=htmx)
        assert snapshot() == before

    fuzz()


@pytest.mark.parametrize("slug", SLUGS)
def test_a_megabyte_move_is_refused(slug: str, alice: User, bob: User, dave: User) -> None:
    game = build_game(*table(slug, alice, bob, dave), engine=slug, seed=11)
    before = snapshot()
    huge = json.dumps({"type": "x" * ONE_MB})
    for htmx in (False, True):
        response = post_any(
            client_for(alice),
            reverse("games:move", args=[game.pk]),
            {"move": huge, "expected_version": "0"},
            htmx=htmx,
        )
        assert_answer(response, form_page=htmx)
        assert "That move could not be read" in response.content.decode() or (
            "Ensure this value has at most" in response.content.decode()
        )
    assert snapshot() == before


def unchanged_rows(before: dict[str, Any]) -> None:
    """The rows that existed before are as they were (new ones may have been added)."""
    after = snapshot()
    for table_name in ("games", "seats"):
        old = {row["id"]: row for row in before[table_name]}
        assert [r for r in after[table_name] if r["id"] in old] == list(old.values())
    assert set(before["moves"]) <= set(after["moves"])


def create_payloads(fields: list[str]) -> st.SearchStrategy[Any]:
    """Create forms that are nearly right (real games, seat kinds and counts, some fields
    then spoiled or dropped), besides junk of every kind."""
    nearly = st.fixed_dictionaries(
        {
            "engine_slug": st.sampled_from(SLUGS) | FIELD,
            "players": st.integers(0, 7).map(str) | FIELD,
            "first_player": st.sampled_from(["random", "listed"]) | FIELD,
        },
        optional={
            **{f"seat_{n}": st.sampled_from([k for k, _ in SEAT_CHOICES]) for n in range(6)},
            "fill_after_minutes": st.integers(-5, 10**6).map(str) | FIELD,
        },
    )
    spoiled = st.tuples(nearly, form_data(fields)).map(lambda p: {**p[0], **p[1]})
    return nearly | spoiled | form_data(fields) | RAW_BODY


def test_create_form_never_fails(alice: User, bob: User) -> None:
    build_game(alice, bob, seed=3)
    clients = [client_for(alice), client_for(None)]
    fields = list(CreateGameForm().fields)

    @FUZZ
    @given(client=st.sampled_from(clients), payload=create_payloads(fields), htmx=st.booleans())
    def fuzz(client: Client, payload: Any, htmx: bool) -> None:
        before = snapshot()
        response = post_any(client, reverse("games:create"), payload, htmx=htmx)
        assert_answer(response)
        if response.status_code >= 400:
            assert snapshot() == before
        else:  # a game was created after all; the existing ones are as they were
            unchanged_rows(before)

    fuzz()
    response = post_any(clients[0], reverse("games:create"), one_megabyte_form(fields))
    assert response.status_code == 400


def test_seat_forms_of_other_members_games_change_nothing(
    alice: User, bob: User, carol: User
) -> None:
    """Join, leave, resign and reclaim a seat, posted by members without that seat (and
    visitors) to a running game, a finished one and an open game whose free seat is
    invited: each is refused with a message or sent to the log-in page."""
    running = play_random_moves(build_game(alice, bob, seed=21), count=2)
    finished = play_random_moves(build_game(alice, bob, seed=22))
    invited = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "invite"}],
        created_by=alice,
        seed=23,
    )
    actions = ["games:join", "games:leave", "games:resign", "games:reclaim_seat"]
    # (client, games it has no business changing)
    who = [
        (client_for(carol), [running, finished, invited]),
        (client_for(None), [running, finished, invited]),
        (client_for(bob), [finished, invited]),
        (client_for(alice), [finished]),
    ]

    @FUZZ
    @given(
        pick=st.sampled_from(who).flatmap(
            lambda w: st.tuples(st.just(w[0]), st.sampled_from(w[1]))
        ),
        action=st.sampled_from(actions),
        payload=form_data(["token"]) | RAW_BODY,
        query=st.dictionaries(st.just("token") | TEXT, FIELD, max_size=2),
        htmx=st.booleans(),
    )
    def fuzz(pick: tuple[Client, Game], action: str, payload: Any, query: dict, htmx: bool) -> None:
        client, game = pick
        before = snapshot()
        url = reverse(action, args=[game.pk])
        # The waiting room joins with a plain form post (its htmx requests only fetch the
        # room again), and its refusals are messages shown on the next whole page.
        htmx = htmx and action != "games:join"
        headers = {"HX-Request": "true"} if htmx else {}
        if isinstance(payload, dict):
            response = client.post(url, payload, query_params=query, headers=headers)
        else:
            response = post_any(client, url, payload, htmx=htmx)
        # A refused join of an open game shows the waiting room again, with the reason.
        assert_answer(response, form_page=action == "games:join" and game is invited)
        assert snapshot() == before

    fuzz()


def exported(alice: User, bob: User) -> dict[str, Any]:
    game = play_random_moves(build_game(alice, bob, seed=31))
    return services.export_game(game=game)


def test_import_of_malformed_files_never_fails(alice: User, bob: User) -> None:
    original = exported(alice, bob)
    clients = [client_for(alice), client_for(None)]

    def damage(data: st.DataObject) -> bytes:
        doc = json.loads(json.dumps(original))
        for _ in range(data.draw(st.integers(1, 3))):
            target: Any = doc
            where = data.draw(st.sampled_from(["top", "seats", "moves", "scores"]))
            if where == "seats" and isinstance(doc.get("seats"), list) and doc["seats"]:
                target = data.draw(st.sampled_from(doc["seats"]))
            elif where == "moves" and isinstance(doc.get("moves"), list) and doc["moves"]:
                entry = data.draw(st.sampled_from(doc["moves"]))
                if isinstance(entry, dict):
                    target = entry if data.draw(st.booleans()) else entry.get("move", entry)
            elif where == "scores" and isinstance(doc.get("scores"), dict):
                target = doc["scores"]
            if not isinstance(target, dict) or not target:
                continue
            key = data.draw(st.sampled_from(sorted(target)) | TEXT)
            if data.draw(st.booleans()) and key in target:
                del target[key]
            else:
                target[key] = data.draw(JSON)
        return json.dumps(doc).encode()

    @FUZZ
    @given(data=st.data(), htmx=st.booleans())
    def fuzz(data: st.DataObject, htmx: bool) -> None:
        client = data.draw(st.sampled_from(clients))
        content = data.draw(
            st.binary(max_size=200)
            | JSON.map(lambda v: json.dumps(v).encode())
            | st.just(b"").map(lambda _: damage(data))
        )
        name = data.draw(st.sampled_from(["game.json", "x", "é😀.json", "../../etc/passwd"]))
        from django.core.files.uploadedfile import SimpleUploadedFile

        payload: Any = data.draw(
            st.just({"file": SimpleUploadedFile(name, content)}) | form_data(["file"]) | RAW_BODY
        )
        before = snapshot()
        response = post_any(client, reverse("games:import"), payload, htmx=htmx)
        assert_answer(response)
        if response.status_code >= 400:
            assert snapshot() == before
        else:
            unchanged_rows(before)

    fuzz()


def test_import_of_a_megabyte_of_junk_is_refused(alice: User) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = snapshot()
    for content in (b"[" + b"1," * (ONE_MB // 2) + b"1]", b"\xff" * ONE_MB, b"x" * (3 * ONE_MB)):
        upload = SimpleUploadedFile("game.json", content)
        response = client_for(alice).post(reverse("games:import"), {"file": upload})
        assert_answer(response)
        assert response.status_code == 400
    assert snapshot() == before


def test_query_strings_of_the_game_pages_never_fail(alice: User, bob: User, carol: User) -> None:
    running = play_random_moves(build_game(alice, bob, seed=41), count=4)
    finished = play_random_moves(build_game(alice, bob, seed=42))
    pages = ["games:play", "games:board", "games:replay", "games:export", "games:join"]
    clients = [client_for(alice), client_for(carol), client_for(None)]

    @FUZZ
    @given(
        client=st.sampled_from(clients),
        game=st.sampled_from([running, finished]),
        page=st.sampled_from(pages + ["games:lobby", "games:history", "games:import"]),
        query=st.dictionaries(
            st.sampled_from(["known", "stamp", "move", "seat", "token"]) | TEXT, FIELD, max_size=3
        ),
        htmx=st.booleans(),
    )
    def fuzz(client: Client, game: Game, page: str, query: dict, htmx: bool) -> None:
        url = reverse(page, args=[game.pk]) if page in pages else reverse(page)
        before = snapshot()
        response = client.get(url, query, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code < 500
        assert snapshot() == before

    fuzz()
