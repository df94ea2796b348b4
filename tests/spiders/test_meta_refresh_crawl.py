"""A crawl over real HTTP follows a page's meta refresh as Scrapy's redirects do: within the crawl's site, within
``METAREFRESH_MAXDELAY``, never one inside ``<noscript>``; the spider reads it off the page it parsed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import read_items, run_scrapy

JOURNALS = {
    "acta": "Acta Mathematica Nova",
    "beta": "Beta Journal of Botany",
    "gamma": "Gamma Review of Geology",
    "delta": "Delta Letters in Physics",
    "epsilon": "Epsilon Journal of Chemistry",
    "zeta": "Zeta Annals of Zoology",
}


def journal_page(slug: str, head: str = "", metrics: str | None = None) -> str:
    """A journal's home page naming its ISSN, ``head`` in its ``<head>``, linking its metrics page if given."""
    link = f'<a href="{metrics}">Journal metrics</a>' if metrics else ""
    return (
        f"<html><head><title>{JOURNALS[slug]}</title>{head}</head><body><h1>{JOURNALS[slug]}</h1>"
        f"<p>ISSN 0028-0836</p>{link}</body></html>"
    )


def refreshing(to: str, seconds: int = 0) -> str:
    return f'<meta http-equiv="refresh" content="{seconds}; url={to}">'


def site_pages(outside: str) -> dict[str, str]:
    """The site: a list of six journals, whose pages refresh in each way a page can."""
    entries = "".join(f'<li><a href="/journal/{slug}">{title}</a></li>' for slug, title in JOURNALS.items())
    return {
        "/journals/": f"<html><head><title>Journals</title></head><body><h1>All journals</h1><ul>{entries}</ul>"
        "</body></html>",
        # Refreshes at once to its real page, which is read in its place.
        "/journal/acta": f"<html><head>{refreshing('/journal/acta/home')}</head><body>Moved</body></html>",
        "/journal/acta/home": journal_page("acta"),
        # A refresh inside <noscript> is for browsers without scripts: the page is read as it is.
        "/journal/beta": journal_page("beta", f"<noscript>{refreshing('/no-script')}</noscript>"),
        # A refresh off the crawl's site is refused as it is downloaded; the journal is lost, counted.
        "/journal/gamma": f"<html><head>{refreshing(outside + '/gamma')}</head><body>Gone</body></html>",
        # Past METAREFRESH_MAXDELAY (100 s): not followed, the page is read as it is.
        "/journal/delta": journal_page("delta", refreshing("/journal/delta/later", 500)),
        # A metrics page that refreshes to this year's: the journal's metrics page is the one it leads to.
        "/journal/epsilon": journal_page("epsilon", metrics="/journal/epsilon/metrics"),
        "/journal/epsilon/metrics": f"<html><head>{refreshing('/journal/epsilon/metrics/2025')}</head></html>",
        "/journal/epsilon/metrics/2025": "<html><body><h1>Metrics</h1><p>Impact factor 2.5</p></body></html>",
        # A metrics page that refreshes to itself: past REDIRECT_MAX_TIMES the journal keeps its home page.
        "/journal/zeta": journal_page("zeta", metrics="/journal/zeta/metrics"),
        "/journal/zeta/metrics": f"<html><head>{refreshing('/journal/zeta/metrics')}</head></html>",
    }


class SiteHandler(BaseHTTPRequestHandler):
    """Serves its server's ``pages``, recording every path asked for."""

    def do_GET(self) -> None:
        """One page, or 404."""
        self.server.asked.append(self.path)  # type: ignore[attr-defined]
        body = self.server.pages.get(self.path)  # type: ignore[attr-defined]
        if body is None:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet."""


def serve(pages: dict[str, str]) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SiteHandler)
    server.pages = pages  # type: ignore[attr-defined]
    server.asked = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[dict], list[str], list[str], str]]:
    """The crawl of the site: its items, the paths the site and another service on the machine were asked, its log."""
    outside = serve({"/gamma": journal_page("gamma")})
    site = serve({})
    site.pages.update(site_pages(f"http://127.0.0.1:{outside.server_port}"))  # type: ignore[attr-defined]
    folder = tmp_path_factory.mktemp("refresh")
    feed = folder / "items.jsonl"
    result = run_scrapy(
        "crawl",
        "publisher",
        "-a",
        f"start_url=http://127.0.0.1:{site.server_port}/journals/",
        "-O",
        str(feed),
        "-s",
        f"DATABASE_URL=sqlite:///{Path(folder) / 'journals.db'}",
        "-s",
        "HTTPCACHE_ENABLED=False",
    )
    yield (
        read_items(feed) if feed.exists() else [],
        list(site.asked),  # type: ignore[attr-defined]
        list(outside.asked),  # type: ignore[attr-defined]
        result.stderr,
    )
    for server in (site, outside):
        server.shutdown()
        server.server_close()


def test_a_meta_refresh_is_followed_and_the_page_it_leads_to_read_in_its_place(crawled: tuple) -> None:
    items, asked, _, log = crawled
    assert "Traceback" not in log, log[-3000:]
    urls = {item["url"] for item in items}
    assert any(url.endswith("/journal/acta/home") for url in urls), sorted(urls)
    assert not any(url.endswith("/journal/acta") for url in urls)
    assert asked.count("/journal/acta/home") == 1


def test_a_refresh_inside_noscript_is_not_followed(crawled: tuple) -> None:
    items, asked, _, _ = crawled
    assert "/no-script" not in asked
    assert any(item["url"].endswith("/journal/beta") for item in items)


def test_a_refresh_off_the_site_is_refused_before_it_is_downloaded(crawled: tuple) -> None:
    items, _, outside_asked, log = crawled
    assert outside_asked == []
    assert "(outside the crawl's site)" in log
    assert not any("gamma" in item["url"] for item in items)


def test_a_refresh_later_than_the_maximum_delay_is_not_followed(crawled: tuple) -> None:
    items, asked, _, _ = crawled
    assert "/journal/delta/later" not in asked
    assert any(item["url"].endswith("/journal/delta") for item in items)


def test_a_metrics_page_that_refreshes_gives_the_page_it_leads_to(crawled: tuple) -> None:
    items, asked, _, _ = crawled
    assert "/journal/epsilon/metrics/2025" in asked
    (epsilon,) = [item for item in items if item["url"].endswith("/journal/epsilon")]
    assert epsilon["impact_factor"] == 2.5, epsilon


def test_a_refresh_loop_ends_past_the_maximum_redirects_and_the_journal_keeps_its_home_page(crawled: tuple) -> None:
    items, asked, _, log = crawled
    assert asked.count("/journal/zeta/metrics") == 1 + 10  # REDIRECT_MAX_TIMES
    assert "'journals/failed_pages/too_many_redirects': 1" in log
    assert any(item["url"].endswith("/journal/zeta") for item in items)


def test_every_other_page_is_asked_for_once(crawled: tuple) -> None:
    _, asked, _, _ = crawled
    pages = [path for path in asked if path not in ("/robots.txt", "/journal/zeta/metrics")]
    assert len(pages) == len(set(pages)), sorted(pages)
