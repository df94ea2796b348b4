"""The crawl health check on real crawls of the sandbox: a healthy crawl passes; a re-crawl that finds half the
journals fails, says why, and ``scrapy crawl`` exits with status 3."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SANDBOX_JOURNALS, SANDBOX_SEED, RunningSandbox, run_scrapy, serve_sandbox

from journals.health import Margins, SourceSnapshot, came_to_nothing, fetch_failure, item_problems, regressions
from journals.items import JournalItem


def crawl(sandbox: RunningSandbox, tmp_path: Path):
    """Crawl the sandbox's BMJ twin into the test's database (the source is ``bmj`` whatever the port)."""
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    return run_scrapy("crawl", "bmj", "-a", f"start_url={sandbox.start_url('bmj')}", "-s", database)


def test_a_healthy_crawl_passes_and_half_the_journals_fail_the_next(sandbox: RunningSandbox, tmp_path: Path) -> None:
    journals = len(sandbox.truth["sites"]["bmj"]["journals"])
    first = crawl(sandbox, tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Crawl health check passed" in first.stderr
    assert "'health/failed': False" in first.stderr
    assert f"'health/journals/bmj': {journals}" in first.stderr

    again = crawl(sandbox, tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]

    smaller = serve_sandbox(SANDBOX_SEED, SANDBOX_JOURNALS // 2)  # the same site listing half the journals
    try:
        half = crawl(smaller, tmp_path)
    finally:
        smaller.server.shutdown()
        smaller.server.server_close()
    remaining = len(smaller.truth["sites"]["bmj"]["journals"])
    assert remaining < journals * 0.9
    assert half.returncode == 3, half.stderr[-3000:]
    assert "Traceback" not in half.stderr
    assert "'health/failed': True" in half.stderr
    failed = re.findall(r"Crawl health check failed: (.*)", half.stderr)
    assert f"bmj: {remaining} journals, {journals} in the previous crawl" in "\n".join(failed), failed


def test_items_breaking_the_schema_are_named() -> None:
    good = JournalItem(source="s", url="http://s/j", issn="0028-0836", impact_factor=4.1, title="Nature")
    assert item_problems(good) == []
    bad = JournalItem(source="s", url="j", issn="0028-0837", sjr=float("nan"), citescore=True, title=" ")
    assert item_problems(bad) == [
        "url 'j' is not an http(s) URL",
        "issn '0028-0837' is not NNNN-NNNC with a valid check digit",
        "citescore True is not a non-negative number",
        "sjr nan is not a non-negative number",
        "title ' ' is not a text",
    ]


def test_regressions_beyond_the_margins() -> None:
    previous = SourceSnapshot(100, {"impact_factor": 95, "issn": 100})
    margins = Margins(coverage=0.1, completeness=0.1)
    assert regressions("s", previous, SourceSnapshot(91, {"impact_factor": 80, "issn": 91}), margins) == []
    assert regressions("s", SourceSnapshot(), SourceSnapshot(1), margins) == []
    assert regressions("s", previous, SourceSnapshot(50, {"impact_factor": 20, "issn": 50}), margins) == [
        "s: 50 journals, 100 in the previous crawl (-50%, margin 10%)",
        "s: impact_factor in 40% of the journals, 95% in the previous crawl (margin 10%)",
    ]


def test_how_a_source_that_came_to_nothing_is_named() -> None:
    assert fetch_failure("http_503") == "HTTP 503"
    assert fetch_failure("CannotResolveHostError", "DNS lookup failed: no results") == "DNS lookup failed"
    assert fetch_failure("IgnoreRequest", "Forbidden by robots.txt") == "forbidden by robots.txt"
    assert fetch_failure("ResponseDataLossError", "cut") == "ResponseDataLossError: cut"
    failed = [{"url": "http://s/", "cause": "DownloadConnectionRefusedError", "error": "refused"}]
    assert came_to_nothing("s", "http://s/", failed, 0, 0) == [
        "s: start page http://s/ could not be fetched: connection refused"
    ]
    assert came_to_nothing("s", "http://s/", [], 0, 12) == [
        "s: no journals found from start page http://s/ (12 pages fetched)"
    ]
    assert came_to_nothing("s", "http://s/", [], 5, 12) == []
    assert came_to_nothing("s", "http://s/", [], None, 0) == [], "journals unknown: only failed start pages count"
