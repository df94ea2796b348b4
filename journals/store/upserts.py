"""Dialect upserts shared by the writers: ``INSERT ... ON CONFLICT`` on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from journals.store.database import DatabaseError
from journals.store.models import Source

_INSERTS: dict[str, Callable[..., Any]] = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def dialect_insert(conn: Connection) -> Callable[..., Any]:
    """The ``insert`` construct with ``on_conflict_do_update`` for the connection's dialect."""
    try:
        return _INSERTS[conn.dialect.name]
    except KeyError:
        raise DatabaseError(
            f"unsupported database {conn.dialect.name!r}: journals stores into SQLite or PostgreSQL"
        ) from None


def source_ids(conn: Connection, names: Iterable[str]) -> dict[str, int]:
    """The id of each source named, inserting the sources not seen before."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    insert = dialect_insert(conn)
    conn.execute(insert(Source).on_conflict_do_nothing(index_elements=["name"]), [{"name": n} for n in wanted])
    rows = conn.execute(select(Source.name, Source.id).where(Source.name.in_(wanted)))
    return {name: source_id for name, source_id in rows}


def storable(conn: Connection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows as the database can hold them: PostgreSQL text cannot hold NUL, so it becomes U+FFFD there.

    SQLite keeps every string verbatim.
    """
    if conn.dialect.name != "postgresql":
        return rows
    return [
        {key: value.replace("\x00", "\ufffd") if isinstance(value, str) else value for key, value in row.items()}
        for row in rows
    ]
