"""The hint (games/services/hints.py): issue 31 item 2 (computed by the heavy worker, never in
the request; limits a club would set) and issue 32's "one hint, one answer" (computed once per
position and kept: the same move in words and on the board; gone once the position changes or
the game ends)."""

from __future__ import annotations

import datetime
import http.client
import re
import threading
import time
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import engines, services, tasks
from games.models import Game, Hint
from games.services import hints
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves
from tests.games.test_views import without_csrf

# Each engine, with the bots that sit beside the member (Tower of Babel needs three players).
TABLES = {
    "akropolis": ["normal"],
    "babylon": ["normal"],
    "hanging-gardens": ["normal"],
    "tower-of-babel": ["normal", "normal"],
}


def hint_game(member: User, slug: str = "akropolis", seed: int = 7) -> Game:
    game = build_game(member, *TABLES[slug], engine=slug, seed=seed)
    engine = engines.get(slug)
    assert engine.to_move(engine.load(game.state)) == [0]
    return game


def hint_words(page: str) -> str:
    found = re.search(r"Hint from the hard bot: (.*?)\.</p>", page)
    assert found, "no hint on the page"
    return found.group(1)


def board_of(page: str) -> str:
    start = page.index('<section id="game-board"')
    return without_csrf(page[start : page.index("<footer", start)])


@pytest.mark.parametrize("slug", list(TABLES))
def test_the_same_position_asked_twice_gives_the_same_hint(
    slug: str, alice: User, client: Any, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = hint_game(alice, slug)
    client.force_login(alice)
    url = reverse("games:hint", args=[game.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    [(task, (hint_id,))] = sent
    assert task.name == tasks.compute_hint.name
    assert hints.compute_hint(hint_id=hint_id)
    first_words = hint_words(client.get(reverse("games:play", args=[game.pk])).content.decode())
    first_board = board_of(client.post(url, {"show": "board"}).content.decode())
    # Asked again: the stored hint, not a second search (a second delivery changes nothing).
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    assert len(sent) == 1
    assert not hints.compute_hint(hint_id=hint_id)
    assert Hint.objects.filter(game=game).count() == 1
    again = client.post(url, {"show": "board"}).content.decode()
    assert hint_words(again) == first_words
    assert board_of(again) == first_board
    hint = Hint.objects.get(pk=hint_id)
    assert hint.move in engines.get(slug).legal_moves(engines.get(slug).load(game.state), 0)
    # The board marks the hinted move as the last one, in the same words.
    assert first_words in first_board


def test_the_search_sees_only_the_seats_view(alice: User, sent: list, monkeypatch: Any) -> None:
    """DESIGN.md principle 9: the worker searches from the member's view, not the true state."""
    from games.bots import turn_mcts

    game = hint_game(alice, "tower-of-babel")
    engine = engines.get(game.engine_slug)
    seen: list[dict] = []
    real = turn_mcts.search

    def spy(engine_: Any, view: dict, seat: int, **kwargs: Any) -> Any:
        seen.append(view)
        return real(engine_, view, seat, **kwargs)

    monkeypatch.setattr(turn_mcts, "search", spy)
    hint = hints.request_hint(game_id=game.pk, user=alice)
    hints.compute_hint(hint_id=hint.pk)
    assert seen == [engine.view(engine.load(game.state), 0)]


def test_a_hint_goes_once_the_position_changes(alice: User, client: Any, sent: list) -> None:
    game = hint_game(alice)
    hints.compute_hint(hint_id=hints.request_hint(game_id=game.pk, user=alice).pk)
    client.force_login(alice)
    play = reverse("games:play", args=[game.pk])
    status = reverse("games:hint_status", args=[game.pk])
    assert "Hint from the hard bot" in client.get(play).content.decode()
    assert "Hint from the hard bot" in client.get(status).content.decode()
    play_random_moves(game, count=1)
    assert hints.current_hint(Game.objects.get(pk=game.pk), 0) is None
    assert "Hint from the hard bot" not in client.get(play).content.decode()
    # The box an open page fetches empties itself.
    assert client.get(status).content.decode().strip() == '<div id="hint" hidden></div>'


def test_a_hint_goes_at_the_end_of_the_game(alice: User, client: Any, sent: list) -> None:
    game = hint_game(alice)
    hints.compute_hint(hint_id=hints.request_hint(game_id=game.pk, user=alice).pk)
    game = play_random_moves(game)
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Hint from the hard bot" not in page
    status = client.get(reverse("games:hint_status", args=[game.pk])).content.decode()
    assert "Hint from the hard bot" not in status


def test_a_hint_whose_position_changed_before_the_worker_took_it_is_not_searched(
    alice: User, sent: list, monkeypatch: Any
) -> None:
    from games.bots import turn_mcts

    game = hint_game(alice)
    hint = hints.request_hint(game_id=game.pk, user=alice)
    play_random_moves(game, count=1)
    monkeypatch.setattr(turn_mcts, "search", lambda *a, **k: pytest.fail("searched"))
    assert not hints.compute_hint(hint_id=hint.pk)


# --- limits -----------------------------------------------------------------------------------


def test_the_hint_past_the_hourly_limit_is_refused_and_changes_nothing(
    alice: User, client: Any, sent: list, settings: Any
) -> None:
    settings.HINTS_PER_HOUR = 3
    games = [hint_game(alice, seed=seed) for seed in range(settings.HINTS_PER_HOUR + 1)]
    for game in games[:-1]:
        hints.request_hint(game_id=game.pk, user=alice)
    # The stored hint of a position is shown again freely, at the limit too.
    again = hints.request_hint(game_id=games[0].pk, user=alice)
    assert again.game_id == games[0].pk
    with pytest.raises(services.GameError) as caught:
        hints.request_hint(game_id=games[-1].pk, user=alice)
    assert caught.value.code == "hint_hour_limit"
    client.force_login(alice)
    response = client.post(reverse("games:hint", args=[games[-1].pk]), follow=True)
    assert "You have asked for 3 hints in the last hour" in response.content.decode()
    last = Game.objects.get(pk=games[-1].pk)
    assert last.hints_used is False
    assert not Hint.objects.filter(game=last).exists()
    assert Hint.objects.filter(user=alice).count() == settings.HINTS_PER_HOUR


def test_hints_of_another_hour_do_not_count(alice: User, sent: list, settings: Any) -> None:
    settings.HINTS_PER_HOUR = 1
    first, second = hint_game(alice, seed=1), hint_game(alice, seed=2)
    hint = hints.request_hint(game_id=first.pk, user=alice)
    Hint.objects.filter(pk=hint.pk).update(
        created_at=hint.created_at - datetime.timedelta(minutes=61)
    )
    assert hints.request_hint(game_id=second.pk, user=alice).game_id == second.pk


def test_the_hint_past_the_limit_of_a_turn_is_refused(
    alice: User, sent: list, settings: Any
) -> None:
    """An Akropolis turn is two steps (take a tile, place it): with one hint a turn, the
    second step gets none, and the next turn gets one again."""
    settings.HINTS_PER_TURN = 1
    game = hint_game(alice)
    hints.request_hint(game_id=game.pk, user=alice)
    game = play_random_moves(game, count=1)  # alice took a tile; she places it now
    with pytest.raises(services.GameError) as caught:
        hints.request_hint(game_id=game.pk, user=alice)
    assert caught.value.code == "hint_turn_limit"
    assert Hint.objects.filter(game=game).count() == 1
    game = play_random_moves(game, count=3)  # her placement, the bot's turn (two steps)
    engine = engines.get(game.engine_slug)
    assert engine.to_move(engine.load(game.state)) == [0]
    assert hints.request_hint(game_id=game.pk, user=alice).version == game.version


@pytest.mark.parametrize(
    ("language", "words"),
    [("hu", "az utolsó órában"), ("pl", "w ciągu ostatniej godziny")],
)
def test_the_limits_are_told_in_the_members_language(language: str, words: str) -> None:
    with translation.override(language):
        text = services.GameError("hint_hour_limit", "", limit=20)
        from games import error_texts

        assert words in error_texts.describe(text)


# --- the request does not search --------------------------------------------------------------

MEMBERS = 6


def cookie_for(user: User) -> str:
    from tests.test_processes import session_cookie_for

    return session_cookie_for(user)


def fetch(server: str, method: str, path: str, headers: dict[str, str]) -> tuple[int, str]:
    host, port = server.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


ROUNDS = 3


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_six_hints_at_once_leave_another_page_quick(
    process_env: dict[str, str], tmp_path: Any
) -> None:
    """Issue 31: six hints at once made an unrelated page take 2.2 s, as each ran the hard
    bot's search (1.3 s at the site's budget, given to this server) inside its request. The
    posts only store the request and hand it to the heavy worker (none runs here), so the
    lobby answers at once while they are served. Three rounds, six new positions each; the
    quickest counts, so that another process's burst on the shared machine does not."""
    from tests.conftest import start_server, stop

    env = {**process_env, "TEST_HARD_BUDGET": "1.3"}
    proc, server = start_server(env, tmp_path / "server.log")
    took: list[float] = []
    answers: list[int] = []
    try:
        members = [make_user(f"hinter{n}") for n in range(MEMBERS)]
        cookies = [cookie_for(member) for member in members]
        lobby = {"Cookie": cookie_for(make_user("watcher"))}
        assert fetch(server, "GET", "/games/", lobby)[0] == 200
        for round_ in range(ROUNDS):
            posts = []
            for member, cookie in zip(members, cookies, strict=True):
                game = hint_game(member, seed=round_)
                status, page = fetch(server, "GET", f"/games/{game.pk}/", {"Cookie": cookie})
                assert status == 200
                token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)  # type: ignore[union-attr]
                posts.append((game, cookie, token))
            took.append(six_hints_beside_the_lobby(server, posts, lobby, answers))
    finally:
        stop(proc)
    assert answers == [302] * MEMBERS * ROUNDS
    assert Hint.objects.count() == MEMBERS * ROUNDS
    assert min(took) < 0.3, f"the lobby took {', '.join(f'{t:.2f}' for t in took)} s"


def six_hints_beside_the_lobby(
    server: str, posts: list[tuple[Game, str, str]], lobby: dict[str, str], answers: list[int]
) -> float:
    """Post the six hints at once and, while they are in the server, fetch the lobby: the
    seconds the lobby took."""
    start = threading.Barrier(len(posts) + 1)

    def ask(game: Game, cookie: str, token: str) -> None:
        headers = {
            "Cookie": f"{cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "Origin": f"http://{server}",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        start.wait()
        answers.append(fetch(server, "POST", f"/games/{game.pk}/hint/", headers)[0])

    threads = [threading.Thread(target=ask, args=post) for post in posts]
    for thread in threads:
        thread.start()
    start.wait()
    time.sleep(0.05)  # the posts are in the server
    began = time.monotonic()
    status, _ = fetch(server, "GET", "/games/", lobby)
    took = time.monotonic() - began
    for thread in threads:
        thread.join(timeout=60)
    assert status == 200
    return took


# --- the words name every part of the move ----------------------------------------------------

# Per engine: the move type and the part two of its moves may differ in alone.
PARTS = {
    "akropolis": ("place_tile", "rotation"),
    "babylon": ("place", "rotation"),
    "hanging-gardens": ("place_card", "rotation"),
    "tower-of-babel": ("offer", "cards"),
}


def two_moves_differing_only_in(slug: str, kind: str, part: str) -> tuple[Any, int, list]:
    """A position of a seeded random game where the seat to move has two legal moves of `kind`
    that differ only in `part`."""
    import random

    engine = engines.get(slug)
    rng = random.Random(3)
    state = engine.new_game(engine.min_players, seed=3)
    for _ in range(2_000):
        seat = engine.to_move(state)[0]
        moves = engine.legal_moves(state, seat)
        by_rest: dict[str, list] = {}
        for move in moves:
            if move["type"] == kind:
                rest = {k: v for k, v in move.items() if k != part}
                by_rest.setdefault(repr(sorted(rest.items())), []).append(move)
        pair = next((group[:2] for group in by_rest.values() if len(group) > 1), None)
        if pair:
            return state, seat, pair
        state = engine.apply_move(state, seat, rng.choice(moves))
    pytest.fail(f"no two {kind} moves differing only in {part}")


@pytest.mark.parametrize("slug", list(PARTS))
def test_the_hints_words_name_every_part_of_the_move(slug: str) -> None:
    """Issue 32: in Babylon the words left out the rotation, so following them gave a
    differently turned tile. Two moves that differ only in one part read differently."""
    from games import boards, rendering

    engine = engines.get(slug)
    kind, part = PARTS[slug]
    state, seat, pair = two_moves_differing_only_in(slug, kind, part)
    names = [f"Player {n + 1}" for n in range(engine.min_players)]
    words = []
    for move in pair:
        after = engine.apply_move(state, seat, move)
        summary = boards.summarize(
            slug, engine.view(state, None), seat, move, engine.view(after, None)
        )
        words.append(rendering.advise_payload(slug, names, move, summary))
    assert words[0] != words[1], words


def test_the_page_fetches_a_thinking_hint_until_it_is_ready(
    alice: User, client: Any, sent: list
) -> None:
    game = hint_game(alice)
    hint = hints.request_hint(game_id=game.pk, user=alice)
    client.force_login(alice)
    status = reverse("games:hint_status", args=[game.pk])
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "The hard bot is thinking about your hint" in page
    assert f'hx-get="{status}"' in page
    hints.compute_hint(hint_id=hint.pk)
    box = client.get(status).content.decode()
    assert "Hint from the hard bot" in box
    assert "hx-get" not in box  # ready: no more fetching


def test_a_hint_whose_worker_died_is_sent_again_by_the_rescue(
    alice: User, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = hint_game(alice)
    hint = hints.request_hint(game_id=game.pk, user=alice)
    assert hints.resend_lost_hints() == 0  # just asked: its task is on its way
    Hint.objects.filter(pk=hint.pk).update(
        created_at=hint.created_at - hints.STALE_AFTER - datetime.timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert hints.resend_lost_hints() == 1
    assert [(task.name, args) for task, args in sent] == [(tasks.compute_hint.name, (hint.pk,))]
