"""``DATABASE_URL`` checks: an in-memory SQLite database, a port out of range and query parameters of the wrong
type are refused with one line naming what is wrong, before any driver sees them."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from journals.store import DatabaseError, engine_from_url
from journals.store.database import url_problem

IN_MEMORY = (
    "sqlite://",
    "sqlite:///",
    "sqlite:///:memory:",
    "sqlite:///file::memory:?uri=true",
    "sqlite:///file::memory:?mode=memory&cache=shared&uri=true",
    "sqlite:///file:journals?mode=memory&uri=true",
    "sqlite+pysqlite:///journals.db?mode=memory",
)


@pytest.mark.parametrize("url", IN_MEMORY)
def test_an_in_memory_sqlite_database_is_refused_with_the_reason(url: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatabaseError) as raised:
        engine_from_url(url)
    message = str(raised.value)
    assert "in-memory SQLite database" in message and "name a file, e.g. sqlite:///journals.db" in message
    assert "\n" not in message
    assert list(tmp_path.iterdir()) == []  # nothing was created, not even the file "mode=memory" would be ignored on


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "postgresql://u:secret@127.0.0.1:99999/db",
            "port 99999 is out of range: it must be an integer from 1 to 65535",
        ),
        ("postgresql://u@127.0.0.1:0/db", "port 0 is out of range"),
        ("postgresql://u:secret@127.0.0.1:abc/db", "its port must be an integer from 1 to 65535"),
        ("sqlite:///{tmp}/j.db?timeout=abc", "query parameter timeout must be a number ≥ 0, got 'abc'"),
        ("sqlite:///{tmp}/j.db?timeout=nan", "query parameter timeout must be a number ≥ 0, got 'nan'"),
        ("sqlite:///{tmp}/j.db?timeout=-1", "query parameter timeout must be a number ≥ 0, got '-1'"),
        ("sqlite:///{tmp}/j.db?check_same_thread=maybe", "query parameter check_same_thread must be a boolean"),
        ("sqlite:///{tmp}/j.db?cached_statements=many", "query parameter cached_statements must be an integer ≥ 0"),
        ("postgresql://u@127.0.0.1/db?connect_timeout=abc", "query parameter connect_timeout must be an integer ≥ 0"),
        ("postgresql://u@127.0.0.1/db?connect_timeout=1.5", "query parameter connect_timeout must be an integer ≥ 0"),
        ("postgresql://u@/db?host=a,b&port=5432,70000", "query parameter port must be an integer from 1 to 65535"),
        ("postgresql://u@/db?port=abc", "query parameter port must be an integer from 1 to 65535, got 'abc'"),
        ("postgresql://u@/db?keepalives_idle=soon", "query parameter keepalives_idle must be an integer ≥ 0"),
    ],
)
def test_a_bad_port_or_query_parameter_is_one_line_naming_it(url: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(DatabaseError) as raised:
        engine_from_url(url.format(tmp=tmp_path))
    assert message in str(raised.value)
    assert "\n" not in str(raised.value) and "secret" not in str(raised.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///journals.db",
        "sqlite:///journals.db?timeout=2.5",
        "sqlite:///file:journals.db?uri=true&check_same_thread=false",
        "postgresql://u@127.0.0.1:5432/db?connect_timeout=5",
        "postgresql://u@/db?host=a,b&port=5432,",
        "postgresql+psycopg://u@db.example:65535/db?keepalives=1&application_name=journals",
    ],
)
def test_usable_urls_have_no_problem(url: str) -> None:
    assert url_problem(make_url(url)) is None


def test_a_file_database_with_a_valid_timeout_connects(tmp_path: Path) -> None:
    engine = engine_from_url(f"sqlite:///{tmp_path / 'j.db'}?timeout=2.5")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 2500
    engine.dispose()
