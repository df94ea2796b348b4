"""The page cache's reader on a real PostgreSQL server: rows read back, later writes seen, and no lock or
transaction held between reads (tests/store/test_page_cache.py covers the rest on SQLite)."""

from __future__ import annotations

import zlib

from server_fixtures import postgres_fixture  # noqa: F401  (pytest fixture)
from sqlalchemy import text

from journals.store import create_schema, engine_from_url
from journals.store.page_cache import CachedPageReader, write_cached_page
from tests.store.test_page_cache import FETCHED_AT, fingerprint, page_row


def test_the_reader_reads_postgresql_and_holds_nothing_between_reads(postgres):
    """A read returns the row as written; the kept connection then sits idle outside any transaction, so another
    session can take the table's strongest lock at once."""
    engine = engine_from_url(postgres.create_database("journals_page_cache"))
    create_schema(engine)
    write_cached_page(engine, page_row(fingerprint(1)))
    reader = CachedPageReader(engine)
    try:
        row = reader.read(fingerprint(1))
        assert row is not None
        assert zlib.decompress(row.body) == b"<title>A</title>"
        assert row.fetched_at == FETCHED_AT
        assert reader.read(fingerprint(2)) is None
        # Another worker caches a page after this reader opened: it is read, not taken for absent.
        write_cached_page(engine, page_row(fingerprint(3)))
        assert reader.may_hold(fingerprint(3)) and reader.read(fingerprint(3)) is not None
        write_cached_page(engine, page_row(fingerprint(1), status=304))
        assert reader.read(fingerprint(1)).status == 304
        with engine.begin() as conn:
            states = conn.execute(
                text("SELECT state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            ).scalars().all()
            assert "idle in transaction" not in states
            conn.execute(text("SET LOCAL lock_timeout = '2s'"))
            conn.execute(text("LOCK TABLE cached_pages IN ACCESS EXCLUSIVE MODE"))
    finally:
        reader.close()
        engine.dispose()
