"""The schema: tables, uniqueness, timestamps, learned rules, and the database URL and engine helpers."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from journals.store import (
    DatabaseError,
    create_schema,
    database_url,
    engine_from_url,
    load_rules,
    save_rules,
)
from journals.store.models import SCHEMA_VERSION, Base, ExtractionRule, Journal, Page, SchemaVersion, Source


def test_schema_has_every_table_and_a_version(engine):
    tables = set(inspect(engine).get_table_names())
    assert {
        "sources",
        "pages",
        "journals",
        "attribute_values",
        "extraction_rules",
        "cached_pages",
        "schema_version",
    } <= tables
    with Session(engine) as session:
        assert session.scalars(select(SchemaVersion.version)).all() == [SCHEMA_VERSION]


def test_create_schema_twice_changes_nothing(engine):
    assert create_schema(engine) == []
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(SchemaVersion)) == 1


def test_sqlite_uses_wal_and_foreign_keys(engine):
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_journal_is_unique_per_source_and_url(engine):
    with Session(engine) as session:
        source = Source(name="wiley", start_url="https://onlinelibrary.wiley.com/")
        session.add(source)
        session.flush()
        session.add(Journal(source_id=source.id, url="https://x/j1", title="J1"))
        session.commit()
        session.add(Journal(source_id=source.id, url="https://x/j1", title="again"))
        with pytest.raises(IntegrityError):
            session.commit()


def test_timestamps_come_back_in_utc(engine):
    taken = datetime(2024, 5, 1, 14, 30, tzinfo=timezone(timedelta(hours=2)))
    with Session(engine) as session:
        source = Source(name="bmj")
        session.add(source)
        session.flush()
        session.add(Page(url="https://bmj/a", source_id=source.id, role="listing", fetched_at=taken))
        session.commit()
        fetched = session.scalar(select(Page.fetched_at))
    assert fetched == taken
    assert fetched.tzinfo == UTC


def test_rules_round_trip_and_update_in_place(engine):
    assert load_rules(engine, "nature") == {}
    first = datetime(2024, 1, 1, tzinfo=UTC)
    save_rules(engine, "nature", "t1", {"issn": "//dd[1]", "sjr": "//dd[2]"}, now=first)
    save_rules(engine, "nature", "t1", {"issn": "//dd[3]"}, now=first + timedelta(days=1))
    save_rules(engine, "nature", "", {"title": "//h1"})
    save_rules(engine, "oxford", "t1", {"issn": "//p"})
    assert load_rules(engine, "nature") == {
        "": {"title": "//h1"},
        "t1": {"issn": "//dd[3]", "sjr": "//dd[2]"},
    }
    with Session(engine) as session:
        rule = session.scalars(select(ExtractionRule).where(ExtractionRule.xpath == "//dd[3]")).one()
        assert rule.created_at == first
        assert rule.updated_at == first + timedelta(days=1)
        assert session.scalar(select(func.count()).select_from(ExtractionRule)) == 4


def test_environment_overrides_the_database_url_setting(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url({"DATABASE_URL": "sqlite:///a.db"}) == "sqlite:///a.db"
    monkeypatch.setenv("DATABASE_URL", "sqlite:///b.db")
    assert database_url({"DATABASE_URL": "sqlite:///a.db"}) == "sqlite:///b.db"


def test_missing_database_url_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(DatabaseError, match="DATABASE_URL is not set"):
        database_url({"DATABASE_URL": ""})


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("not a url", "invalid DATABASE_URL"),
        ("nosuchdialect://host/db", "cannot use DATABASE_URL"),
        ("postgresql://user:secret@127.0.0.1:1/journals", "cannot"),
    ],
)
def test_bad_database_url_is_one_line_without_password(url, message):
    with pytest.raises(DatabaseError, match=message) as raised:
        engine_from_url(url)
    assert "\n" not in str(raised.value)
    assert "secret" not in str(raised.value)


def test_unreachable_sqlite_file_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(DatabaseError, match="cannot connect"):
        engine_from_url(f"sqlite:///{blocker / 'journals.db'}")


def test_a_fresh_interpreter_that_imported_only_the_store_creates_every_table(tmp_path):
    """Which tables exist does not depend on which modules were imported: ``journals.store`` alone makes them all,
    the tables of finished crawls, identity keys and the integration included."""
    database = tmp_path / "fresh.db"
    script = (
        "import sys\n"
        "from journals.store import create_schema, engine_from_url\n"
        "assert 'journals.store.crawl_runs' not in sys.modules\n"
        f"engine = engine_from_url('sqlite:///{database}')\n"
        "create_schema(engine)\n"
        "engine.dispose()\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).resolve().parents[2])
    made = set(inspect(engine_from_url(f"sqlite:///{database}")).get_table_names())
    assert made == {table.name for table in Base.metadata.sorted_tables}
    assert {"crawl_runs", "journal_keys", "integrated_journals", "integrated_members", "integrated_values"} <= made
    assert "mappings" in made
