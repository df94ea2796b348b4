"""``scrapy integrate`` end to end: crawl the in-process sandbox into a fresh SQLite file, integrate, score."""

from __future__ import annotations

import csv
import json
import sqlite3

from conftest import run_scrapy

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
    assert list(rows[0]) == [
        "title",
        "issn",
        "eissn",
        "impact_factor",
        "five_year_impact_factor",
        "citescore",
        "sjr",
        "snip",
        "editor_in_chief",
        "sources",
    ]
    assert len(rows) == len(sandbox.truth["relation"])

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


def test_export_must_be_csv_or_json(tmp_path):
    result = run_scrapy("integrate", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'x.db'}", "-O", str(tmp_path / "x.xml"))
    assert result.returncode != 0
    assert "csv or .json" in result.stderr
