"""``scrapy parse --spider=publisher URL`` reads the page as a crawl's start page and prints what it gives."""

from __future__ import annotations

from pathlib import Path

from conftest import RunningSandbox, run_scrapy


def test_parse_reads_a_start_page_and_prints_its_requests(sandbox: RunningSandbox, tmp_path: Path) -> None:
    url = sandbox.start_url("elsevier")
    result = run_scrapy("parse", "--spider=publisher", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'j.db'}", url)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "callback is not defined" not in result.stderr
    assert f"<GET {url}journals?letter=a>" in result.stdout  # the start page's letters, as a crawl follows them
    assert "health check failed" not in result.stderr


def test_parse_two_levels_down_reads_a_listing_and_its_journals(sandbox: RunningSandbox, tmp_path: Path) -> None:
    url = sandbox.start_url("openaccess")  # its start page is its list: level 2 is the journal pages
    result = run_scrapy(
        "parse", "--spider=publisher", "-d", "2", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'j.db'}", url
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert ">>> STATUS DEPTH LEVEL 2 <<<" in result.stdout and "Traceback" not in result.stderr
    assert "'source': 'openaccess'" in result.stdout or "source='openaccess'" in result.stdout
