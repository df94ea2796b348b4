"""The page cache's reader on a real SQLite file: what it knows at start, what it reads, and what a broken
database gives (tests/operations/test_page_cache_postgresql.py runs the same reads on PostgreSQL)."""

from __future__ import annotations

import threading
import zlib
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text, update

from journals.store.models import CachedPage
from journals.store.page_cache import CachedPageReader, PageCacheError, write_cached_page

FETCHED_AT = datetime(2026, 3, 1, 12, 30, 15, 250000, tzinfo=UTC)


def page_row(fingerprint: str, status: int = 200) -> dict:
    """A cached page's row as the cache storage writes it."""
    return {
        "fingerprint": fingerprint,
        "url": f"http://127.0.0.1/{fingerprint[:4]}",
        "status": status,
        "headers": '{"Content-Type":["text/html"]}',
        "body": zlib.compress(b"<title>A</title>"),
        "fetched_at": FETCHED_AT,
    }


def fingerprint(n: int) -> str:
    """A 64-digit hex fingerprint."""
    return f"{n:064x}"


def test_a_cached_page_reads_back_as_written(engine: Engine):
    """Every column comes back as written, the timestamp aware of its zone; a page never cached is None."""
    write_cached_page(engine, page_row(fingerprint(1)))
    reader = CachedPageReader(engine)
    try:
        row = reader.read(fingerprint(1))
        assert row is not None
        assert (row.url, row.status, row.headers) == ("http://127.0.0.1/0000", 200, '{"Content-Type":["text/html"]}')
        assert zlib.decompress(row.body) == b"<title>A</title>"
        assert row.fetched_at == FETCHED_AT
        assert row.fetched_at.tzinfo is not None
        assert reader.read(fingerprint(2)) is None
    finally:
        reader.close()


def test_a_page_unknown_at_start_is_not_looked_up_until_remembered(engine: Engine):
    """The fingerprints known at start decide which reads reach the database."""
    reader = CachedPageReader(engine)
    try:
        # Written behind the reader's back (another process): the reader does not ask the database for it.
        write_cached_page(engine, page_row(fingerprint(3)))
        assert not reader.may_hold(fingerprint(3))
        assert reader.read(fingerprint(3)) is None
        reader.remember(fingerprint(3))
        row = reader.read(fingerprint(3))
        assert row is not None and row.status == 200
    finally:
        reader.close()


def test_a_kept_connection_sees_every_later_write(engine: Engine):
    """No read holds a snapshot: what is committed after the connection was opened is read."""
    write_cached_page(engine, page_row(fingerprint(4)))
    reader = CachedPageReader(engine)
    try:
        assert reader.read(fingerprint(4)).status == 200
        with engine.begin() as conn:
            conn.execute(update(CachedPage).where(CachedPage.fingerprint == fingerprint(4)).values(status=304))
        assert reader.read(fingerprint(4)).status == 304
        write_cached_page(engine, page_row(fingerprint(4), status=410))
        assert reader.read(fingerprint(4)).status == 410
    finally:
        reader.close()


def test_each_thread_reads_on_its_own_connection(engine: Engine):
    """Threads reading at once each get the right row."""
    write_cached_page(engine, page_row(fingerprint(5)))
    reader = CachedPageReader(engine)
    statuses: list[int] = []

    def read() -> None:
        statuses.extend(reader.read(fingerprint(5)).status for _ in range(50))

    try:
        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == [200] * 200
    finally:
        reader.close()


def test_an_unreadable_cache_raises_then_recovers(engine: Engine):
    """A failed read is a PageCacheError, and the next read after the database is back succeeds."""
    write_cached_page(engine, page_row(fingerprint(6)))
    reader = CachedPageReader(engine)
    try:
        assert reader.read(fingerprint(6)) is not None
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE cached_pages RENAME TO cached_pages_away"))
        with pytest.raises(PageCacheError, match="no such table"):
            reader.read(fingerprint(6))
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE cached_pages_away RENAME TO cached_pages"))
        assert reader.read(fingerprint(6)) is not None
    finally:
        reader.close()


def test_a_database_without_the_table_cannot_be_opened(engine: Engine):
    """The fingerprints cannot be read: PageCacheError, not a driver's exception."""
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE cached_pages"))
    with pytest.raises(PageCacheError, match="no such table"):
        CachedPageReader(engine)
