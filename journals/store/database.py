"""Connecting to the database named by ``DATABASE_URL`` and creating or upgrading its schema."""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

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
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.schema import Column, Table
from sqlalchemy.util import asbool

from journals.settings_check import SettingRule
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


PORT = SettingRule("integer", minimum=1, maximum=65535)
"""A TCP port; drivers differ on 0 (psycopg connects to 5432) and on 99999 (a traceback or a message)."""


class _Boolean:
    """A query parameter SQLAlchemy reads with its ``asbool`` (``true``/``false``, ``yes``/``no``, ``on``/``off``, 1/0):
    not :class:`SettingRule`'s boolean, which reads as Scrapy's ``getbool`` does."""

    def describe(self) -> str:
        """What the value must be, in words."""
        return "a boolean (true or false)"

    def accepts(self, value: str) -> bool:
        """Whether ``asbool`` reads ``value``."""
        try:
            asbool(value)
        except ValueError:
            return False
        return True


class _Ports:
    """libpq's ``port``: one :data:`PORT` per host of a multi-host URL, comma-separated, empty for the default."""

    def describe(self) -> str:
        """What the value must be, in words."""
        return PORT.describe()

    def accepts(self, value: str) -> bool:
        """Whether every port listed is a port or empty."""
        return all(port == "" or PORT.accepts(port) for port in value.split(","))


BOOLEAN = _Boolean()
QueryParameterRule = SettingRule | _Boolean | _Ports

QUERY_PARAMETER_RULES: dict[str, dict[str, QueryParameterRule]] = {
    "sqlite": {
        "timeout": SettingRule("number", minimum=0),
        "detect_types": SettingRule("integer", minimum=0),
        "cached_statements": SettingRule("integer", minimum=0),
        "check_same_thread": BOOLEAN,
        "uri": BOOLEAN,
    },
    "postgresql": {
        "connect_timeout": SettingRule("integer", minimum=0),
        "port": _Ports(),
        "keepalives": SettingRule("integer", minimum=0),
        "keepalives_idle": SettingRule("integer", minimum=0),
        "keepalives_interval": SettingRule("integer", minimum=0),
        "keepalives_count": SettingRule("integer", minimum=0),
        "tcp_user_timeout": SettingRule("integer", minimum=0),
    },
}
"""Typed query parameters of ``DATABASE_URL`` by backend: those SQLAlchemy's pysqlite dialect coerces (a bad one is
a ``ValueError`` traceback inside ``create_engine``) and libpq's numeric connection options (refused by each
PostgreSQL driver in its own words)."""

_PASSWORD = re.compile(r"(://[^:/@]*:)[^@/]*@")
"""The password of a URL that SQLAlchemy cannot parse (so cannot hide it either)."""


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

    The URL is checked first (:func:`url_problem`): an in-memory SQLite database, a port out of range or a query
    parameter of the wrong type is refused before any driver sees it. SQLite: the parent directory of the file is
    created and connections use WAL and a busy timeout (:data:`SQLITE_BUSY_TIMEOUT_SECS`).
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(
            f"invalid DATABASE_URL {_hide_password(url)!r}: expected an SQLAlchemy URL such as sqlite:///journals.db"
        ) from None
    except ValueError:  # make_url reads the port with int()
        raise DatabaseError(
            f"invalid DATABASE_URL {_hide_password(url)!r}: its port must be {PORT.describe()}"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    problem = url_problem(parsed)
    if problem is not None:
        raise DatabaseError(f"cannot use DATABASE_URL {shown}: {problem}")
    is_sqlite = parsed.get_backend_name() == "sqlite"
    try:
        engine = _sqlite_engine(parsed) if is_sqlite else _server_engine(parsed)
        with engine.connect():
            pass
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError, TypeError) as exc:
        # ValueError/TypeError: a query parameter of a dialect not in QUERY_PARAMETER_RULES that it cannot coerce.
        raise DatabaseError(f"cannot use DATABASE_URL {shown}: {_one_line(exc)}") from None
    except (DBAPIError, OSError) as exc:
        raise DatabaseError(f"cannot connect to {shown}: {_one_line(exc)}") from None
    return engine


def url_problem(url: URL) -> str | None:
    """Why ``url`` cannot serve as the crawl's database, in a few words; None when nothing is wrong with it.

    Refused: an in-memory SQLite database (SQLite gives each connection, so each thread, its own empty one: the
    store's rows would be invisible to the cache, the health check and the next command, then vanish), a port
    out of range, and a query parameter of :data:`QUERY_PARAMETER_RULES` of the wrong type or out of range.
    """
    backend = url.get_backend_name()
    if backend == "sqlite" and _in_memory(url):
        return (
            "an in-memory SQLite database is private to each connection and thread, and gone at exit: "
            "the crawl's rows would vanish; name a file, e.g. sqlite:///journals.db"
        )
    if url.port is not None and not PORT.accepts(url.port):
        return f"port {url.port} is out of range: it must be {PORT.describe()}"
    for name, rule in QUERY_PARAMETER_RULES.get(backend, {}).items():
        values = url.query.get(name)
        if values is None:
            continue
        for value in (values,) if isinstance(values, str) else values:
            if not rule.accepts(value):
                return f"query parameter {name} must be {rule.describe()}, got {value!r}"
    return None


def _in_memory(url: URL) -> bool:
    """Whether an SQLite URL names an in-memory database: no file, ``:memory:``, or a ``mode=memory`` URI."""
    database = url.database or ""
    modes = url.query.get("mode", ())
    return (
        database in {"", ":memory:"}
        or database.startswith("file::memory:")
        or "mode=memory" in database
        or "memory" in ((modes,) if isinstance(modes, str) else modes)
    )


def _hide_password(url: str) -> str:
    return _PASSWORD.sub(r"\1***@", url)


def _server_engine(url: URL) -> Engine:
    """An engine for a database server: connections checked before use, a bounded wait on PostgreSQL."""
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = POSTGRESQL_CONNECT_TIMEOUT_SECS
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def _sqlite_engine(url: URL) -> Engine:
    """An SQLite engine on a file: parent directory created, pragmas set on every new connection."""
    database = url.database or ""
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


def open_database(url: str, *, must_exist: bool = False) -> Engine:
    """An engine on ``url`` whose schema is created or upgraded: how a crawl (:mod:`journals.extensions.database`)
    and each command outside a crawl open the database, once; :class:`DatabaseError` when it cannot be used.

    ``must_exist``: the commands that read what a crawl wrote (``report``, ``browse``, ``integrate``) refuse an
    SQLite file that is not there rather than create an empty one, so a mistyped ``DATABASE_URL`` is one line
    naming the path instead of a report of 0 journals and a stray file. The caller disposes of the engine.
    """
    if must_exist and (missing := _missing_sqlite_file(url)) is not None:
        raise DatabaseError(f"no database at {missing}: crawl first (make crawl) or check DATABASE_URL")
    engine = engine_from_url(url)
    try:
        create_schema(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def _missing_sqlite_file(url: str) -> str | None:
    """The path of the SQLite file ``url`` names when that file does not exist; None for any other URL (a server,
    a ``file:`` URI, a URL :func:`engine_from_url` will refuse with its own reason)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or not database or database.startswith("file:") or database == ":memory:":
        return None
    path = Path(database).expanduser()
    return None if path.exists() else str(path)


def create_schema(engine: Engine) -> list[str]:
    """Create missing tables, then add missing columns and indexes to existing ones; never drop anything.

    Every table of the project is in :mod:`journals.store.models`, so every table is made whatever was imported.

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
    table = cast(Table, SchemaVersion.__table__)
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
