"""The page cache's rows (:class:`~journals.store.models.CachedPage`): one cached response per request fingerprint,
read and written by :class:`journals.downloadermiddlewares.httpcache.SQLCacheStorage`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Row, select

from journals.store.models import CachedPage
from journals.store.upserts import dialect_insert


def read_cached_page(engine: Engine, fingerprint: str) -> Row[str, int, str, bytes, datetime] | None:
    """The cached page of ``fingerprint`` (``url``, ``status``, ``headers``, ``body`` as stored, ``fetched_at``), or
    None when there is none."""
    query = select(
        CachedPage.url, CachedPage.status, CachedPage.headers, CachedPage.body, CachedPage.fetched_at
    ).where(CachedPage.fingerprint == fingerprint)
    with engine.connect() as conn:
        return conn.execute(query).first()


def write_cached_page(engine: Engine, row: dict[str, Any]) -> None:
    """Insert or replace the cached page of ``row["fingerprint"]`` (every column of ``cached_pages``)."""
    with engine.begin() as conn:
        stmt = dialect_insert(conn)(CachedPage)
        stmt = stmt.on_conflict_do_update(
            index_elements=["fingerprint"],
            set_={column: stmt.excluded[column] for column in row if column != "fingerprint"},
        )
        conn.execute(stmt, row)
