"""Celery tasks: bot turns and the end of a game, in this process and in a real worker."""

from __future__ import annotations

import re
import subprocess
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engines, live_reads, services, tasks
from games.models import Game, Rating, Result
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves, state_of


def test_bot_turn_task_plays_one_move_and_a_stale_copy_does_nothing(make_game, alice) -> None:
    game = make_game("normal", alice)
    assert tasks.play_bot_turn.apply(args=(game.pk, 0, 0)).get() is True
    assert tasks.play_bot_turn.apply(args=(game.pk, 0, 0)).get() is False
    game.refresh_from_db()
    assert game.version == 1
    assert game.moves.count() == 1


def statement(sql: str) -> str:
    """What a statement does and to which table: "SELECT games_seat", "UPDATE games_game"."""
    verb = sql.split()[0]
    table = re.search(r'(?:FROM|INTO|UPDATE) "(\w+)"', sql)
    return f"{verb} {table.group(1) if table else '?'}"


def test_a_bot_turn_takes_five_statements_and_a_game_of_bots_writes_no_clock(
    make_game, quick_bots
) -> None:
    """The game with its seats (to think outside the lock), the game under its row lock, its
    seats (who may move), the move into the log, the game's new state. Two turns of two
    steps each, so the turn passes from one bot to the other: bots keep no clock to write."""
    game = make_game("normal", "normal")
    engine = engines.get("akropolis")
    for _ in range(4):
        game.refresh_from_db()
        seat = engine.to_move(engine.load(game.state))[0]
        with CaptureQueriesContext(connection) as queries:
            assert tasks.play_bot_turn.apply(args=(game.pk, seat, game.version)).get() is True
        sqls = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
        assert [statement(sql) for sql in sqls] == [
            "SELECT games_game",
            "SELECT games_game",
            "SELECT games_seat",
            "INSERT games_move",
            "UPDATE games_game",
        ]
        # The first read brings the seats with the game; the lock takes the game alone, and
        # the seats under it are read without the game (no join for an ordering).
        assert 'JOIN "games_seat"' in sqls[0]
        assert "JOIN" not in sqls[1]
        assert 'JOIN "games_game"' not in sqls[2]
    game.refresh_from_db()
    assert game.version == 4
    assert set(game.seats.values_list("clock_started_at", flat=True)) == {None}


def test_bot_turn_task_for_a_deleted_game_does_nothing(make_game) -> None:
    game = make_game("normal", "easy")
    game_id = game.pk
    game.delete()
    assert tasks.play_bot_turn.apply(args=(game_id, 0, 0)).get() is False


def test_end_of_game_task_stores_scores_breakdown_ranks_and_ratings(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob))
    assert game.status == Game.Status.FINISHED
    assert tasks.finish_game.apply(args=(game.pk,)).get() == 2
    scores = engines.get("akropolis").scores(services.state_at(game=game))
    results = {r.seat: r for r in Result.objects.filter(game=game)}
    for seat in (0, 1):
        assert results[seat].score == scores["totals"][seat]
        assert results[seat].breakdown == scores["breakdown"][seat]
    winner = scores["ranking"][0]
    assert results[winner].rank == 1
    assert results[winner].user == [alice, bob][winner]
    assert results[winner].rating_after > results[winner].rating_before
    assert Rating.objects.get(user=[alice, bob][winner]).games_played == 1
    # A second delivery of the task (late acknowledgement) stores nothing more.
    assert tasks.finish_game.apply(args=(game.pk,)).get() == 2
    assert Result.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=alice).games_played == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_game_of_bots_plays_itself_to_the_end_in_a_real_worker(
    celery_worker_process: subprocess.Popen[bytes],
) -> None:
    """Two bot levels, one per seat; the worker takes every turn and then scores the game."""
    game = build_game("easy", "hard", seed=5)
    assert game.status == Game.Status.RUNNING
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not Result.objects.filter(game=game).exists():
        assert celery_worker_process.poll() is None, "the worker died"
        time.sleep(0.5)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.moves.filter(by_bot=True).count() == game.version == 72
    assert sorted(Result.objects.filter(game=game).values_list("rank", flat=True))[0] == 1
    assert set(Rating.objects.values_list("bot_level", flat=True)) == {"easy", "hard"}
    assert services.audit_game(game=game) == []
    # The member list is untouched by a game of bots.
    assert make_user("after-the-game").seats.count() == 0


def test_a_bot_turn_plays_on_the_stored_state_when_the_game_changed_after_its_read(
    make_game, quick_bots, monkeypatch
) -> None:
    """The bot thinks on what it read before the lock; the move is played on the game as the
    lock finds it. Here the first read says the other seat holds five more stones than it
    does (a change at the same move number); after the turn it holds as many as before."""
    game = make_game("normal", "normal")
    mover = engines.get("akropolis").to_move(state_of(game))[0]
    other = 1 - mover
    stones = list(state_of(game).stones)
    read = live_reads.game_with_seats

    def read_before_a_change(game_id: int) -> Game | None:
        found = read(game_id)
        assert found is not None and found.state is not None
        changed = list(found.state["stones"])
        changed[other] += 5
        found.state = {**found.state, "stones": changed}
        return found

    monkeypatch.setattr(live_reads, "game_with_seats", read_before_a_change)
    assert tasks.play_bot_turn.apply(args=(game.pk, mover, 0)).get() is True
    game.refresh_from_db()
    assert game.version == 1
    assert state_of(game).stones[other] == stones[other]
