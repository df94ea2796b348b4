"""Datasette's CSV export under ``scrapy browse`` defuses formula cells as the project's own CSV does, while its
JSON and the database keep every title as the page showed it."""

from __future__ import annotations

import csv
import io
import json
import sys
import urllib.request
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT

from journals.csv_cells import DefusedCsvStream, complete_records_end, defuse_formula
from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browse"))  # tests/browse
from browser import browse_server

FORMULAS = (
    '=HYPERLINK("http://example.invalid/?leak","Journal of Links")',
    "+SUM(1+1) Journal of Sums",
    "@SUM(1+1) Journal of Ats",
    "-2+3+cmd|' /C calc'!A0 Journal",
)
HELD_OUT = ("=1+2 Quarterly", "-1+1+cmd|' /C notepad'!B2 Review", "\t=cmd Tabbed", "@cmd|' /C dir'!C3 Letters")
PLAIN = ("Journal of Rocks", "-1.5", '"><img src=x onerror=alert(1)> Journal of Images')


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database whose journals carry formula titles, and plain ones, as pages showed them."""
    path = tmp_path_factory.mktemp("csv") / "journals.db"
    engine = engine_from_url(f"sqlite:///{path}")
    create_schema(engine)
    titles = (*FORMULAS, *HELD_OUT, *PLAIN)
    write_journals(
        engine, [JournalItem(source="hostile", url=f"http://127.0.0.1:9/j/{i}", title=t) for i, t in enumerate(titles)]
    )
    engine.dispose()
    return path


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8")


def test_datasettes_csv_defuses_formulas_and_its_json_keeps_the_titles(database: Path, tmp_path: Path) -> None:
    with browse_server(PROJECT_ROOT, database, tmp_path / "browse.log") as base_url:
        table = f"{base_url}/{database.stem}/journals"
        streamed = _get(f"{table}.csv?_stream=on&_col=title&_size=max")
        paged = _get(f"{table}.csv?_col=title&_dl=1")
        query = _get(f"{base_url}/{database.stem}.csv?sql=select+title+from+journals")
        shown = json.loads(_get(f"{table}.json?_col=title&_shape=array"))
    for text in (streamed, paged, query):
        cells = {row["title"] for row in csv.DictReader(io.StringIO(text))}
        assert cells == {"'" + t for t in (*FORMULAS, *HELD_OUT)} | set(PLAIN)
    assert {row["title"] for row in shown} == {*FORMULAS, *HELD_OUT, *PLAIN}


def test_a_record_cut_between_chunks_is_rewritten_once_whole() -> None:
    rows = [["title", "n"], ["=1+1 Journal", "1"], ['multi\nline "quoted" =x', "-2"], ["@SUM(1)", "3"]]
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    data = out.getvalue().encode()
    stream = DefusedCsvStream()
    rewritten = b"".join(stream.feed(data[i : i + 7]) for i in range(0, len(data), 7)) + stream.feed(b"", final=True)
    assert list(csv.reader(io.StringIO(rewritten.decode(), newline=""))) == [
        [defuse_formula(cell) for cell in row] for row in rows
    ]
    assert complete_records_end('a,"b\n') == 0 and complete_records_end('a,"b\nc"\nd') == len('a,"b\nc"\n')
