"""``scrapy report`` on a database with nothing crawled: a page that says so, not an error; ``report``, ``integrate``
and ``browse`` on a database that is not there (a mistyped ``DATABASE_URL``): one line, and no empty database made.

The full report, on a real crawl and read in Chromium, is tested in tests/browse/test_browse_and_report.py.
"""

from __future__ import annotations

import pytest
from conftest import run_scrapy

from journals.store import create_schema, engine_from_url


def test_report_of_an_empty_database_says_what_is_missing(tmp_path):
    page = tmp_path / "report.html"
    engine = engine_from_url(f"sqlite:///{tmp_path / 'empty.db'}")
    create_schema(engine)
    engine.dispose()
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


@pytest.mark.parametrize("command", [("report", "-o", "report.html"), ("integrate",), ("browse", "--views-only")])
def test_a_mistyped_database_url_is_one_line_and_creates_no_database(tmp_path, command):
    mistyped = tmp_path / "jounrals.db"
    result = run_scrapy(command[0], "-s", f"DATABASE_URL=sqlite:///{mistyped}", *command[1:])
    assert result.returncode != 0
    assert f"no database at {mistyped}: crawl first (make crawl) or check DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
    assert not mistyped.exists() and not (tmp_path / "report.html").exists()
