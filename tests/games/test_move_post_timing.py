"""The move post, hop by hop (infra/timing.py, settings.LIVE_TRACE): the load test prints
where its time goes from the answer's Server-Timing header. And what the post reads: the
game once before its lock and once under it, its seats with their members in one query each
time, the answer drawn from the game as the move left it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import broadcast
from games.models import Game
from infra import timing
from tools.load import SERVER_TIMING, Post, post_hop_lines

pytestmark = pytest.mark.django_db

TAKE_0 = json.dumps({"type": "take_tile", "index": 0})
TRACED = override_settings(MIDDLEWARE=["infra.timing.ServerTiming", *settings.MIDDLEWARE])
# Every hop of an accepted move, in the order the post passes them.
HOPS = [
    "wait",
    "middleware",
    "checks",
    "lock",
    "move",
    "commit",
    "hooks",
    "render",
    "answer",
]


@pytest.fixture
def game(make_game: Callable[..., Game], alice: User, bob: User) -> Game:
    return make_game(alice, bob)  # Akropolis, seed 7: alice (seat 0) moves first


def post(user: User, game: Game, move: str, version: int):  # noqa: ANN201
    client = Client()
    client.force_login(user)
    return client.post(
        reverse("games:move", args=[game.pk]),
        {"move": move, "expected_version": version},
        headers={"HX-Request": "true"},
    )


def hops_of(response) -> list[tuple[str, float]]:  # noqa: ANN001
    return [(name, float(ms)) for name, ms in SERVER_TIMING.findall(response["Server-Timing"])]


@TRACED
@pytest.mark.django_db(transaction=True)  # the commit is real: its hop is timed
def test_a_traced_move_post_times_each_hop_in_order(game: Game, alice: User) -> None:
    began = time.perf_counter()
    response = post(alice, game, TAKE_0, 0)
    took_ms = (time.perf_counter() - began) * 1000
    assert response.status_code == 200
    hops = hops_of(response)
    assert [name for name, _ in hops] == HOPS
    assert all(ms >= 0 for _, ms in hops)
    # The hops follow each other: together they are no longer than the whole post.
    assert sum(ms for _, ms in hops) <= took_ms


@TRACED
def test_a_refused_move_is_timed_up_to_where_it_stopped(game: Game, alice: User) -> None:
    response = post(alice, game, TAKE_0, 5)  # a stale page: refused under the lock
    assert response.status_code == 200  # htmx: the reason is shown inside the board
    names = [name for name, _ in hops_of(response)]
    assert "lock" in names
    assert "move" not in names and "commit" not in names
    game.refresh_from_db()
    assert game.version == 0


def test_without_the_trace_no_answer_names_its_hops(game: Game, alice: User) -> None:
    response = post(alice, game, TAKE_0, 0)
    assert response.status_code == 200
    assert "Server-Timing" not in response
    timing.mark("outside a request")  # nothing to mark: no error either


def test_a_move_post_reads_the_game_twice_and_draws_the_board_it_made(
    game: Game, alice: User
) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = post(alice, game, TAKE_0, 0)
    assert 'data-version="1"' in response.content.decode()
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    # Once to find the seat, once under the row lock; the answer reads it no third time.
    assert len([q for q in selects if 'FROM "games_game"' in q]) == 2
    # The seats come with their members' names, in one query each time the game is read (the
    # first read joins them to the game).
    assert len([q for q in selects if '"games_seat"' in q]) == 2
    members = [q for q in selects if 'FROM "accounts_user"' in q and "games_seat" not in q]
    assert len(members) <= 1  # the signed-in member, for the session


def test_the_load_report_lists_the_hops_of_the_posts() -> None:
    posts = [
        Post(1, 0.0, 0.050, 200, True, {"lock": 2.0, "render": 10.0}),
        Post(2, 0.0, 0.030, 200, True, {"lock": 4.0, "render": 6.0}),
    ]
    lines = post_hop_lines(posts)
    assert lines[0].startswith("move POST hop by hop")
    by_name = {line.split(":")[0].strip(): line.split(":")[1].strip() for line in lines[1:]}
    assert list(by_name)[:2] == ["lock", "render"]
    # Nearest-rank percentiles of two values: the lower is the median, the higher the p95.
    assert by_name["lock"] == "2.0 / 4.0 / 4.0"
    assert by_name["(server, all hops)"] == "10.0 / 12.0 / 12.0"
    # 50 ms waited, 12 of them in the server's hops; 30 ms waited, 10 in them.
    assert by_name["(outside the hops)"] == "20.0 / 38.0 / 38.0"


def test_an_announcement_carries_the_times_of_its_hops_only_when_traced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[dict[str, object]] = []
    monkeypatch.setattr(
        broadcast.announce, "send", lambda layer, group, message, what, **_: sent.append(message)
    )
    with override_settings(LIVE_TRACE=False):
        broadcast.notify_game_changed(1, 3)
    with override_settings(LIVE_TRACE=True):
        broadcast.notify_game_changed(1, 4)
    untraced, traced = sent
    # The hint says which game changed and to which revision; a time of day is no part of it.
    assert set(untraced) == {"type", "game", "version", "event"}
    assert traced["version"] == 4
    assert list(traced["at"]) == ["commit"]  # type: ignore[call-overload]
