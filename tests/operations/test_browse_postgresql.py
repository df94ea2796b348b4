"""Browsing a PostgreSQL database: the ``journal_overview`` view is portable, and ``scrapy browse`` serves an
SQLite snapshot of it (Datasette reads SQLite only)."""

from __future__ import annotations

import sqlite3

from server_fixtures import postgres_fixture  # noqa: F401  (pytest fixture)
from sqlalchemy import insert, text

from journals.store import create_schema, engine_from_url
from journals.store.models import AttributeValue, IntegratedJournal, IntegratedValue, Journal, Source
from journals.store.snapshot import copy_to_sqlite
from tests.conftest import run_scrapy

FUSED = [
    ("impact_factor", "4.117", 4.117, False),
    ("subject", "Virology", None, False),
    ("open_access", "true", None, False),
    ("issn", "0941-0325", None, True),
]


def _fill(url: str) -> None:
    engine = engine_from_url(url)
    create_schema(engine)
    with engine.begin() as conn:
        conn.execute(insert(Source), [{"id": 1, "name": "elsevier"}, {"id": 2, "name": "scimago"}])
        conn.execute(insert(Journal), [{"id": 1, "source_id": 1, "url": "http://e/j", "title": "Viral Letters"}])
        conn.execute(insert(AttributeValue), [{"journal_id": 1, "attribute": "impact_factor", "value": "4.117"}])
        conn.execute(insert(IntegratedJournal), [{"id": 1, "title": "Viral Letters", "sources": "elsevier;scimago"}])
        conn.execute(
            insert(IntegratedValue),
            [
                {"integrated_journal_id": 1, "attribute": a, "value": v, "number": n, "conflicting": c,
                 "supporters": '["elsevier"]', "provenance": "[]"}
                for a, v, n, c in FUSED
            ],
        )
    engine.dispose()


def test_views_on_postgresql_and_a_sqlite_snapshot_for_datasette(postgres, tmp_path):
    url = postgres.create_database("journals_browse")
    _fill(url)
    result = run_scrapy("browse", "--views-only", env={"DATABASE_URL": url})
    assert result.returncode == 0, result.stderr[-2000:]
    expected = ("Viral Letters", "0941-0325", 4.117, "Virology", "yes", '["elsevier","scimago"]', 1)
    query = "select title, issn, impact_factor, subject, open_access, listed_by, conflicts from journal_overview"
    engine = engine_from_url(url)
    with engine.connect() as conn:
        assert tuple(conn.execute(text(query)).one()) == expected
        # No crawl was recorded: the journals table is there, with its columns and no rows.
        assert conn.execute(text("select count(*) from journal_table")).scalar() == 0

    snapshot = tmp_path / "snapshot.db"
    copied = copy_to_sqlite(engine, snapshot)
    engine.dispose()
    assert copied["integrated_values"] == len(FUSED) and copied["journals"] == 1 and "cached_pages" not in copied
    views = run_scrapy("browse", "--views-only", env={"DATABASE_URL": f"sqlite:///{snapshot}"})
    assert views.returncode == 0, views.stderr[-2000:]
    with sqlite3.connect(snapshot) as conn:
        assert conn.execute(query).fetchone() == expected
