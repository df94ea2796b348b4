"""Connecting to the database named by ``DATABASE_URL`` and creating or upgrading its schema."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.engine.url import URL
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
)
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool
from sqlalchemy.schema import Column, Table

from journals.store.models import SCHEMA_VERSION, Base, SchemaVersion, utcnow

logger = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_SECS = 30.0
"""How long an SQLite writer waits for another one (the cache, a second crawl) before "database is locked";
``?timeout=SECONDS`` in the URL overrides it."""

# create_all() checks then creates: two threads of one process (cache and store) must not interleave, nor
# two workers on one PostgreSQL database (an advisory lock, keyed by this arbitrary constant).
_schema_lock = threading.Lock()
_POSTGRESQL_SCHEMA_LOCK = 0x6A6F75726E616C73  # "journals"

POSTGRESQL_CONNECT_TIMEOUT_SECS = 10
"""How long to wait for a PostgreSQL server before giving up; ``?connect_timeout=`` in the URL overrides it."""


class DatabaseError(RuntimeError):
    """The database URL is invalid, its driver is missing, or the database cannot be reached."""


def database_url(settings: Mapping[str, Any]) -> str:
    """The database URL: ``DATABASE_URL`` from the environment if set, else the ``DATABASE_URL`` setting.

    ``settings`` is a Scrapy ``Settings`` object or a plain dict.
    """
    url = os.environ.get("DATABASE_URL") or settings.get("DATABASE_URL")
    if not url:
        raise DatabaseError("DATABASE_URL is not set: set it in the environment or in the settings")
    return str(url)


def engine_from_url(url: str) -> Engine:
    """An engine for ``url``, checked by connecting once; else :class:`DatabaseError` with a one-line reason.

    SQLite: the parent directory of the file is created, connections use WAL and a busy timeout
    (:data:`SQLITE_BUSY_TIMEOUT_SECS`), and an in-memory database is one database shared by every thread
    (not one per thread, as SQLite would have it).
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(
            f"invalid DATABASE_URL {url!r}: expected an SQLAlchemy URL such as sqlite:///journals.db"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    is_sqlite = parsed.get_backend_name() == "sqlite"
    try:
        engine = _sqlite_engine(parsed) if is_sqlite else _server_engine(parsed)
        with engine.connect():
            pass
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise DatabaseError(f"cannot use DATABASE_URL {shown}: {_one_line(exc)}") from None
    except (DBAPIError, OSError) as exc:
        raise DatabaseError(f"cannot connect to {shown}: {_one_line(exc)}") from None
    return engine


def _server_engine(url: URL) -> Engine:
    """An engine for a database server: connections checked before use, a bounded wait on PostgreSQL."""
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = POSTGRESQL_CONNECT_TIMEOUT_SECS
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def _sqlite_engine(url: URL) -> Engine:
    """An SQLite engine: parent directory created, pragmas set on every new connection."""
    database = url.database or ""
    in_memory = database in {"", ":memory:"} or "mode=memory" in database
    if in_memory:
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        if not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        busy_timeout = {} if "timeout" in url.query else {"timeout": SQLITE_BUSY_TIMEOUT_SECS}
        engine = create_engine(url, connect_args=busy_timeout)
    event.listen(engine, "connect", _set_sqlite_pragmas)
    return engine


def _set_sqlite_pragmas(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
    """WAL lets readers (the cache) work while the store writes; foreign keys are checked."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _one_line(exc: BaseException) -> str:
    """The first line of the driver's message, without SQLAlchemy's background links."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__


def create_schema(engine: Engine) -> list[str]:
    """Create missing tables, then add missing columns and indexes to existing ones; never drop anything.

    Columns added to an existing table are nullable (old rows have no value). Records :data:`SCHEMA_VERSION`
    in ``schema_version``. Returns the ``table.column`` names that were added, for logging.
    """
    with _schema_lock:
        try:
            added = _create_or_upgrade(engine)
        except (OperationalError, ProgrammingError, IntegrityError):
            # Another process created the same table or row between our look and our create: look again.
            added = _create_or_upgrade(engine)
    if added:
        logger.info("Database schema upgraded: added %s", ", ".join(added))
    return added


def _create_or_upgrade(engine: Engine) -> list[str]:
    """One pass of :func:`create_schema`, in one transaction (serialised between PostgreSQL workers)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _POSTGRESQL_SCHEMA_LOCK})
        Base.metadata.create_all(conn)
        inspector = inspect(conn)
        added: list[str] = []
        for table in Base.metadata.sorted_tables:
            present = {column["name"] for column in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name not in present:
                    _add_column(conn, table, column)
                    added.append(f"{table.name}.{column.name}")
            indexes = {index["name"] for index in inspector.get_indexes(table.name)}
            for index in table.indexes:
                if index.name not in indexes:
                    index.create(conn)
        _record_version(conn)
    return added


def _add_column(conn: Connection, table: Table, column: Column[Any]) -> None:
    """``ALTER TABLE ... ADD COLUMN`` for one column, nullable so existing rows stay valid."""
    quote = conn.dialect.identifier_preparer.quote
    column_type = column.type.compile(dialect=conn.dialect)
    conn.exec_driver_sql(f"ALTER TABLE {quote(table.name)} ADD COLUMN {quote(column.name)} {column_type}")


def _record_version(conn: Connection) -> None:
    """Write :data:`SCHEMA_VERSION` into the one row of ``schema_version``; never lower it."""
    row = conn.execute(select(SchemaVersion.version).where(SchemaVersion.id == 1)).scalar_one_or_none()
    table = SchemaVersion.__table__
    if row is None:
        conn.execute(table.insert().values(id=1, version=SCHEMA_VERSION, upgraded_at=utcnow()))
    elif row < SCHEMA_VERSION:
        conn.execute(table.update().where(table.c.id == 1).values(version=SCHEMA_VERSION, upgraded_at=utcnow()))
    elif row > SCHEMA_VERSION:
        logger.warning(
            "Database schema version %d is newer than this code's %d: unknown columns are left alone",
            row,
            SCHEMA_VERSION,
        )
