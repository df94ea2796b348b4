"""The year a metric is for, read beside its value or its label, never from further away; values unchanged."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest
from conftest import RunningSandbox, run_scrapy

from journals.extraction.extract import extract_journal
from journals.extraction.templates import LearnedRules
from journals.items import FetchedPage
from journals.sandbox.relation import METRIC_YEAR

PAGE = """<html><head><title>Acta Testica</title></head><body><main><h1>Acta Testica</h1>
<p>ISSN: 0140-6736</p>{metrics}</main><footer>© 1998–2026 Test Press. Founded 1987.</footer></body></html>"""


def metrics(html: str) -> dict[str, tuple[object, int | None]]:
    """Per metric of a journal page holding ``html``, its value and year as the extraction reads them."""
    url = "https://press.example/journal/acta"
    extraction = extract_journal([FetchedPage(url=url, html=PAGE.format(metrics=html), role="home")], LearnedRules())
    return {
        name: (found.value, found.year)
        for name, found in extraction.values.items()
        if name in ("impact_factor", "five_year_impact_factor", "citescore", "sjr", "snip")
    }


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<dl><dt>Impact factor</dt><dd>1,630 (2024)</dd></dl>", {"impact_factor": (1.63, 2024)}),
        ("<dl><dt>Impact Factor (2024)</dt><dd>4.117</dd></dl>", {"impact_factor": (4.117, 2024)}),
        ("<p>2023 CiteScore: 5.1</p>", {"citescore": (5.1, 2023)}),
        ("<p>Impact Factor (2024): 4.117</p>", {"impact_factor": (4.117, 2024)}),
        (
            "<table><tr><th>Metric</th><th>2022</th><th>2023</th></tr><tr><td>CiteScore</td><td>4.0</td>"
            "<td>5.1</td></tr></table>",
            {"citescore": (5.1, 2023)},
        ),
        ("<dl><dt>Impact factor</dt><dd>4.117</dd><dt>SJR</dt><dd>1.2</dd></dl>", {"impact_factor": (4.117, None)}),
    ],
)
def test_the_year_written_with_a_metric_is_kept(html, expected):
    found = metrics(html)
    for name, pair in expected.items():
        assert found[name] == pair
    assert all(year in (None, 2023, 2024) for _, year in found.values())  # never the footer's years


def test_a_crawl_stores_and_exports_each_metrics_year(sandbox: RunningSandbox, tmp_path: Path) -> None:
    """Springer's twin writes "5.762 (2024)" under its metrics: the rows and the CSV keep the year, and no metric
    gets a year the page does not write with it."""
    database, feed = tmp_path / "journals.db", tmp_path / "journals.csv"
    result = run_scrapy(
        "crawl", "publisher", "-a", f"start_url={sandbox.start_url('springer')}",
        "-s", f"DATABASE_URL=sqlite:///{database}", "-O", str(feed),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    with sqlite3.connect(database) as conn:
        years = conn.execute(
            "select attribute, year, count(*) from attribute_values where attribute in "
            "('impact_factor', 'five_year_impact_factor', 'sjr', 'snip', 'citescore') group by attribute, year"
        ).fetchall()
    conn.close()
    assert {year for _, year, _ in years} <= {METRIC_YEAR, None}
    assert sum(count for _, year, count in years if year == METRIC_YEAR) > 0
    with feed.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    exported = [row for row in rows if row["sjr"]]
    assert exported and all(row["sjr_year"] in ("", str(METRIC_YEAR)) for row in exported)
    assert any(row["sjr_year"] == str(METRIC_YEAR) for row in exported)
    assert all(row["sjr_year"] == "" for row in rows if not row["sjr"])


def test_digits_of_an_issn_or_a_future_year_beside_a_metric_are_no_year():
    html = (
        "<dl><dt>ISSN</dt><dd>1998-2054</dd><dt>Impact Factor</dt><dd>1.013</dd><dt>CiteScore</dt><dd>1.2</dd></dl>"
        "<p>SJR 2087: 0.5</p>"
    )
    found = metrics(html)
    assert found["impact_factor"] == (1.013, None) and found["citescore"] == (1.2, None)
    assert found.get("sjr", (0.5, None))[1] is None
