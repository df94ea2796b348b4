"""Browse and report as a person would: a sandbox crawl's database served by ``scrapy browse`` (Datasette) and the
page ``scrapy report`` writes, both opened in headless Chromium, read, and saved as screenshots."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import browser
import pytest
from browser import browse_server, in_chromium, table_rows
from conftest import PROJECT_ROOT, RunningSandbox, run_scrapy

if TYPE_CHECKING:
    from playwright.sync_api import Page

SOURCES = ("elsevier", "springer", "wiley", "scimago", "metricsdb")
"""Publishers with subjects and open access, an aggregator naming publishers, and one without labels."""


@pytest.fixture(scope="module")
def crawled(sandbox: RunningSandbox, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A crawl of the sandbox into a fresh SQLite ``journals.db``, integrated, with the browsing views;
    ``truth.json`` beside it."""
    folder = tmp_path_factory.mktemp("browse")
    database = folder / "journals.db"
    (folder / "truth.json").write_text(json.dumps(sandbox.truth), encoding="utf-8")
    setting = f"DATABASE_URL=sqlite:///{database}"
    starts = ",".join(sandbox.start_url(source) for source in SOURCES)
    crawl = run_scrapy("crawl", "publisher", "-a", f"start_urls={starts}", "-s", setting, "-s", "LOG_LEVEL=WARNING")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    integrate = run_scrapy("integrate", "-s", setting)
    assert integrate.returncode == 0, integrate.stderr[-2000:]
    views = run_scrapy("browse", "--views-only", "-s", setting)
    assert views.returncode == 0 and "journal_overview" in views.stdout, views.stderr[-2000:]
    return database


def test_a_researcher_finds_open_access_journals_above_an_impact_factor_in_datasette(crawled, tmp_path):
    with sqlite3.connect(crawled) as conn:
        subject, expected_count = conn.execute(
            "select subject, count(*) from journal_overview where impact_factor >= 3 and open_access = 'yes' "
            "and subject is not null group by subject order by 2 desc, 1 limit 1"
        ).fetchone()
        expected = {
            title
            for (title,) in conn.execute(
                "select title from journal_overview where subject = ? and impact_factor >= 3 and open_access = 'yes'",
                (subject,),
            )
        }
        conflicting_title = conn.execute(
            "select j.title from integrated_values v join integrated_journals j on j.id = v.integrated_journal_id "
            "where v.conflicting limit 1"
        ).fetchone()[0]
    screenshot = tmp_path / "datasette-canned-query.png"

    def browse(page: Page, base_url: str) -> None:
        page.goto(f"{base_url}/journals/journal_overview")
        assert page.locator("h1").inner_text().startswith("Journals")
        facets = page.locator(".facet-info").evaluate_all("nodes => nodes.map(n => n.dataset.column)")
        assert {"subject", "publisher", "open_access"} <= set(facets)

        page.goto(f"{base_url}/journals/journals_by_subject_and_metric")
        page.fill("input[name=subject]", subject)
        page.fill("input[name=metric]", "impact_factor")
        page.fill("input[name=min_value]", "3")
        page.fill("input[name=open_access]", "yes")
        page.click("input[type=submit]")
        page.wait_for_selector("table.rows-and-columns")
        page.screenshot(path=str(screenshot), full_page=True)
        rows = table_rows(page, "table.rows-and-columns")
        assert list(rows[0])[:5] == ["Title", "Subject", "Publisher", "Open access", "Metric"]
        assert len(rows) == expected_count > 0
        assert {row["Title"] for row in rows} == expected
        assert {(row["Subject"], row["Open access"]) for row in rows} == {(subject, "yes")}
        metrics = [float(row["Metric"]) for row in rows]
        assert metrics == sorted(metrics, reverse=True) and min(metrics) >= 3

        page.goto(f"{base_url}/journals/journal_across_sources?title={conflicting_title}")
        page.wait_for_selector("table.rows-and-columns")
        claims = table_rows(page, "table.rows-and-columns")
        assert {row["Journal"] for row in claims} >= {conflicting_title}
        assert len({row["Source"] for row in claims}) >= 2
        assert {row["Agrees"] for row in claims} == {"yes", "no"}
        assert all(row["Page"].startswith("http://127.0.0.1") for row in claims)

    with browse_server(PROJECT_ROOT, crawled, tmp_path / "browse.log") as base_url:
        in_chromium(lambda page: browse(page, base_url))
    assert screenshot.stat().st_size > 10_000


def test_the_journals_table_browsed_is_the_one_exported_with_keys_and_metric_years(crawled, tmp_path):
    exported = tmp_path / "journals.csv"
    export = run_scrapy("export", str(exported), "-s", f"DATABASE_URL=sqlite:///{crawled}")
    assert export.returncode == 0, export.stderr[-2000:]
    with exported.open(newline="", encoding="utf-8") as handle:
        expected = list(csv.DictReader(handle))
    with sqlite3.connect(crawled) as conn:
        conn.row_factory = sqlite3.Row
        browsed = [dict(row) for row in conn.execute("select * from journal_table")]
    assert expected and len(browsed) == len(expected)
    assert list(browsed[0]) == list(expected[0])  # the same columns, in the same order
    by_key = {row["key"]: row for row in browsed}
    for row in expected:
        shown = by_key[row["key"]]
        for column, value in row.items():
            cell = shown[column]
            if isinstance(cell, float):
                assert float(value) == cell, (row["key"], column)
            elif cell in (0, 1) and value in ("true", "false"):  # a boolean column: SQLite stores 0 and 1
                assert cell == (value == "true"), (row["key"], column)
            else:
                assert ("" if cell is None else str(cell)) == value, (row["key"], column)
    assert any(row["impact_factor_year"] for row in browsed)  # the years a metric is for are there


def test_the_report_page_shows_stats_quality_and_plots(crawled, tmp_path):
    report = tmp_path / "report.html"
    truth = crawled.parent / "truth.json"
    result = run_scrapy("report", "-s", f"DATABASE_URL=sqlite:///{crawled}", "-o", str(report), "--truth", str(truth))
    assert result.returncode == 0, result.stderr[-2000:]
    assert f"{len(SOURCES)} sources" in result.stdout
    screenshot = tmp_path / "report.png"

    def read(page: Page) -> None:
        page.goto(report.as_uri())
        page.screenshot(path=str(screenshot), full_page=True)
        sources = table_rows(page, "#sources")
        assert [row["source"] for row in sources] == [*sorted(SOURCES), "all sources"]
        assert int(sources[-1]["journal records"]) == sum(int(row["journal records"]) for row in sources[:-1]) > 0
        stats = {row["Scrapy stat"]: row["value"] for row in table_rows(page, "#crawl-stats")}
        assert stats["finish_reason"] == "finished" and int(stats["item_scraped_count"]) > 0
        quality = table_rows(page, "#quality")
        assert {row["site"] for row in quality} == set(SOURCES)
        assert all(0.0 <= float(row[measure]) <= 1.0 for row in quality for measure in ("precision", "recall", "F1"))
        impact = {row["site"]: float(row["F1"]) for row in quality if row["attribute"] == "impact_factor"}
        assert impact["elsevier"] > 0.9 and impact["springer"] > 0.9
        assert "impact_factor" in page.locator("#completeness thead").inner_text()
        images = page.locator("img")
        assert images.count() >= 5  # the quality chart and one box plot per metric
        widths = images.evaluate_all("nodes => nodes.map(n => n.complete ? n.naturalWidth : 0)")
        assert all(width > 300 for width in widths)

    in_chromium(read)
    assert screenshot.stat().st_size > 10_000


def test_a_missing_chromium_fails_with_the_command_that_installs_it(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", Path("/nonexistent/chromium"))
    with pytest.raises(pytest.fail.Exception, match="apt-get install -y chromium chromium-driver"):
        browser.in_chromium(lambda page: None)
