"""The crawl health check on real crawls of the sandbox: a healthy crawl passes; a re-crawl that finds half the
journals fails, says why, and ``scrapy crawl`` exits with status 3; so does a first crawl whose start page cannot
be fetched (HTTP 404 or 500, connection refused, DNS lookup failed, timed out) or that finds no journal."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import SANDBOX_JOURNALS, SANDBOX_SEED, RunningSandbox, run_scrapy, serve_sandbox

from journals.crawl_health import Margins, SourceSnapshot, came_to_nothing, fetch_failure, item_problems, regressions
from journals.items import JournalItem

FAST = ("-s", "RETRY_TIMES=1", "-s", "DOWNLOAD_TIMEOUT=1")
"""Keep the failing crawls short: one retry, a one-second timeout."""


def crawl(sandbox: RunningSandbox, tmp_path: Path, *args: str):
    """Crawl the sandbox's BMJ twin into the test's database (the source is ``bmj`` whatever the port)."""
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    return run_scrapy("crawl", "bmj", "-a", f"start_url={sandbox.start_url('bmj')}", "-s", database, *args)


def test_a_healthy_crawl_passes_and_half_the_journals_fail_the_next(sandbox: RunningSandbox, tmp_path: Path) -> None:
    """Then a re-crawl from a start page that cannot be fetched fails naming it."""
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

    # A scheduled re-crawl whose start page cannot be fetched says so, rather than "0 journals, N before (-100%)".
    dead = f"http://127.0.0.1:{free_port()}/bmj/"
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    unreachable = run_scrapy("crawl", "bmj", "-a", f"start_url={dead}", "-s", database, *FAST)
    assert unreachable.returncode == 3, unreachable.stderr[-3000:]
    assert failed_lines(unreachable.stderr) == [f"bmj: start page {dead} could not be fetched: connection refused"]


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


class BadStartHandler(BaseHTTPRequestHandler):
    """Start pages that fail, or find nothing, or redirect to the sandbox (``server.redirect_to``)."""

    def do_GET(self) -> None:
        """Answer by path: ``/missing/`` 404, ``/broken/`` 500, ``/gone/`` a redirect to a 404, ``/slow/`` too late,
        ``/empty/`` a page without journals, ``/moved/`` a redirect to the sandbox; anything else 404."""
        self.server.requests[self.path] += 1  # type: ignore[attr-defined]
        if self.path == "/broken/":
            self.send_error(500)
        elif self.path in ("/gone/", "/moved/"):
            self.send_response(302)
            target = "/gone-for-good/" if self.path == "/gone/" else self.server.redirect_to  # type: ignore[attr-defined]
            self.send_header("Location", target)
            self.end_headers()
        elif self.path == "/slow/":
            time.sleep(3)
            self.send_error(504)
        elif self.path == "/empty/":
            body = b"<html><head><title>Journals</title></head><body><p>Coming soon.</p></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet."""


@pytest.fixture
def bad_site(sandbox: RunningSandbox) -> Iterator[ThreadingHTTPServer]:
    """A site of bad start pages on a free port of 127.0.0.1 (its ``/moved/`` leads to the sandbox's Oxford)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BadStartHandler)
    server.daemon_threads = True
    server.block_on_close = False
    server.requests = Counter()  # type: ignore[attr-defined]
    server.redirect_to = sandbox.start_url("oxford")  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def site_url(server: ThreadingHTTPServer, path: str) -> str:
    """``http://127.0.0.1:PORT/PATH``."""
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def crawl_publisher(tmp_path: Path, *start_urls: str, fast: bool = True):
    """``scrapy crawl publisher`` from ``start_urls`` into the test's database; ``fast`` with :data:`FAST`.

    A crawl that must find every journal of a sandbox site is not ``fast``: on a loaded machine a sandbox page can
    take longer than one second twice, and a journal would be lost to the test's own timeout."""
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    settings = FAST if fast else ()
    return run_scrapy("crawl", "publisher", "-a", f"start_urls={','.join(start_urls)}", "-s", database, *settings)


def failed_lines(log: str) -> list[str]:
    """What follows ``Crawl health check failed:`` on each such line of a crawl's log."""
    return re.findall(r"Crawl health check failed: (.*)", log)


@pytest.mark.parametrize(
    ("path", "source", "reason"),
    [
        ("/missing/", "missing", "HTTP 404"),
        ("/broken/", "broken", "HTTP 500"),
        ("/gone/", "gone", "HTTP 404"),  # redirected, then 404: named by the URL it was given
        ("/slow/", "slow", "timed out"),
    ],
)
def test_a_start_page_that_cannot_be_fetched_fails_the_first_crawl(
    bad_site: ThreadingHTTPServer, tmp_path: Path, path: str, source: str, reason: str
) -> None:
    result = crawl_publisher(tmp_path, site_url(bad_site, path))
    assert result.returncode == 3, result.stderr[-3000:]
    assert failed_lines(result.stderr) == [
        f"{source}: start page {site_url(bad_site, path)} could not be fetched: {reason}"
    ]
    assert "'health/failed': True" in result.stderr
    assert "Traceback" not in result.stderr
    if path == "/broken/":
        assert bad_site.requests[path] == 2, "given up after Scrapy's retry"  # type: ignore[attr-defined]


def test_connection_refused_and_dns_failure_fail_the_crawl(tmp_path: Path) -> None:
    refused = f"http://127.0.0.1:{free_port()}/refused/"
    result = crawl_publisher(tmp_path, refused, "http://nonexistent.invalid/")
    assert result.returncode == 3, result.stderr[-3000:]
    assert failed_lines(result.stderr) == [
        "nonexistent.invalid: start page http://nonexistent.invalid/ could not be fetched: DNS lookup failed",
        f"refused: start page {refused} could not be fetched: connection refused",
    ]


def test_a_start_page_without_journals_fails_the_crawl(bad_site: ThreadingHTTPServer, tmp_path: Path) -> None:
    result = crawl_publisher(tmp_path, site_url(bad_site, "/empty/"))
    assert result.returncode == 3, result.stderr[-3000:]
    assert failed_lines(result.stderr) == [
        f"empty: no journals found from start page {site_url(bad_site, '/empty/')} (1 page fetched)"
    ]
    assert "'health/journals/empty': 0" in result.stderr


def test_a_good_source_and_a_bad_one_fail_naming_only_the_bad_one(
    sandbox: RunningSandbox, bad_site: ThreadingHTTPServer, tmp_path: Path
) -> None:
    """A start URL that redirects to a good site is good; a failed start page is left out of the error rate."""
    good, moved, bad = sandbox.start_url("bmj"), site_url(bad_site, "/moved/"), site_url(bad_site, "/missing/")
    result = crawl_publisher(tmp_path, good, moved, bad, fast=False)
    assert result.returncode == 3, result.stderr[-3000:]
    assert failed_lines(result.stderr) == [f"missing: start page {bad} could not be fetched: HTTP 404"]
    assert f"'health/journals/bmj': {len(sandbox.truth['sites']['bmj']['journals'])}" in result.stderr
    assert f"'health/journals/moved': {len(sandbox.truth['sites']['oxford']['journals'])}" in result.stderr


def test_a_finished_jobdir_crawl_run_again_does_not_report_its_start_page(
    sandbox: RunningSandbox, tmp_path: Path
) -> None:
    """The second run's start request is dropped by the job's duplicate filter: done already, not failed."""
    jobdir = ("-s", f"JOBDIR={tmp_path / 'job'}")
    first = crawl(sandbox, tmp_path, *jobdir)
    assert first.returncode == 0, first.stderr[-3000:]
    again = crawl(sandbox, tmp_path, *jobdir)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "'dupefilter/filtered': 1" in again.stderr
    assert "Crawl health check passed" in again.stderr


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


def test_the_previous_crawl_is_the_last_crawl_run_not_a_day_of_them(tmp_path: Path) -> None:
    """Two crawls an hour apart, each of 3 journals under other URLs (the sandbox's port changes): the previous
    crawl has 3 journals, not 6."""
    from datetime import UTC, datetime, timedelta

    from journals.store import create_schema, engine_from_url
    from journals.store.crawl_history import previous_crawls
    from journals.store.crawl_runs import record_run
    from journals.store.writer import write_journals

    engine = engine_from_url(f"sqlite:///{tmp_path / 'journals.db'}")
    create_schema(engine)
    start = datetime(2026, 12, 1, 10, tzinfo=UTC)
    for run, port in enumerate((8001, 8002)):
        began = start + timedelta(hours=run)
        items = [JournalItem(source="bmj", url=f"http://127.0.0.1:{port}/bmj/j/{n}", title=f"J{n}") for n in range(3)]
        write_journals(engine, items, crawled_at=began + timedelta(minutes=1))
        record_run(engine, "bmj", {"start_time": began, "finish_time": began + timedelta(minutes=2)})
    assert previous_crawls(engine, start + timedelta(hours=3), timedelta(hours=24))["bmj"].journals == 3
    engine.dispose()
