"""A re-crawl a "year later": pages revalidate through the cache's RFC 2616 policy (ETag, 304) and only the
journals whose pages changed are extracted again; the database ends up with the new edition's values."""

import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from conftest import read_items, run_scrapy

from journals.sandbox.server import SandboxServer
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from lab.crawlrun import stats_from_log

SEED, JOURNALS, SITE = 4, 300, "elsevier"
RECRAWL = ("-s", "HTTPCACHE_POLICY=scrapy.extensions.httpcache.RFC2616Policy")


def crawl(server: SandboxServer, tmp_path: Path, name: str, *settings: str) -> tuple[str, list[dict]]:
    feed = tmp_path / f"{name}.jsonl"
    result = run_scrapy(
        "crawl",
        SITE,
        "-a",
        f"start_url={server.base_url}/{SITE}/",
        "-O",
        str(feed),
        "-s",
        f"DATABASE_URL=sqlite:///{tmp_path / 'j.db'}",
        *RECRAWL,
        *settings,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr, read_items(feed)


def page_bytes(web: SandboxWeb, url: str) -> bytes:
    parts = urlsplit(url)
    return web.respond(parts.path, parts.query).body


def stored_impact_factors(database: Path) -> dict[str, float]:
    with sqlite3.connect(database) as conn:
        return dict(
            conn.execute(
                "select j.url, a.number from attribute_values a join journals j on j.id = a.journal_id "
                "where a.attribute = 'impact_factor'"
            ).fetchall()
        )


def test_recrawl_revalidates_and_reextracts_only_changed_journals(tmp_path: Path) -> None:
    server = SandboxServer(SandboxWeb(SEED, JOURNALS, edition=1), port=0)
    server.start_in_thread()
    before = SandboxWeb(SEED, JOURNALS, edition=1)
    try:
        _, first = crawl(server, tmp_path, "first")
        server.web = SandboxWeb(SEED, JOURNALS, edition=2)
        log, second = crawl(server, tmp_path, "second", "-s", "EXTRACT_UNCHANGED_PAGES=False")
        truth = world_truth(server.web, server.base_url)["sites"][SITE]["journals"]
    finally:
        server.shutdown()
        server.server_close()
    assert len(first) == len(truth)
    old = {item["url"]: item["impact_factor"] for item in first}
    new = {j["url"]: j["values"]["impact_factor"] for j in truth}
    changed = {url for url in new if new[url] != old[url]}
    assert 0 < len(changed) < len(new) // 3
    # A page also changes when its sidebar quotes a journal whose metrics changed: re-extracted, rightly.
    pages_changed = {
        j["url"]
        for j in truth
        if any(page_bytes(before, url) != page_bytes(server.web, url) for url in (j["url"], j["metrics_url"]) if url)
    }
    assert changed <= pages_changed
    stats = stats_from_log(log)
    assert stats.get("httpcache/revalidate", 0) > 0
    assert {item["url"] for item in second} == pages_changed
    assert stats.get("extraction/unchanged_skipped", 0) == len(new) - len(pages_changed)
    assert stored_impact_factors(tmp_path / "j.db") == {url: v for url, v in new.items() if v is not None}
    assert stats["health/failed"] is False, "unchanged journals count as seen by this crawl"
    # A page a 304 confirmed keeps its stored body: only its headers and time are written again.
    assert 0 < stats.get("httpcache/refreshed", 0) <= stats["httpcache/revalidate"]
    assert stats.get("httpcache/store", 0) - stats["httpcache/refreshed"] < stats["httpcache/refreshed"]
    unchanged = len(new) - len(pages_changed)
    assert f"unchanged {unchanged}" in log, "the progress line counts the unchanged journals"
    assert f"{unchanged} journals unchanged since the last crawl" in log
