"""``scrapy report`` on a database with nothing crawled: a page that says so, not an error.

The full report, on a real crawl and read in Chromium, is tested in tests/browse/test_browse_and_report.py.
"""

from __future__ import annotations

from conftest import run_scrapy


def test_report_of_an_empty_database_says_what_is_missing(tmp_path):
    page = tmp_path / "report.html"
    result = run_scrapy("report", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'empty.db'}", "-o", str(page))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "0 sources, 0 journals" in result.stdout
    html = page.read_text(encoding="utf-8")
    assert "No crawl recorded" in html and "No metric values stored" in html and "Not integrated yet" in html


def test_report_needs_a_readable_truth(tmp_path):
    result = run_scrapy(
        "report", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'x.db'}", "--truth", str(tmp_path / "missing.json")
    )
    assert result.returncode != 0
    assert "cannot read the truth" in result.stderr
