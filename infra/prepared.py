"""Cursors whose statements PostgreSQL parses and plans once per connection.

Django's psycopg backend binds every query's values on the client: each statement reaches
PostgreSQL as new text (the values written into it), which the server parses and plans again
each time. The statements of every move (a bot's turn and the hub's read: games/live_reads.py,
games/services/writes.py) are written once per process and run hundreds of times a minute on
the same pooled connections, so they go through a cursor that binds its values on the server
and prepares each statement on its first use on a connection; PostgreSQL then only executes
it (docs/benchmarks.md, "Seventh round: the play worker's statements and engine work").

Only these cursors prepare: Django's own bind on the client, which never prepares whatever the
connection's `prepare_threshold` (config/settings.py sets one; Django's default, None, turns
preparing off for every cursor). A prepared statement belongs to its connection: a connection
the pool drops takes its statements with it, and a new one prepares them again.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from psycopg import adapters
from psycopg.pq import Format

TIMESTAMPTZ_OID = adapters.types["timestamptz"].oid


class PreparingCursor(psycopg.Cursor[Any]):
    """Values bound on the server, each statement prepared on its first use."""

    def execute(
        self,
        query: Any,
        params: Any = None,
        *,
        prepare: bool | None = True,
        binary: bool | None = None,
    ) -> PreparingCursor:
        return super().execute(query, params, prepare=prepare, binary=binary)


class LoggedCursor(CursorDebugWrapper):
    """Where Django logs statements (DEBUG, a test's CaptureQueriesContext), each with its
    values written in, as a client-binding cursor sends it: Django's own log of a cursor that
    binds on the server gives "QUERY = ... - PARAMS = ..." instead."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(self.db.ops.compose_sql(sql, params)):
            return CursorWrapper.execute(self, sql, params)


def cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor of `connection` as `connection.cursor()` gives it (its errors Django's, its
    statements logged where Django logs them), that prepares its statements on PostgreSQL
    when the connection allows it; elsewhere Django's own cursor."""
    if not _prepares(connection):
        return connection.cursor()
    from django.db.backends.postgresql.psycopg_any import register_tzloader

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = PreparingCursor(connection.connection)
        # As Django's own cursors: the connection's time zone, unless it changed since the
        # connection was made (a test's override_settings).
        loader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != getattr(loader, "timezone", None):
            register_tzloader(connection.timezone, raw)
        connection.validate_thread_sharing()
        if connection.queries_logged:
            return LoggedCursor(raw, connection)
        return CursorWrapper(raw, connection)


def _prepares(connection: BaseDatabaseWrapper) -> bool:
    return (
        connection.vendor == "postgresql"
        and connection.settings_dict["OPTIONS"].get("prepare_threshold") is not None
    )
