"""The journals table written as a table of its own: typed columns, the key first, replaced whole."""

from __future__ import annotations

from sqlalchemy import inspect, text

from journals.store import engine_from_url
from journals.store.table_copy import JOURNAL_TABLE, write_journal_table

COLUMNS = ("key", "title", "open_access", "h_index", "impact_factor", "impact_factor_year", "apc")


def test_rows_are_written_under_their_key_with_a_type_per_column(tmp_path):
    engine = engine_from_url(f"sqlite:///{tmp_path / 'table.db'}")
    rows = [
        {"key": "0028-0836", "title": "Nature", "open_access": False, "h_index": 1200, "impact_factor": 50.5,
         "impact_factor_year": 2024, "apc": 11390},
        {"key": "J0123456789", "title": "Notes", "open_access": None, "h_index": None, "impact_factor": 2,
         "impact_factor_year": None, "apc": "on request"},
    ]  # fmt: skip
    assert write_journal_table(engine, COLUMNS, rows) == 2
    columns = {column["name"]: column for column in inspect(engine).get_columns(JOURNAL_TABLE)}
    assert list(columns) == list(COLUMNS)
    assert columns["key"]["primary_key"] == 1
    kinds = {name: type(column["type"]).__name__ for name, column in columns.items()}
    assert kinds["open_access"] == "BOOLEAN" and kinds["h_index"] == "INTEGER"
    assert kinds["impact_factor"] == "FLOAT" and kinds["impact_factor_year"] == "INTEGER"
    assert kinds["apc"] == "TEXT"  # one cell is not a number: the column keeps every cell as text
    with engine.connect() as conn:
        stored = conn.execute(text(f"select * from {JOURNAL_TABLE} order by key")).all()
    assert [tuple(row) for row in stored] == [
        ("0028-0836", "Nature", 0, 1200, 50.5, 2024, "11390"),
        ("J0123456789", "Notes", None, None, 2.0, None, "on request"),
    ]
    engine.dispose()


def test_the_table_is_replaced_whole_and_an_empty_table_still_has_its_columns(tmp_path):
    engine = engine_from_url(f"sqlite:///{tmp_path / 'table.db'}")
    write_journal_table(engine, COLUMNS, [{"key": "0028-0836", "title": "Nature"}])
    assert write_journal_table(engine, COLUMNS, []) == 0
    with engine.connect() as conn:
        assert conn.execute(text(f"select count(*) from {JOURNAL_TABLE}")).scalar() == 0
    assert [column["name"] for column in inspect(engine).get_columns(JOURNAL_TABLE)] == list(COLUMNS)
    engine.dispose()
