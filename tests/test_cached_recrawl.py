"""Re-crawls of a sandbox site from the page cache: offline with the site stopped, and into the same rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from conftest import read_items, run_scrapy, serve_sandbox

SITE = "elsevier"


def crawl(start_url: str, database: Path, feed: Path, *settings: str) -> None:
    """``scrapy crawl elsevier`` into ``database`` and ``feed``, as a user would run it."""
    options = [arg for setting in settings for arg in ("-s", setting)]
    result = run_scrapy(
        "crawl",
        SITE,
        "-a",
        f"start_url={start_url}",
        "-O",
        str(feed),
        "-s",
        f"DATABASE_URL=sqlite:///{database}",
        *options,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]


def row_counts(database: Path) -> dict[str, int]:
    """Rows per table that a crawl writes."""
    with sqlite3.connect(database) as conn:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("sources", "journals", "attribute_values", "cached_pages")
        }


def test_offline_recrawl_from_the_cache_yields_the_same_items_and_rows(tmp_path: Path) -> None:
    sandbox = serve_sandbox(seed=3, journals=60)
    start_url = sandbox.start_url(SITE)
    database = tmp_path / "journals.db"
    try:
        crawl(start_url, database, tmp_path / "online.jsonl")
    finally:
        sandbox.server.shutdown()
        sandbox.server.server_close()
    online = read_items(tmp_path / "online.jsonl")
    counts = row_counts(database)
    assert counts["journals"] == len(online) == len(sandbox.truth["sites"][SITE]["journals"])
    assert counts["cached_pages"] > counts["journals"]

    crawl(start_url, database, tmp_path / "offline.jsonl", "HTTPCACHE_IGNORE_MISSING=True")
    offline = read_items(tmp_path / "offline.jsonl")

    def by_url(item):
        return item["url"]

    assert sorted(offline, key=by_url) == sorted(online, key=by_url)
    assert row_counts(database) == counts
