"""Re-crawls of a sandbox site from the page cache: offline with the site stopped, and into the same rows."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from journals.sandbox.server import SandboxServer
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SITE = "elsevier"


def crawl(start_url: str, database: Path, feed: Path, *settings: str) -> list[dict]:
    """``scrapy crawl elsevier`` into ``database`` and ``feed`` as a user would run it; the feed's items."""
    options = [arg for setting in (f"DATABASE_URL=sqlite:///{database}", *settings) for arg in ("-s", setting)]
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", SITE, "-a", f"start_url={start_url}", "-O", str(feed), *options],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]


def row_counts(database: Path) -> dict[str, int]:
    """Rows per table that a crawl writes."""
    with sqlite3.connect(database) as conn:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("sources", "journals", "attribute_values", "cached_pages")
        }


def by_url(item: dict) -> str:
    """Sort key: the journal page URL."""
    return item["url"]


def test_offline_recrawl_from_the_cache_yields_the_same_items_and_rows(tmp_path: Path) -> None:
    web = SandboxWeb(seed=3, size=60)
    server = SandboxServer(web, port=0)
    server.start_in_thread()
    start_url = f"{server.base_url}/{SITE}/"
    journals = world_truth(web, server.base_url)["sites"][SITE]["journals"]
    database = tmp_path / "journals.db"
    try:
        online = crawl(start_url, database, tmp_path / "online.jsonl")
    finally:
        server.shutdown()
        server.server_close()
    counts = row_counts(database)
    assert counts["journals"] == len(online) == len(journals)
    assert counts["cached_pages"] > counts["journals"]

    offline = crawl(start_url, database, tmp_path / "offline.jsonl", "HTTPCACHE_IGNORE_MISSING=True")
    assert sorted(offline, key=by_url) == sorted(online, key=by_url)
    assert row_counts(database) == counts
