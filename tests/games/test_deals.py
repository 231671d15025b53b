"""Deals anyone can verify (DESIGN.md principle 11, games/deals.py): a commitment to the seed
from the start, the seed and salt revealed at the end, and never before."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.db import connections
from django.test import Client
from django.urls import reverse

from games import broadcast, engines, services
from games.models import Game
from games.routing import websocket_urlpatterns
from tests.conftest import make_user
from tests.games.conftest import build_game, first_legal_move, play_random_moves

# Fifteen digits: a number this long does not turn up in a page by chance.
SEED = 730912648205531
ENGINE_SLUGS = [engine.slug for engine in engines.all()]


def sha256_of(seed: int | str, salt: str) -> str:
    """The byte format games/deals.py documents: the seed in decimal, a colon, the salt."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def shown(html: str, name: str) -> str:
    found = re.findall(rf'<code class="deal-{name}">([^<]*)</code>', html)
    assert len(set(found)) == 1, f"one {name} on the page, found {found}"
    return found[0]


def secrets_of(game: Game) -> list[str]:
    game.refresh_from_db()
    assert game.salt, "a game created in the lobby has a salt"
    return [str(game.seed), game.salt]


@pytest.fixture
def finished(make_game, alice, quick_bots) -> Game:
    game = play_random_moves(make_game(alice, "easy", seed=SEED))
    services.finish_game(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the commitment -----------------------------------------------------------------------


def test_a_new_games_commitment_is_the_sha256_of_its_seed_and_a_secret_salt(make_game, alice):
    game = make_game(alice, "easy", seed=SEED)
    assert re.fullmatch(r"[0-9a-f]{32}", game.salt)
    assert game.commitment == sha256_of(SEED, game.salt)
    other = make_game(alice, "easy", seed=SEED)
    # The salt is drawn per game: the same seed gives another commitment.
    assert other.salt != game.salt and other.commitment != game.commitment


def test_a_finished_game_verifies(finished) -> None:
    check = services.verify_deal(game=finished)
    assert check.committed and check.commitment_holds and check.replays and check.ok
    assert check.moves == finished.version > 0


def test_a_changed_seed_fails_verification(finished) -> None:
    Game.objects.filter(pk=finished.pk).update(seed=SEED + 1)
    finished.refresh_from_db()
    check = services.verify_deal(game=finished)
    assert check.commitment_holds is False
    # Dealt from another seed, the game is another game: the replay fails too.
    assert not check.replays
    assert not check.ok


def test_a_changed_salt_fails_verification(finished) -> None:
    Game.objects.filter(pk=finished.pk).update(salt="0" * 32)
    finished.refresh_from_db()
    check = services.verify_deal(game=finished)
    assert check.commitment_holds is False
    assert not check.ok


def test_a_changed_commitment_fails_verification(finished) -> None:
    Game.objects.filter(pk=finished.pk).update(commitment=sha256_of(SEED + 1, finished.salt))
    finished.refresh_from_db()
    assert not services.verify_deal(game=finished).ok


def test_the_commitment_shown_while_running_is_the_one_revealed_at_the_end(
    make_game, alice, quick_bots
) -> None:
    game = play_random_moves(make_game(alice, "easy", seed=SEED), count=4)
    client = signed_in(alice)
    running = client.get(reverse("games:play", args=[game.pk])).content.decode()
    before = shown(running, "commitment")
    play_random_moves(game)
    services.finish_game(game_id=game.pk)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert shown(page, "commitment") == before
    seed, salt = shown(page, "seed"), shown(page, "salt")
    assert seed == str(SEED)
    assert sha256_of(seed, salt) == before
    # The replay and the verify page reveal the same.
    replay = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert (shown(replay, "seed"), shown(replay, "salt")) == (seed, salt)
    assert reverse("games:verify", args=[game.pk]) in page


def test_the_export_reveals_seed_salt_and_commitment_of_a_finished_game(finished) -> None:
    data = services.export_game(game=finished)
    assert data["seed"] == SEED
    assert data["commitment"] == sha256_of(data["seed"], data["salt"]) == finished.commitment


# --- the seed never leaves the server while the game runs ---------------------------------


def running_pages(game: Game, seated: Any, watcher: Any) -> dict[str, str]:
    """Every page and fragment a member can fetch of a running game, seated and watching."""
    pages: dict[str, str] = {}
    htmx = {"HX-Request": "true"}
    urls = {
        "play": reverse("games:play", args=[game.pk]),
        "board": reverse("games:board", args=[game.pk]),
        "replay": reverse("games:replay", args=[game.pk]),
        "replay at move 1": reverse("games:replay", args=[game.pk]) + "?move=1&seat=1",
        "export": reverse("games:export", args=[game.pk]),
        "review.json": reverse("games:review_json", args=[game.pk]),
        "verify": reverse("games:verify", args=[game.pk]),
        "hint status": reverse("games:hint_status", args=[game.pk]),
        "join": reverse("games:join", args=[game.pk]),
        "history": reverse("games:history"),
        "lobby": reverse("games:lobby"),
        "club": reverse("home"),
        "notifications": reverse("accounts:notifications"),
        "profile": reverse("accounts:member", args=[seated.username]),
    }
    for who, user in (("seated", seated), ("watching", watcher)):
        client = signed_in(user)
        for name, url in urls.items():
            for kind, headers in (("page", {}), ("fragment", htmx)):
                answer = client.get(url, headers=headers, follow=True)
                assert answer.status_code < 500, (name, answer.status_code)
                pages[f"{name} ({who}, {kind})"] = answer.content.decode()
    # The answer to a move post: the mover's fresh board.
    game.refresh_from_db()
    engine = engines.get(game.engine_slug)
    state = engine.load(game.state)
    members = {s.position: s.user for s in game.seats.all() if s.user_id is not None}
    seat = next(s for s in engine.to_move(state) if s in members)
    answer = signed_in(members[seat]).post(
        reverse("games:move", args=[game.pk]),
        {"move": json.dumps(engine.legal_moves(state, seat)[0]), "expected_version": game.version},
        headers=htmx,
    )
    assert answer.status_code == 200
    pages["move answer"] = answer.content.decode()
    return pages


@pytest.mark.parametrize("slug", ENGINE_SLUGS)
def test_no_page_or_fragment_of_a_running_game_holds_its_seed_or_salt(db, slug) -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    engine = engines.get(slug)
    players = [alice, bob] + ["easy"] * (engine.min_players - 2)
    game = play_random_moves(build_game(*players, engine=slug, seed=SEED), count=3)
    assert game.status == Game.Status.RUNNING
    secrets = secrets_of(game)
    pages = running_pages(game, alice, carol)
    pages.update({f"{k} (bob)": v for k, v in running_pages(game, bob, carol).items()})
    assert game.commitment in pages["play (seated, page)"]
    for name, html in pages.items():
        for secret in secrets:
            assert secret not in html, f"{name} shows {secret}"


def test_the_admin_hides_a_running_games_seed_salt_and_state(make_game, alice, admin_client):
    game = play_random_moves(make_game(alice, "easy", seed=SEED), count=3)
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for secret in secrets_of(game):
        assert secret not in html
    assert game.commitment in html


APP = URLRouter(websocket_urlpatterns)


@pytest.mark.django_db(transaction=True)
async def test_no_socket_message_of_a_running_game_holds_its_seed_or_salt() -> None:
    @sync_to_async
    def setting_up() -> tuple[Game, Any, Any, list[str]]:
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        game = build_game(alice, bob, seed=SEED)
        return game, alice, carol, secrets_of(game)

    @sync_to_async
    def announce() -> None:
        game.refresh_from_db()
        broadcast.notify_game_changed(game.pk, game.version)

    @sync_to_async
    def move() -> None:
        game.refresh_from_db()
        seat, payload = first_legal_move(game)
        services.play_move(game_id=game.pk, seat=seat, move=payload, expected_version=game.version)

    game, alice, carol, secrets = await setting_up()
    sockets = []
    try:
        for user, query in (
            (alice, ""),
            (carol, ""),
            (alice, "?page=review"),
            (carol, "?page=room"),
        ):
            socket = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/{query}")
            socket.scope["user"] = user
            assert (await socket.connect())[0]
            sockets.append(socket)
        await announce()
        first = [await socket.receive_from(timeout=10) for socket in sockets]
        await move()
        after = [await socket.receive_from(timeout=10) for socket in sockets]
    finally:
        for socket in sockets:
            await socket.disconnect()
        await sync_to_async(connections.close_all)()
    assert game.commitment in first[0] and 'data-version="1"' in after[0]
    for message in first + after:
        for secret in secrets:
            assert secret not in message


# --- verify_game and the verify page -------------------------------------------------------


def test_verify_game_prints_success_for_a_finished_game(finished, capsys) -> None:
    call_command("verify_game", finished.pk)
    out = capsys.readouterr().out
    assert f"seed: {SEED}" in out and f"salt: {finished.salt}" in out
    assert f"The deal of game {finished.pk} verifies." in out


def test_verify_game_fails_for_a_tampered_seed(finished, capsys) -> None:
    Game.objects.filter(pk=finished.pk).update(seed=SEED + 2)
    with pytest.raises(CommandError, match="does not verify"):
        call_command("verify_game", finished.pk)
    assert "FAILED" in capsys.readouterr().out


def test_verify_game_keeps_a_running_games_seed_to_itself(make_game, alice, capsys) -> None:
    game = play_random_moves(make_game(alice, "easy", seed=SEED), count=3)
    call_command("verify_game", game.pk)
    out = capsys.readouterr().out
    assert game.commitment in out
    for secret in secrets_of(game):
        assert secret not in out


# The page's verdicts in each language, as locale/<lang>/LC_MESSAGES/django.po words them.
VERIFIED = {
    "en": "Verified: the seed and the salt give the commitment shown from the start.",
    "hu": "Ellenőrizve: a mag és a só a kezdettől mutatott elkötelezést adja.",
    "pl": "Zweryfikowano: ziarno i sól dają zobowiązanie pokazane od początku.",
}
NOT_VERIFIED = {
    "en": "Not verified: the seed and the salt do not give the commitment shown from the start.",
    "hu": "Nincs ellenőrizve: a mag és a só nem a kezdettől mutatott elkötelezést adja.",
    "pl": "Nie zweryfikowano: ziarno i sól nie dają zobowiązania pokazanego od początku.",
}


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_the_verify_page_says_the_deal_holds_in_the_readers_language(finished, language) -> None:
    reader = make_user("reader", language=language)
    page = signed_in(reader).get(reverse("games:verify", args=[finished.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert f'<html lang="{language}">' in html
    assert VERIFIED[language] in html
    assert shown(html, "recomputed") == finished.commitment
    assert (shown(html, "seed"), shown(html, "salt")) == (str(SEED), finished.salt)


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_the_verify_page_says_a_changed_salt_fails_in_the_readers_language(
    finished, language
) -> None:
    Game.objects.filter(pk=finished.pk).update(salt="f" * 32)
    reader = make_user("reader", language=language)
    html = signed_in(reader).get(reverse("games:verify", args=[finished.pk])).content.decode()
    assert NOT_VERIFIED[language] in html
    assert VERIFIED[language] not in html


def test_an_imported_game_replays_but_says_no_commitment_was_shown(finished, bob) -> None:
    copy = services.import_game(data=services.export_game(game=finished), user=bob)
    assert (copy.salt, copy.commitment) == ("", "")
    check = services.verify_deal(game=copy)
    assert check.commitment_holds is None and check.replays and check.ok
    html = signed_in(bob).get(reverse("games:verify", args=[copy.pk])).content.decode()
    assert "no commitment was shown before the game" in html
    assert shown(html, "seed") == str(SEED)


def test_the_admin_shows_a_running_games_moves_without_what_they_chose(
    make_game, alice, admin_client
):
    """A move may hold a choice made in secret (an offer, a card kept back): the admin's move
    page shows it only once the game is finished, as with the game's seed and state."""
    game = play_random_moves(make_game(alice, "easy", seed=SEED), count=3)
    move = game.moves.order_by("number").first()
    url = reverse("admin:games_move_change", args=[move.pk])
    html = admin_client.get(url).content.decode()
    assert 'class="form-row field-seat' in html  # the move's page, with its public fields
    assert "field-payload" not in html
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert "field-payload" in admin_client.get(url).content.decode()
