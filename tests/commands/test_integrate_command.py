"""``scrapy integrate`` end to end: crawl the in-process sandbox into a fresh SQLite file, integrate, score."""

from __future__ import annotations

import argparse
import csv
import json
import sqlite3
from pathlib import Path

import pytest
from conftest import run_scrapy
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from journals.commands.integrate import Command
from journals.exporters import exporter_for, write_rows
from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals
from journals.table.columns import table_columns
from settings import default

FORMULA = "=cmd|' /C calc'!A0"
"""A title that a spreadsheet would run as a command (OWASP "CSV injection")."""

SOURCES = ("elsevier", "wiley", "nature", "bmj", "oxford", "springer", "scimago", "metricsdb")


def test_crawl_then_integrate_meets_the_bars_against_the_truth(sandbox, tmp_path):
    db = tmp_path / "crawl.db"
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(sandbox.truth), encoding="utf-8")
    database = f"DATABASE_URL=sqlite:///{db}"
    starts = ",".join(sandbox.start_url(s) for s in SOURCES)
    crawl = run_scrapy("crawl", "publisher", "-a", f"start_urls={starts}", "-s", database, "-s", "LOG_LEVEL=WARNING")
    assert crawl.returncode == 0, crawl.stderr[-2000:]

    out = tmp_path / "integrated.csv"
    result = run_scrapy("integrate", "-s", database, "-O", str(out), "--truth", str(truth))
    assert result.returncode == 0, result.stderr[-2000:]
    summary, _, figures_text = result.stdout.partition("\n{")
    figures = json.loads("{" + figures_text)
    assert "conflicts resolved:" in summary and "mappings:" in summary

    assert figures["linkage"]["merged_distinct_journals"] == 0
    assert figures["linkage"]["precision"] == 1.0
    assert figures["linkage"]["recall"] >= 0.995
    assert figures["mappings"]["pairwise"]["precision"] == 1.0
    assert figures["mappings"]["pairwise"]["recall"] == 1.0
    label_less = {v["gold"]: v["mapping"] for v in figures["mappings"]["label_less"].values()}
    assert label_less["impact_factor"] == "impact_factor"  # metricsdb's third column
    assert label_less["citescore"] == "citescore" and label_less["snip"] == "snip"
    for attribute, scores in figures["fusion"].items():
        assert scores["fused_accuracy"] >= scores["majority_accuracy"] - 0.01, attribute
        assert scores["fused_accuracy"] >= scores["oracle_accuracy"] - 0.05, attribute

    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(rows[0]) == list(table_columns())
    assert len(rows) == len(sandbox.truth["relation"])
    # Springer writes its metrics' year ("1.349 (2024)"): the fused values it supports keep it.
    assert {row["sjr_year"] for row in rows} <= {"", "2024"} and any(row["sjr_year"] == "2024" for row in rows)

    with sqlite3.connect(db) as conn:
        mapped = conn.execute(
            "select attribute from mappings where source = 'metricsdb' and xpath like '%td[3]%'"
        ).fetchall()
        assert mapped == [("impact_factor",)]
        provenance = conn.execute(
            "select provenance, supporters from integrated_values where conflicting = 1 limit 1"
        ).fetchone()
        assert len(json.loads(provenance[0])) >= 2 and json.loads(provenance[1])

    again = tmp_path / "integrated.json"
    rerun = run_scrapy("integrate", "-s", database, "-O", str(again))
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert len(json.loads(again.read_text(encoding="utf-8"))) == len(rows)


def project_settings(**overrides: object) -> Settings:
    """The shipped settings (``settings.default``), with ``overrides`` at command-line priority."""
    settings = Settings()
    settings.setmodule(default)
    settings.setdict(overrides, priority="cmdline")
    return settings


def integrate(url: str, *argv: str) -> None:
    """Run ``scrapy integrate ARGV`` in this process on the database at ``url``."""
    command = Command()
    command.settings = project_settings(DATABASE_URL=url)
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    command.run([], parser.parse_args(argv))


COLUMNS = table_columns()

ROWS = [
    dict.fromkeys(COLUMNS)
    | {"title": FORMULA, "issn": "0140-6736", "impact_factor": -1.5, "editor_in_chief": "@SUM(A1)", "sources": "x"},
    dict.fromkeys(COLUMNS) | {"title": "Zeitschrift für Optik", "impact_factor": 2.0, "sources": "x;y"},
]
"""Rows of the journals table: every column, ``None`` where integration found no value."""


def test_csv_export_defuses_formula_cells_like_the_crawls_feed(tmp_path: Path) -> None:
    out = tmp_path / "integrated.csv"
    write_rows(ROWS, out, COLUMNS, project_settings())
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(rows[0]) == list(COLUMNS)
    assert rows[0]["title"] == "'" + FORMULA
    assert rows[0]["editor_in_chief"] == "'@SUM(A1)"
    assert rows[0]["impact_factor"] == "-1.5"  # a number is not a formula
    assert rows[1]["title"] == "Zeitschrift für Optik" and rows[1]["issn"] == ""


@pytest.mark.parametrize("name", ["integrated.json", "integrated.jsonl"])
def test_json_and_json_lines_exports_keep_values_verbatim(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    write_rows(ROWS, out, COLUMNS, project_settings())
    text = out.read_text(encoding="utf-8")
    exported = json.loads(text) if name.endswith(".json") else [json.loads(line) for line in text.splitlines()]
    assert [row["title"] for row in exported] == [FORMULA, "Zeitschrift für Optik"]
    assert exported[0]["impact_factor"] == -1.5 and list(exported[0]) == list(COLUMNS)


def test_the_projects_feed_exporters_win_over_scrapys_base() -> None:
    assert exporter_for(Path("x.csv"), project_settings()).__name__ == "FlatCsvItemExporter"
    assert exporter_for(Path("x.jsonl"), project_settings()).__name__ == "MetricYearsJsonLinesItemExporter"
    assert exporter_for(Path("x.json"), project_settings()).__name__ == "MetricYearsJsonItemExporter"
    no_csv = project_settings(FEED_EXPORTERS={"csv": None})
    with pytest.raises(UsageError, match=r"^-O x.csv: no exporter for .csv; use one of .*\.jsonl"):
        exporter_for(Path("x.csv"), no_csv)


def test_integrate_writes_a_crawled_formula_title_defused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    engine = engine_from_url(url)
    create_schema(engine)
    write_journals(engine, [JournalItem(source="hostile", url="http://127.0.0.1:9/j/1", title=FORMULA)])
    engine.dispose()
    for name in ("integrated.csv", "integrated.jsonl"):
        integrate(url, "-O", str(tmp_path / name))
    assert next(csv.DictReader((tmp_path / "integrated.csv").open(encoding="utf-8")))["title"] == "'" + FORMULA
    assert json.loads((tmp_path / "integrated.jsonl").read_text(encoding="utf-8"))["title"] == FORMULA


def test_an_unknown_export_extension_is_one_line(tmp_path: Path) -> None:
    result = run_scrapy(
        "integrate", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'x.db'}", "-O", str(tmp_path / "x.xlsx")
    )
    assert result.returncode == 2
    assert "error: -O x.xlsx: no exporter for .xlsx; use one of .csv, .jl, .json, .jsonl," in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.xlsx").exists() and not (tmp_path / "x.db").exists()


def test_integrating_a_database_with_no_journals_writes_an_empty_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    create_schema(engine_from_url(url))
    integrate(url, "-O", str(tmp_path / "integrated.jsonl"))
    assert (tmp_path / "integrated.jsonl").read_text(encoding="utf-8") == ""
    with sqlite3.connect(tmp_path / "empty.db") as conn:
        assert conn.execute("SELECT count(*) FROM integrated_journals").fetchone() == (0,)
