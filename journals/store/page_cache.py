"""The page cache's rows (:class:`~journals.store.models.CachedPage`): one cached response per request fingerprint,
read and written by :class:`journals.downloadermiddlewares.httpcache.SQLCacheStorage`.

A crawl asks the cache for every request it makes, on the reactor thread, so a read is made as cheap as the
database allows: :class:`CachedPageReader` knows at start which fingerprints the cache holds and answers the others
without asking the database; it reads the rest with one statement built once, on one connection per thread kept for
the crawl (SQLite's own driver directly: SQLAlchemy's execution costs more than the read itself).
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Engine, bindparam, select, update
from sqlalchemy.exc import SQLAlchemyError

from journals.store.models import CachedPage
from journals.store.upserts import dialect_insert

KEY_PREFIX_DIGITS = 16
"""Hex digits of a fingerprint kept in the set of cached pages: 64 bits, an int each (a third of the 64-digit
string's memory); two fingerprints that share them cost one lookup, never a wrong answer."""


class CachedPageRow(NamedTuple):
    """A cached page as stored."""

    url: str
    """The response URL."""
    status: int
    """The HTTP status."""
    headers: str
    """The headers as JSON (:func:`journals.downloadermiddlewares.httpcache.headers_to_json`)."""
    body: bytes
    """The body, zlib-compressed."""
    fetched_at: datetime
    """When it was fetched, timezone-aware (UTC)."""


class PageCacheError(Exception):
    """The cache could not be read (the database is down, locked or broken): the page is fetched instead."""


_COLUMNS = (CachedPage.url, CachedPage.status, CachedPage.headers, CachedPage.body, CachedPage.fetched_at)
_READ = select(*_COLUMNS).where(CachedPage.fingerprint == bindparam("fingerprint"))
_SQLITE_READ = "SELECT url, status, headers, body, fetched_at FROM cached_pages WHERE fingerprint = ?"


def _key_prefix(fingerprint: str) -> int:
    return int(fingerprint[:KEY_PREFIX_DIGITS], 16)


class CachedPageReader:
    """Reads the cached pages of one database for one crawl; :meth:`close` when done.

    On SQLite, the set of cached fingerprints is read once, at start, and grows with :meth:`remember`, so a page
    the cache cannot hold costs no query. A server database (PostgreSQL) is where several workers share one cache
    during one crawl: a journal's home page cached by one worker is read by the worker that fetched its metrics
    page, so there every fingerprint is looked up.
    """

    def __init__(self, engine: Engine) -> None:
        """Read the fingerprints ``engine``'s cache holds; :class:`PageCacheError` when the database cannot be
        read."""
        self._engine = engine
        self._sqlite = engine.dialect.name == "sqlite"
        fetched_at_type = CachedPage.__table__.c.fetched_at.type.dialect_impl(engine.dialect)
        processor = fetched_at_type.result_processor(engine.dialect, None)
        self._sqlite_fetched_at: Callable[[Any], Any] = processor or (lambda value: value)
        """SQLAlchemy's conversion of the stored timestamp, applied by hand to what SQLite's driver returns."""
        self._connections: dict[int, Any] = {}
        """The kept connection of each thread that read: the pool's SQLite connection, else an SQLAlchemy one."""
        self._lock = threading.Lock()
        self._cached: set[int] | None = None
        """The fingerprint prefixes of the cached pages (SQLite only); None: look every fingerprint up."""
        try:
            with engine.connect() as conn:
                if self._sqlite:
                    keys = conn.execute(select(CachedPage.fingerprint)).scalars()
                    self._cached = {_key_prefix(key) for key in keys}
                else:
                    conn.execute(select(CachedPage.fingerprint).limit(1)).all()
        except SQLAlchemyError as exc:
            raise PageCacheError(_first_line(exc)) from exc

    def may_hold(self, fingerprint: str) -> bool:
        """False when the cache certainly holds no page of ``fingerprint``; True when it may."""
        return self._cached is None or _key_prefix(fingerprint) in self._cached

    def remember(self, fingerprint: str) -> None:
        """Note that a page of ``fingerprint`` is being cached."""
        if self._cached is not None:
            self._cached.add(_key_prefix(fingerprint))

    def read(self, fingerprint: str) -> CachedPageRow | None:
        """The cached page of ``fingerprint``, or None when there is none; :class:`PageCacheError` when the cache
        cannot be read (the thread's connection is then dropped, and the next read opens another)."""
        if not self.may_hold(fingerprint):
            return None
        thread = threading.get_ident()
        try:
            connection = self._connections.get(thread) or self._connect(thread)
            if self._sqlite:
                row = connection.driver_connection.execute(_SQLITE_READ, (fingerprint,)).fetchone()
                if row is None:
                    return None
                url, status, headers, body, fetched_at = row
                return CachedPageRow(url, status, headers, body, self._sqlite_fetched_at(fetched_at))
            found = connection.execute(_READ, {"fingerprint": fingerprint}).first()
        except (SQLAlchemyError, sqlite3.Error) as exc:
            self._drop(thread)
            raise PageCacheError(_first_line(exc)) from exc
        return None if found is None else CachedPageRow(*found)

    def _connect(self, thread: int) -> Any:
        """A connection kept for ``thread``: each statement its own transaction, so that no read holds a snapshot
        or a lock between requests."""
        connection: Any
        if self._sqlite:
            # The pool's connection stays checked out until close(); SQLite's driver begins no transaction for a
            # SELECT, so each read sees what the writer has committed.
            connection = self._engine.raw_connection()
        else:
            connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        with self._lock:
            self._connections[thread] = connection
        return connection

    def _drop(self, thread: int) -> None:
        with self._lock:
            connection = self._connections.pop(thread, None)
        if connection is not None:
            _close_quietly(connection)

    def close(self) -> None:
        """Give back every kept connection."""
        with self._lock:
            connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            _close_quietly(connection)


def _close_quietly(connection: Any) -> None:
    with contextlib.suppress(Exception):  # a connection already broken has nothing left to give back
        connection.close()


def _first_line(exc: BaseException) -> str:
    return (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__])[0]


def refresh_cached_page(engine: Engine, fingerprint: str, headers: str, fetched_at: datetime) -> bool:
    """Give the cached page of ``fingerprint`` new headers and fetch time, its body as stored (a ``304 Not
    Modified`` confirmed it); False when there is no such row."""
    with engine.begin() as conn:
        done = conn.execute(
            update(CachedPage)
            .where(CachedPage.fingerprint == fingerprint)
            .values(headers=headers, fetched_at=fetched_at)
        )
        return bool(done.rowcount)


def write_cached_pages(engine: Engine, rows: list[dict[str, Any]]) -> None:
    """Insert or replace the cached pages of ``rows`` (every column of ``cached_pages``, each row's
    ``fingerprint`` once), in one transaction."""
    if not rows:
        return
    with engine.begin() as conn:
        conn.execute(_upsert(dialect_insert(conn), tuple(rows[0])), rows)


def write_cached_page(engine: Engine, row: dict[str, Any]) -> None:
    """Insert or replace the cached page of ``row["fingerprint"]`` (every column of ``cached_pages``)."""
    write_cached_pages(engine, [row])


@functools.cache
def _upsert(insert: Callable[..., Any], columns: tuple[str, ...]) -> Any:
    """The upsert of a cached page's ``columns`` with a dialect's ``insert``, built once: building it (the ``excluded``
    columns' proxies) cost more than executing it, for every page a crawl caches."""
    stmt = insert(CachedPage)
    return stmt.on_conflict_do_update(
        index_elements=["fingerprint"],
        set_={column: stmt.excluded[column] for column in columns if column != "fingerprint"},
    )
