"""The reads written once (games/live_reads.py) give what the querysets they replace gave: the
game, its seats by position with their members, the game under its row lock, the log's last
rows, and boards drawn from them equal boards drawn from a game read through the ORM."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connections, transaction
from django.db.models import Model, Prefetch, prefetch_related_objects
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import live, live_reads, rendering, services
from games.models import Game, Move, Seat
from tests.games.conftest import build_game, play_random_moves, waiting_game

pytestmark = pytest.mark.django_db


def fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def read_by_querysets(game_id: int) -> Game:
    seats = Seat.objects.select_related("user").order_by("position")
    return Game.objects.prefetch_related(Prefetch("seats", queryset=seats)).get(pk=game_id)


def assert_same_game(read: Game | None, expected: Game) -> None:
    assert read is not None
    assert fields(read) == fields(expected)
    got, want = list(read.seats.all()), list(expected.seats.all())
    assert [fields(s) for s in got] == [fields(s) for s in want]
    assert [s.user and fields(s.user) for s in got] == [s.user and fields(s.user) for s in want]


def test_a_running_game_reads_as_the_querysets_read_it(alice, bob) -> None:
    bob.display_name = "Bob <the builder>"
    bob.save()
    game = build_game(alice, bob, "easy", seed=5)
    play_random_moves(game, 12)
    assert_same_game(live_reads.game_with_seats(game.pk), read_by_querysets(game.pk))


def test_a_game_with_open_seats_and_a_resigned_one_reads_as_the_querysets_read_it(
    alice, bob
) -> None:
    waiting = waiting_game(alice, players=3)
    assert_same_game(live_reads.game_with_seats(waiting.pk), read_by_querysets(waiting.pk))
    game = build_game(alice, bob, engine="babylon", seed=3)
    services.resign(game_id=game.pk, user=bob)
    assert_same_game(live_reads.game_with_seats(game.pk), read_by_querysets(game.pk))


def test_a_game_without_seats_reads_with_none_and_a_missing_game_as_none(alice) -> None:
    game = waiting_game(alice)
    Seat.objects.filter(game=game).delete()
    read = live_reads.game_with_seats(game.pk)
    assert read is not None and read.pk == game.pk
    assert list(read.seats.all()) == []
    assert live_reads.game_with_seats(game.pk + 1000) is None


def test_the_seats_and_members_read_ask_the_database_nothing_more(alice, bob) -> None:
    game = build_game(alice, bob, seed=2)
    read = live_reads.game_with_seats(game.pk)
    assert read is not None
    with CaptureQueriesContext(connections["default"]) as queries:
        names = [(s.position, s.user.username, s.game.pk) for s in read.seats.all()]
        rendering.seat_names(read)
        rendering.board_stamp(read)
    assert names == [(0, "alice", game.pk), (1, "bob", game.pk)]
    assert queries.captured_queries == []
    # As after a prefetch, a filtered question still goes to the database.
    assert [s.position for s in read.seats.filter(user=bob)] == [1]


def test_the_locked_game_reads_as_select_for_update_reads_it(alice, bob) -> None:
    game = build_game(alice, bob, "easy", seed=6)
    play_random_moves(game, 7)
    with transaction.atomic():
        read = live_reads.locked_game(game.pk)
        expected = Game.objects.select_for_update().get(pk=game.pk)
        assert read is not None
        assert fields(read) == fields(expected)
        assert live_reads.locked_game(game.pk + 1000) is None


@pytest.mark.django_db(transaction=True)
def test_a_row_lock_outside_a_transaction_is_refused(alice) -> None:
    game = waiting_game(alice)
    with pytest.raises(TransactionManagementError):
        live_reads.locked_game(game.pk)


def test_the_seats_loaded_onto_a_game_are_the_prefetched_seats_with_members(alice, bob) -> None:
    bob.display_name = "Bob <the builder>"
    bob.save()
    game = build_game(alice, "easy", bob, seed=8)
    services.resign(game_id=game.pk, user=alice)
    read = Game.objects.get(pk=game.pk)
    expected = Game.objects.get(pk=game.pk)
    seats = Seat.objects.select_related("user").order_by("position")
    prefetch_related_objects([expected], Prefetch("seats", seats))
    loaded = live_reads.load_seats(read)
    assert loaded == list(read.seats.all())
    assert_same_game(read, expected)
    with CaptureQueriesContext(connections["default"]) as queries:
        users = [s.user and s.user.username for s in read.seats.all()]
        games = {s.game.pk for s in read.seats.all()}
    assert users == [s.user and s.user.username for s in expected.seats.all()]
    assert users[1] is None and users[2] == "bob"  # the bot's seat has no member
    assert games == {game.pk}
    assert queries.captured_queries == []


def test_the_last_moves_are_the_logs_last_rows(alice) -> None:
    game = build_game(alice, "easy", seed=9)
    assert live_reads.last_moves(game, rendering.RECENT_MOVES) == []
    play_random_moves(game, 11)
    game.refresh_from_db()
    got = live_reads.last_moves(game, rendering.RECENT_MOVES)
    want = list(Move.objects.filter(game=game).order_by("number"))[-rendering.RECENT_MOVES :]
    assert [fields(m) for m in got] == [fields(m) for m in want]
    # Before an earlier move number (a replay's step): the rows before it, and none before 0.
    upto = game.version - 4
    before = live_reads.last_moves(game, rendering.RECENT_MOVES, upto)
    want = list(Move.objects.filter(game=game, number__lt=upto).order_by("number"))
    assert [fields(m) for m in before] == [fields(m) for m in want[-rendering.RECENT_MOVES :]]
    assert live_reads.last_moves(game, rendering.RECENT_MOVES, 0) == []


@pytest.mark.parametrize("engine", ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"])
def test_boards_drawn_from_the_read_equal_boards_drawn_from_the_querysets(
    alice, bob, carol, engine
) -> None:
    game = build_game(alice, bob, carol, engine=engine, seed=4)
    play_random_moves(game, 10)
    read = live_reads.game_with_seats(game.pk)
    assert read is not None
    recent = live_reads.last_moves(read, rendering.RECENT_MOVES)
    for language in ("en", "hu", "pl"):
        for position in (None, 0, 1, 2):
            with translation.override(language):
                by_querysets = read_by_querysets(game.pk)
                rows = by_querysets.moves.order_by("number")
                expected = rendering.board_html(
                    game=by_querysets,
                    seat=position,
                    recent=list(rows.filter(number__gte=game.version - rendering.RECENT_MOVES)),
                )
            assert live.render_board(read, position, language, recent) == expected
