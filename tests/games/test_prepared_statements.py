"""The statements of every move, prepared once per PostgreSQL connection (infra/prepared.py):
PostgreSQL parses and plans each the first time a connection runs it, and after that only
executes it. Read from PostgreSQL itself (pg_prepared_statements, the session's own)."""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from games import engines, live_reads, tasks
from games.models import Game
from tests.games.conftest import state_of

pytestmark = pytest.mark.skipif(
    not settings.USING_POSTGRES, reason="prepared statements are PostgreSQL's (DATABASE_URL)"
)


def prepared() -> dict[str, int]:
    """This session's prepared statements on the site's tables, each with how often it ran."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE '%%games_%%'"
        )
        return dict(cursor.fetchall())


def play_one_bot_turn(game: Game) -> None:
    game.refresh_from_db()
    seat = engines.get("akropolis").to_move(state_of(game))[0]
    assert tasks.play_bot_turn.apply(args=(game.pk, seat, game.version)).get() is True


def test_a_bot_turn_prepares_its_statements_once_and_the_next_turn_only_runs_them(
    make_game, quick_bots
) -> None:
    game = make_game("normal", "normal")
    play_one_bot_turn(game)
    first = prepared()
    # The game with its seats, the game under its lock, its seats, the log's row, the game's
    # new state: the five statements of a bot's turn (tests/games/test_tasks.py).
    assert len(first) == 5
    assert all(runs == 1 for runs in first.values())
    play_one_bot_turn(game)
    assert prepared() == dict.fromkeys(first, 2)


def test_the_hubs_read_of_the_last_moves_is_prepared(make_game, quick_bots) -> None:
    game = make_game("normal", "normal")
    play_one_bot_turn(game)
    game.refresh_from_db()
    assert [move.number for move in live_reads.last_moves(game, 5)] == [0]
    assert [move.number for move in live_reads.last_moves(game, 5)] == [0]
    assert [
        runs
        for statement, runs in prepared().items()
        if "games_move" in statement and statement.startswith("SELECT")
    ] == [2]


def runs_since(earlier: dict[str, int]) -> dict[str, int]:
    """The prepared statements this session ran since `earlier` was read, with how often.
    (A pooled connection may hold statements an earlier test prepared.)"""
    now = prepared()
    return {s: n - earlier.get(s, 0) for s, n in now.items() if n != earlier.get(s, 0)}


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_between_turns_is_replaced_and_prepares_again(
    make_game, quick_bots
) -> None:
    """PostgreSQL ends the connection a worker left in its pool between two tasks (a restart,
    an administrator): the next turn gets another connection from the pool (its check) and
    runs the same prepared statements there, preparing those it lacks; nothing is refused
    for a statement the old one held."""
    game = make_game("normal", "normal")
    start = prepared()
    play_one_bot_turn(game)
    # The turn's five statements and whatever else its commit's announcement read on this
    # connection (in the whole suite on PostgreSQL, also the log's last rows).
    first = runs_since(start)
    assert len(first) >= 5
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (old_pid,) = cursor.fetchone()
    connection.close()  # back to the pool, as Celery's Django fix-up does after each task
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [old_pid])
    middle = prepared()  # the connection the pool gives now, a live one
    play_one_bot_turn(game)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != old_pid
    # The second turn ran the first one's statements, as often, prepared on this connection.
    assert runs_since(middle) == first
    game.refresh_from_db()
    assert game.version == 2
