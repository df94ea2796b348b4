"""The journals table's queries on a real SQLite file: which records are current, snapshots recorded once, and a
database of the schema before the history upgraded in place."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals
from journals.store.crawl_runs import record_run
from journals.store.models import SCHEMA_VERSION, SchemaVersion
from journals.store.table_io import RESUMED_STAT, current_since, read_history

T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def item(n: int, source: str = "publisher") -> JournalItem:
    return JournalItem(source=source, url=f"https://example.org/{source}/{n}", title=f"Journal {n}", issn=None)


def run(engine, when: datetime, **stats) -> None:
    record_run(engine, "publisher", {"start_time": when, "finish_time": when + timedelta(minutes=5), **stats})


def test_a_source_is_current_from_the_start_of_its_latest_crawl(engine):
    write_journals(engine, [item(1), item(2)], crawled_at=T0 + timedelta(minutes=1))
    run(engine, T0)
    later = T0 + timedelta(days=7)
    write_journals(engine, [item(1)], crawled_at=later + timedelta(minutes=1))
    run(engine, later)
    assert current_since(engine) == {"publisher": later}


def test_a_resumed_or_unrecorded_crawl_keeps_every_record_of_its_source(engine):
    write_journals(engine, [item(1)], crawled_at=T0 + timedelta(minutes=1))
    run(engine, T0, **{RESUMED_STAT: 120})
    write_journals(engine, [item(1, "aggregator")], crawled_at=T0 + timedelta(days=1))  # no run recorded
    assert current_since(engine) == {}


def test_an_empty_history(engine):
    history = read_history(engine)
    assert history.snapshots == [] and history.journals == [] and history.values == []


def test_a_database_of_schema_3_gets_the_history_tables_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.db"
    engine = engine_from_url(f"sqlite:///{path}")
    create_schema(engine)
    write_journals(engine, [item(1)], crawled_at=T0)
    engine.dispose()
    with sqlite3.connect(path) as conn:  # as the schema stood before the history
        for table in ("table_snapshots", "table_journals", "value_history", "attribute_history"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("UPDATE schema_version SET version = 3")
    engine = engine_from_url(f"sqlite:///{path}")
    try:
        create_schema(engine)
        with engine.connect() as conn:
            assert conn.scalar(select(SchemaVersion.version)) == SCHEMA_VERSION == 4
        assert read_history(engine).snapshots == []
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT count(*) FROM journals").fetchone() == (1,)
            assert conn.execute("SELECT count(*) FROM value_history").fetchone() == (0,)
    finally:
        engine.dispose()
