"""The move path's two writes, the log's new row and the game's changed columns, in statements
written once per process, as games/live_reads.py writes the reads.

Through `Model.save` a move spent about 0.5 ms of CPU on building and compiling the INSERT of
its row and 0.7 ms on the game's UPDATE, against 0.17 and 0.32 ms for the statements run
alone (docs/benchmarks.md, "The play worker, fourth round"). Each value still goes through its
field's own `pre_save` (the `auto_now` stamps, set on the instance as `save` sets them) and
`get_db_prep_save` (JSON), as `save` sends it. `save` would also send the model's signals:
the game and the move have no receivers, and tests/games/test_tasks.py checks the statements
a bot's turn runs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Field, Model

from infra import prepared


@functools.cache
def _insert(model: type[Model], alias: str) -> tuple[str, tuple[Field[Any, Any], ...]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    key = model._meta.pk
    assert key is not None and key.column is not None
    fields = tuple(f for f in model._meta.concrete_fields if f is not key)
    columns = ", ".join(quote(str(f.column)) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks}) "
        f"RETURNING {quote(key.column)}",
        fields,
    )


@functools.cache
def _update(
    model: type[Model], names: tuple[str, ...], alias: str
) -> tuple[str, tuple[Field[Any, Any], ...]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    key = model._meta.pk
    assert key is not None and key.column is not None
    fields = tuple(model._meta.get_field(name) for name in names)
    assert all(isinstance(f, Field) and f.concrete and f is not key for f in fields)
    sets = ", ".join(f"{quote(str(f.column))} = %s" for f in fields)  # type: ignore[union-attr]
    sql = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {quote(key.column)} = %s"
    return sql, fields  # type: ignore[return-value]


def insert(instance: Model) -> None:
    """Store `instance` as a new row and give it the key the database chose, as
    `instance.save(force_insert=True)` does for a model with an automatic key."""
    connection = connections[DEFAULT_DB_ALIAS]
    if not connection.features.can_return_columns_from_insert:
        instance.save(force_insert=True)
        return
    sql, fields = _insert(type(instance), connection.alias)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with prepared.cursor(connection) as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    instance.pk = row[0]
    instance._state.adding = False
    instance._state.db = connection.alias


def update(instance: Model, names: Sequence[str]) -> None:
    """Write the fields `names` of `instance` to its row, as
    `instance.save(update_fields=names)` does; an error if the row is not there."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, fields = _update(type(instance), tuple(names), connection.alias)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    key = instance._meta.pk
    assert key is not None
    values.append(key.get_db_prep_value(instance.pk, connection))
    with prepared.cursor(connection) as cursor:
        cursor.execute(sql, values)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
