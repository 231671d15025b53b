"""The reads that run for every move and every announcement, in statements written once per
process.

The hub reads the game for every announcement (games/live.py): the game with its seats and
their members, then the log's last rows. Through querysets that cost about 3.2 ms of CPU a
move on this machine (the game 0.8 ms, its seats and members 1.4 ms, the last moves 1.0 ms),
and the statements themselves about 0.25 ms: the rest was building and compiling the same
querysets again each time (docs/benchmarks.md, "The servers, third round"). A bot's turn
(games/services/bots.py and the one move path, games/services/moves.py) reads the same
things: the game with its seats to think outside the lock, the game under its row lock
(`locked_game`), then its seats with their members (`load_seats`); through querysets those
took about 2 ms of its CPU (docs/benchmarks.md, "The play worker, fourth round").

Here each statement is written once, from the models' own tables and columns, and only run
when asked, so every read is still the database as it is now (principle 7: nothing is kept
between reads). The rows become model instances with each field's own conversions, the seats
and members joined in one statement, and tests/games/test_live_reads.py checks that they
equal what the querysets read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

from games.models import Game, Move, Seat
from infra import prepared

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


@dataclass(frozen=True)
class Columns:
    """One model's columns in a statement's rows: where they start, and how each value becomes
    the field's (the backend's conversions, then the field's own, as the querysets apply)."""

    model: type[Model]
    start: int
    names: list[str]
    converters: list[tuple[int, list[Converter], Any]]

    def instance(self, row: Sequence[Any], connection: BaseDatabaseWrapper) -> Any:
        values = list(row[self.start : self.start + len(self.names)])
        for index, functions, column in self.converters:
            value = values[index]
            for convert in functions:
                value = convert(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.names, values)

    def is_null(self, row: Sequence[Any]) -> bool:
        """A left join's missing row (a game without seats yet)."""
        return all(value is None for value in row[self.start : self.start + len(self.names)])


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None  # a concrete field's
    return field.column


def _select(
    model: type[Model], alias: str, start: int, connection: BaseDatabaseWrapper
) -> tuple[str, Columns]:
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(alias)
        functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if functions:
            converters.append((index, functions, column))
    sql = ", ".join(f"{alias}.{quote(_column(field))}" for field in fields)
    return sql, Columns(model, start, [field.attname for field in fields], converters)


@dataclass(frozen=True)
class Statements:
    game_sql: str
    game: Columns
    seat: Columns
    member: Columns
    moves_sql: str
    move: Columns
    locked_game_sql: str  # the game alone, its row locked until the transaction ends
    seats_sql: str  # a game's seats by position, each with its member
    seats_seat: Columns
    seats_member: Columns


@functools.cache
def _statements(alias: str) -> Statements:
    connection = connections[alias]
    quote = connection.ops.quote_name
    user_model = get_user_model()
    game_sql, game = _select(Game, "g", 0, connection)
    seat_sql, seat = _select(Seat, "s", len(game.names), connection)
    member_sql, member = _select(user_model, "u", seat.start + len(seat.names), connection)
    move_sql, move = _select(Move, "m", 0, connection)
    seats_seat_sql, seats_seat = _select(Seat, "s", 0, connection)
    seats_member_sql, seats_member = _select(user_model, "u", len(seats_seat.names), connection)
    # SQLite has no row locks: settings open every transaction with BEGIN IMMEDIATE, which
    # serialises the writers (Django's select_for_update() leaves the clause out there too).
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""

    def column(model: type[Model], name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field)
        return quote(_column(field))

    return Statements(
        game_sql=(
            f"SELECT {game_sql}, {seat_sql}, {member_sql} FROM {quote(Game._meta.db_table)} g "
            f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.{column(Seat, 'game')} = "
            f"g.{column(Game, 'id')} "
            f"LEFT JOIN {quote(user_model._meta.db_table)} u ON u.{column(user_model, 'id')} = "
            f"s.{column(Seat, 'user')} "
            f"WHERE g.{column(Game, 'id')} = %s ORDER BY s.{column(Seat, 'position')}"
        ),
        game=game,
        seat=seat,
        member=member,
        moves_sql=(
            f"SELECT {move_sql} FROM {quote(Move._meta.db_table)} m "
            f"WHERE m.{column(Move, 'game')} = %s AND m.{column(Move, 'number')} >= %s "
            f"AND m.{column(Move, 'number')} < %s ORDER BY m.{column(Move, 'number')}"
        ),
        move=move,
        locked_game_sql=(
            f"SELECT {game_sql} FROM {quote(Game._meta.db_table)} g "
            f"WHERE g.{column(Game, 'id')} = %s{lock}"
        ),
        seats_sql=(
            f"SELECT {seats_seat_sql}, {seats_member_sql} FROM {quote(Seat._meta.db_table)} s "
            f"LEFT JOIN {quote(user_model._meta.db_table)} u ON u.{column(user_model, 'id')} = "
            f"s.{column(Seat, 'user')} "
            f"WHERE s.{column(Seat, 'game')} = %s ORDER BY s.{column(Seat, 'position')}"
        ),
        seats_seat=seats_seat,
        seats_member=seats_member,
    )


def game_with_seats(game_id: int) -> Game | None:
    """The game with its seats by position and each seat's member, as
    `Game.objects.prefetch_related(Prefetch("seats", Seat.objects.select_related("user")))`
    would give them: `game.seats.all()` and `seat.user` ask the database nothing more."""
    connection = connections[DEFAULT_DB_ALIAS]
    statements = _statements(connection.alias)
    with prepared.cursor(connection) as cursor:
        cursor.execute(statements.game_sql, [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    game: Game = statements.game.instance(rows[0], connection)
    rows = [row for row in rows if not statements.seat.is_null(row)]
    _attach_seats(game, rows, statements.seat, statements.member, connection)
    return game


def locked_game(game_id: int) -> Game | None:
    """The game, its row locked until the transaction ends, as
    `Game.objects.select_for_update().get(pk=game_id)` gives it; None if there is none."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.get_autocommit():  # as select_for_update() refuses, for the same reason
        raise TransactionManagementError("A row lock outside a transaction ends at once.")
    statements = _statements(connection.alias)
    with prepared.cursor(connection) as cursor:
        cursor.execute(statements.locked_game_sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else statements.game.instance(row, connection)


def load_seats(game: Game) -> list[Seat]:
    """Read `game`'s seats by position with their members onto it, as
    `prefetch_related_objects([game], Prefetch("seats", Seat.objects.select_related("user")))`
    would: `game.seats.all()` and `seat.user` then ask the database nothing more."""
    connection = connections[DEFAULT_DB_ALIAS]
    statements = _statements(connection.alias)
    with prepared.cursor(connection) as cursor:
        cursor.execute(statements.seats_sql, [game.pk])
        rows = cursor.fetchall()
    return _attach_seats(game, rows, statements.seats_seat, statements.seats_member, connection)


def _attach_seats(
    game: Game,
    rows: Sequence[Sequence[Any]],
    seat_columns: Columns,
    member_columns: Columns,
    connection: BaseDatabaseWrapper,
) -> list[Seat]:
    seats = []
    for row in rows:
        seat: Seat = seat_columns.instance(row, connection)
        member = None if seat.user_id is None else member_columns.instance(row, connection)
        Seat._meta.get_field("game").set_cached_value(seat, game)
        Seat._meta.get_field("user").set_cached_value(seat, member)
        seats.append(seat)
    # What prefetch_related leaves on the game: its manager's queryset with the rows in it (so
    # that game.seats.filter(...) still asks the database, as after a prefetch).
    queryset = game.seats.get_queryset()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]
    return seats


def last_moves(game: Game, count: int, upto: int | None = None) -> list[Move]:
    """The log's rows of the last `count` moves before move number `upto` (default: all
    played), oldest first."""
    upto = game.version if upto is None else upto
    if not game.pk or upto <= 0:
        return []
    connection = connections[DEFAULT_DB_ALIAS]
    statements = _statements(connection.alias)
    with prepared.cursor(connection) as cursor:
        cursor.execute(statements.moves_sql, [game.pk, max(0, upto - count), upto])
        rows = cursor.fetchall()
    return [statements.move.instance(row, connection) for row in rows]
