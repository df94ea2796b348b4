"""Rendering in Debian's Chromium (journals.downloadermiddlewares.rendering): real crawls of a little script-built site over real HTTP.

A page whose served HTML is script-built is rendered, the rest are not; a crawl of plain pages starts no browser;
the browser fetches no images; a crawl that rendered pages replays offline with no request and no browser.
"""

from __future__ import annotations

import json
import os
import signal as signal_module
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from itemadapter import ItemAdapter
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy import Request, Spider, signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.downloadermiddlewares.rendering import (
    GROW_CLICKS,
    RENDERING_FAILED,
    RenderingMiddleware,
    abort_request,
    browser_proxy,
    rendering_meta,
)
from journals.replay.proxy import ReplayServer
from journals.spiders.publisher import PublisherSpider
from lab.crawlrun import descendants_of
from settings import default

PROJECT_SETTINGS = {name: getattr(default, name) for name in dir(default) if name.isupper()}
CHROMIUM = Path(default.PLAYWRIGHT_LAUNCH_OPTIONS["executable_path"])
JOURNALS = {
    "acta-nova": ("Acta Nova", "2049-3630", "4.25"),
    "bulletin-of-stones": ("Bulletin of Stones", "1476-4687", "1.75"),
    "cell-letters": ("Cell Letters", "0028-0836", "12.5"),
    "dune-studies": ("Dune Studies", "1532-2882", "0.98"),
}
"""The site's journals by slug: title, ISSN, impact factor."""
SCRIPT_JOURNALS = ("cell-letters", "dune-studies")
"""Journals whose page shows its metrics only after a script runs."""
LETTERS = "ABCDEFGHIJKL"

LIST_SHELL = """<html><head><title>Journals</title></head><body>
<header><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></header>
<h1>Our journals</h1><div id="root"></div><img src="/cover.png" alt="">
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>
fetch('/api/journals.json').then(r => r.json()).then(list => {
  document.getElementById('root').innerHTML = '<ul class="journals">' +
    list.map(j => '<li><a href="/journal/' + j.slug + '">' + j.title + '</a></li>').join('') + '</ul>';
});
</script></body></html>"""
LETTERS_APP = """<html><head><title>Browse</title></head><body>
<header><a href="/">Home</a> <a href="/about">About us</a></header>
<nav class="letters">{buttons}</nav><div id="results"></div>
<noscript>Please enable JavaScript.</noscript>
<script>
document.querySelectorAll('button[data-letter]').forEach(button => button.addEventListener('click', () =>
  fetch('/api/letter/' + button.dataset.letter + '.json').then(r => r.json()).then(list => {
    document.getElementById('results').innerHTML = '<ul>' +
      list.map(j => '<li><a href="/journal/' + j.slug + '">' + j.title + '</a></li>').join('') + '</ul>';
  })));
</script></body></html>"""
METRICS_SHELL = """<html><head><title>{title}</title></head><body>
<header><a href="/">Home</a></header><h1>{title}</h1><div id="app"></div>
<noscript>Please enable JavaScript to view this journal's metrics.</noscript>
<script>
fetch('/api/journal/{slug}.json').then(r => r.json()).then(j => {{
  document.getElementById('app').innerHTML = '<table><tr><th>ISSN</th><td>' + j.issn +
    '</td></tr><tr><th>Impact Factor</th><td>' + j.impact_factor + '</td></tr></table>';
}});
</script></body></html>"""
PLAIN_JOURNAL = """<html><head><title>{title}</title></head><body><header><a href="/">Home</a></header>
<h1>{title}</h1><table><tr><th>ISSN</th><td>{issn}</td></tr><tr><th>Impact Factor</th><td>{impact_factor}</td></tr>
</table></body></html>"""


GROW_APP = """<html><head><title>All journals</title></head><body>
<h1>All journals</h1><ul id="grid"></ul><button id="more" type="button">Load more journals</button>
<script>
const journals = JOURNALS;
let shown = 0;
const more = () => {
  const grid = document.getElementById('grid');
  const step = FOREVER ? 1 : 2;
  for (let i = 0; i < step; i++) {
    const j = FOREVER ? {slug: 'issue-' + shown, title: 'Issue ' + shown} : journals[shown];
    if (!j) break;
    grid.insertAdjacentHTML('beforeend', '<li><a href="/journal/' + j.slug + '">' + j.title + '</a></li>');
    shown++;
  }
  if (!FOREVER && shown >= journals.length) document.getElementById('more').remove();
};
document.getElementById('more').addEventListener('click', more);
more();
</script></body></html>"""
"""A list that a "Load more journals" button grows in place, two journals a click (or one link a click, forever)."""


SCROLL_APP = """<html><head><title>Browse journals</title></head><body>
<h1>Browse journals</h1><ul id="grid"></ul><div id="end" style="height: 10px"></div>
<script>
const journals = JOURNALS;
let shown = 0;
const grid = document.getElementById('grid');
new IntersectionObserver(entries => {
  if (!entries.some(e => e.isIntersecting) || shown >= journals.length) return;
  const j = journals[shown++];
  grid.insertAdjacentHTML('beforeend', '<li style="height: 900px"><a href="/journal/' + j.slug + '">' + j.title + '</a></li>');
}).observe(document.getElementById('end'));
</script></body></html>"""
"""A list that grows by one journal each time the reader scrolls to its end (no button), one taller than the
window."""
LATE_SCROLL_APP = SCROLL_APP.replace(
    "const j = journals[shown++];", "const j = journals[shown++]; setTimeout(() => {"
).replace("'</a></li>');", "'</a></li>'); }, 30);")
"""The same list, as a busy page grows it: its scroll handler appends the next journal on a later tick (a timer too
short to be counted as work in flight), so nothing has changed when the scroll's first frames are painted."""
TABBED_JOURNAL = """<html><head><title>{title}</title></head><body><header><a href="/">Home</a></header>
<h1>{title}</h1><p>ISSN {issn}</p>
<div role="tablist"><button role="tab" aria-selected="true" aria-controls="overview">Overview</button>
<button role="tab" aria-selected="false" aria-controls="metrics">Journal metrics</button></div>
<div id="overview" role="tabpanel"><p>{title} publishes research.</p></div>
<div id="metrics" role="tabpanel" hidden></div>
<script>
const [overview, metrics] = document.querySelectorAll('[role=tab]');
metrics.addEventListener('click', () => fetch('/api/journal/{slug}.json').then(r => r.json()).then(j => {{
  document.getElementById('overview').remove();
  const panel = document.getElementById('metrics');
  panel.hidden = false;
  panel.innerHTML = '<dl><dt>Impact Factor</dt><dd>' + j.impact_factor + '</dd></dl>';
}}));
</script></body></html>"""
"""A journal page whose metrics tab is filled by a fetch only when it is clicked (and the overview then removed)."""
LATE_JOURNAL = """<html><head><title>{title}</title></head><body><header><a href="/">Home</a></header>
<h1>{title}</h1><p>ISSN {issn}</p>
<h2>Journal metrics</h2><div id="metrics"><div class="skeleton-line"></div><div class="skeleton-line"></div></div>
<script>
window.addEventListener('load', () => setTimeout(() => fetch('/api/journal/{slug}.json').then(r => r.json())
  .then(j => {{ document.getElementById('metrics').innerHTML = '<p>Impact Factor: ' + j.impact_factor + '</p>'; }}),
  1200));
</script></body></html>"""
"""A journal page whose metrics panel shows empty skeleton lines until a fetch a timer starts after load fills it."""
IDLE_JOURNAL = PLAIN_JOURNAL.replace(
    "</table>", '</table><h2>Editorial board</h2><div class="board"><div class="line"></div></div><script>window.seen = 1;</script>'
)
"""A journal page with its data as served and an empty box under a heading that no script ever fills."""


def listing(slugs: list[str]) -> list[dict[str, str]]:
    """The JSON list of journals the scripts fetch."""
    return [{"slug": slug, "title": JOURNALS[slug][0]} for slug in slugs]


def route(path: str) -> tuple[str, str] | None:
    """The content type and body the site serves at ``path``."""
    slugs = list(JOURNALS)
    if path == "/":
        return "text/html", LIST_SHELL
    if path in ("/plain/", "/all/", "/tabbed/", "/late/", "/idle/"):
        shown = slugs[:2] if path == "/plain/" else slugs
        prefix = path.rstrip("/") if path in ("/tabbed/", "/late/", "/idle/") else ""
        entries = "".join(f'<li><a href="{prefix}/journal/{s}">{JOURNALS[s][0]}</a></li>' for s in shown)
        return "text/html", f"<html><body><h1>Our journals</h1><ul>{entries}</ul></body></html>"
    if path == "/home/":
        hop = '<a href="/plain/">Browse journals A-Z</a>'
        return (
            "text/html",
            f"<html><body><noscript>Please enable JavaScript.</noscript>{hop}<script></script></body></html>",
        )
    if path in ("/grow/", "/forever/"):
        page = GROW_APP.replace("JOURNALS", json.dumps(listing(slugs))).replace(
            "FOREVER", str(path == "/forever/").lower()
        )
        return "text/html", page
    if path in ("/scroll/", "/late-scroll/"):
        app = SCROLL_APP if path == "/scroll/" else LATE_SCROLL_APP
        return "text/html", app.replace("JOURNALS", json.dumps(listing(slugs)))
    pages = (("/tabbed/journal/", TABBED_JOURNAL), ("/late/journal/", LATE_JOURNAL), ("/idle/journal/", IDLE_JOURNAL))
    for prefix, template in pages:
        if path.startswith(prefix) and (slug := path.removeprefix(prefix)) in JOURNALS:
            title, issn, impact_factor = JOURNALS[slug]
            return "text/html", template.format(slug=slug, title=title, issn=issn, impact_factor=impact_factor)
    if path == "/letters/":
        buttons = "".join(f'<button type="button" data-letter="{x}">{x}</button>' for x in LETTERS)
        return "text/html", LETTERS_APP.replace("{buttons}", buttons)
    if path == "/api/journals.json":
        return "application/json", json.dumps(listing(slugs))
    if path.startswith("/api/letter/"):
        letter = path.removeprefix("/api/letter/").removesuffix(".json")
        return "application/json", json.dumps(listing([s for s in slugs if s[0].upper() == letter]))
    if path.startswith("/api/journal/"):
        title, issn, impact_factor = JOURNALS[path.removeprefix("/api/journal/").removesuffix(".json")]
        return "application/json", json.dumps({"issn": issn, "impact_factor": impact_factor})
    slug = path.removeprefix("/journal/")
    if path.startswith("/journal/") and slug in JOURNALS:
        title, issn, impact_factor = JOURNALS[slug]
        page = METRICS_SHELL if slug in SCRIPT_JOURNALS else PLAIN_JOURNAL
        return "text/html", page.format(slug=slug, title=title, issn=issn, impact_factor=impact_factor)
    return None


class ScriptSiteHandler(BaseHTTPRequestHandler):
    """Serves :func:`route`, counting every path it is asked for."""

    def do_GET(self) -> None:
        """The page, or 404."""
        self.server.requested[self.path] += 1  # type: ignore[attr-defined]
        found = route(self.path)
        if found is None:
            self.send_error(404)
            return
        data = found[1].encode()
        self.send_response(200)
        self.send_header("Content-Type", f"{found[0]}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


@pytest.fixture
def site() -> Iterator[ThreadingHTTPServer]:
    """The script-built site on a free port of 127.0.0.1, stopped after the test."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/system-packages installs it)")
    server = ThreadingHTTPServer(("127.0.0.1", 0), ScriptSiteHandler)
    server.requested = Counter()  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def url(server: ThreadingHTTPServer, path: str) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The project's settings on a fresh SQLite file, without robots.txt or the health check's verdict."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return {
        **PROJECT_SETTINGS,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'journals.db'}",
        "ROBOTSTXT_OBEY": False,
        "PROGRESS_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }


async def crawl(settings: dict[str, Any], start_url: str, **arguments: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Crawl from ``start_url``; the journals found (by URL: ISSN and impact factor) and the crawl's stats."""
    found: dict[str, Any] = {}

    def keep(item: Any) -> None:
        journal = ItemAdapter(item)
        found[journal["url"]] = (journal["issn"], journal["impact_factor"])

    crawler = get_crawler(PublisherSpider, settings)
    crawler.signals.connect(keep, signal=signals.item_scraped)
    await crawler.crawl_async(start_url=start_url, **arguments)
    return found, crawler.stats.get_stats()


def expected(server: ThreadingHTTPServer, slugs: list[str]) -> dict[str, Any]:
    return {url(server, f"/journal/{s}"): (JOURNALS[s][1], float(JOURNALS[s][2])) for s in slugs}


@deferred_f_from_coro_f
async def test_script_built_pages_are_rendered_and_replay_offline_without_a_browser(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    found, stats = await crawl(settings, url(site, "/"))
    assert found == expected(site, list(JOURNALS))
    assert stats["journals/rendering/detected/index"] == 1
    assert stats["journals/rendering/detected/journal"] == len(SCRIPT_JOURNALS)
    assert stats["playwright/browser_count"] == 1
    assert stats["playwright/page_count"] == 1 + len(SCRIPT_JOURNALS), "plain journal pages are not rendered"
    assert site.requested["/cover.png"] == 0, "images are not fetched by the browser"  # type: ignore[attr-defined]
    start_url = url(site, "/")
    site.shutdown()
    site.server_close()

    replayed, replay_stats = await crawl({**settings, "HTTPCACHE_IGNORE_MISSING": True}, start_url)
    assert replayed == found
    assert not any(key.startswith("playwright/") for key in replay_stats), "no browser on an offline replay"
    assert "httpcache/miss" not in replay_stats
    assert "downloader/exception_count" not in replay_stats


@pytest.mark.parametrize("start", ["/plain/", "/home/"])
@deferred_f_from_coro_f
async def test_a_crawl_of_plain_pages_starts_no_browser(
    start: str, site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    """Also from a home page that asks for JavaScript but has a "Browse journals" hop to take."""
    found, stats = await crawl(settings, url(site, start))
    assert found == expected(site, list(JOURNALS)[:2])
    assert not any(key.startswith(("playwright/", "journals/rendering/")) for key in stats)


@deferred_f_from_coro_f
async def test_render_browser_renders_every_page_and_never_renders_none(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    found, stats = await crawl(settings, url(site, "/plain/"), render="browser")
    assert found == expected(site, list(JOURNALS)[:2])
    assert stats["playwright/page_count"] == 3 and "journals/rendering/detected/index" not in stats

    never = {**settings, "DATABASE_URL": settings["DATABASE_URL"].replace("journals.db", "never.db")}
    found, stats = await crawl(never, url(site, "/"), render="never")
    assert found == {} and not any(key.startswith("playwright/") for key in stats)


@deferred_f_from_coro_f
async def test_script_letters_are_clicked_and_every_letter_list_is_read(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    found, stats = await crawl(settings, url(site, "/letters/"))
    assert found == expected(site, list(JOURNALS))
    assert stats["journals/rendering/signs/script_letters"] == 1
    assert all(site.requested[f"/api/letter/{x}.json"] == 1 for x in LETTERS)  # type: ignore[attr-defined]


def test_the_browser_skips_images_fonts_and_media() -> None:
    class Resource:
        def __init__(self, resource_type: str) -> None:
            self.resource_type = resource_type

    kinds = ["document", "script", "fetch", "xhr", "stylesheet", "image", "font", "media"]
    assert [kind for kind in kinds if abort_request(Resource(kind))] == ["image", "font", "media"]  # type: ignore[arg-type]


def kill_browsers() -> int:
    """SIGKILL the browsers (Chromium's main processes) this test process started; how many were killed."""
    killed = 0
    for pid in descendants_of(os.getpid()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmdline[0].endswith(b"chromium") and not any(a.startswith(b"--type=") for a in cmdline):
            os.kill(pid, signal_module.SIGKILL)
            killed += 1
    return killed


@deferred_f_from_coro_f
async def test_a_crashed_browser_is_launched_again_and_the_crawl_goes_on(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    killed: list[int] = []

    def crash_once(item: Any) -> None:
        if not killed:
            killed.append(kill_browsers())

    # RENDER_TIMEOUT: a page created as the browser dies is never answered by Playwright; it is cut short.
    one_at_a_time = {**settings, "CONCURRENT_REQUESTS": 1, "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": 1, "RENDER_TIMEOUT": 10}
    crawler = get_crawler(PublisherSpider, one_at_a_time)
    crawler.signals.connect(crash_once, signal=signals.item_scraped)
    await crawler.crawl_async(start_url=url(site, "/"), render="browser")
    stats = crawler.stats.get_stats()
    assert killed == [1]
    assert stats["playwright/browser_count"] == 2, "the browser is launched again"
    assert stats["item_scraped_count"] == len(JOURNALS), "the page in flight is fetched as served, not lost"


@deferred_f_from_coro_f
async def test_pages_the_browser_fails_on_are_read_as_served_and_the_source_stops_being_rendered(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    """A browser that cannot start: every journal is kept as its served page gives it; after three failures in a
    row the source is read as served."""
    launch = {**default.PLAYWRIGHT_LAUNCH_OPTIONS, "executable_path": "/nonexistent/chromium"}
    broken = {**settings, "PLAYWRIGHT_LAUNCH_OPTIONS": launch}
    served = expected(site, list(JOURNALS)) | {url(site, f"/journal/{s}"): (None, None) for s in SCRIPT_JOURNALS}

    found, stats = await crawl(broken, url(site, "/all/"))
    assert found == served
    assert stats["journals/rendering/detected/journal"] == len(SCRIPT_JOURNALS)
    assert stats["journals/rendering/failed"] == len(SCRIPT_JOURNALS)
    assert "journals/rendering/stopped" not in stats

    every = {
        **broken,
        "DATABASE_URL": settings["DATABASE_URL"].replace("journals.db", "every.db"),
        "CONCURRENT_REQUESTS": 1,  # a page at a time, so the pages after the third failure are not yet in flight
    }
    found, stats = await crawl(every, url(site, "/all/"), render="browser")
    assert found == expected(site, list(JOURNALS)[:2]) | {
        url(site, f"/journal/{s}"): (None, None) for s in SCRIPT_JOURNALS
    }
    assert stats["journals/rendering/stopped"] == 1
    assert stats["journals/rendering/failed"] == 3, "the pages after the third failure are not rendered"


SAVED_LIST_URL = "https://journals.example.org/list"
SAVED_LIST = """<html><head><title>Journals</title></head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>
document.getElementById('root').innerHTML = '<ul class="journals">' + ['alpha-studies', 'beta-letters', 'gamma-review']
  .map(slug => '<li><a href="/journal/' + slug + '">' + slug.replace('-', ' ') + '</a></li>').join('') + '</ul>';
</script></body></html>"""


@deferred_f_from_coro_f
async def test_the_browser_goes_through_the_crawls_proxy(
    settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``make eval-real`` replays saved pages: the browser reaches an https site through ``https_proxy``, which
    ends TLS with its own certificate."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/system-packages installs it)")
    proxy = ReplayServer({SAVED_LIST_URL: SAVED_LIST.encode()})
    proxy.start_in_thread()
    try:
        for name in ("no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("http_proxy", proxy.proxy_url)
        monkeypatch.setenv("https_proxy", proxy.proxy_url)
        found, stats = await crawl(settings, SAVED_LIST_URL)
    finally:
        proxy.stop()
    slugs = ("alpha-studies", "beta-letters", "gamma-review")
    assert set(found) == {f"https://journals.example.org/journal/{slug}" for slug in slugs}
    assert stats["journals/rendering/detected/index"] == 1
    assert "journals/rendering/failed" not in stats
    assert proxy.requested.count(SAVED_LIST_URL) == 2, "fetched as served, then by the browser"


def test_the_browser_proxy_is_the_one_scrapy_uses() -> None:
    assert browser_proxy({}) is None
    assert browser_proxy({"http": "http://127.0.0.1:3128"}) == {"server": "http://127.0.0.1:3128"}
    assert browser_proxy(
        {"http": "http://plain:80", "https": "http://us%40r:p%3Ass@proxy.example:8080", "no": "localhost,.internal"}
    ) == {
        "server": "http://proxy.example:8080",
        "username": "us@r",
        "password": "p:ss",
        "bypass": "localhost,.internal",
    }
    assert browser_proxy({"https": "proxy.example:3128"}) == {"server": "http://proxy.example:3128"}


def test_a_failed_render_is_fetched_as_served_and_a_refused_one_is_left_alone() -> None:
    crawler = get_crawler(Spider, {"RETRY_TIMES": 1})
    crawler.spider = Spider.from_crawler(crawler, "failing")
    middleware = RenderingMiddleware.from_crawler(crawler)
    request = Request("http://s.example/", meta={**rendering_meta(expand_letters=True), "source": "s"})
    assert middleware.process_exception(request, IgnoreRequest("offline"), crawler.spider) is None
    served = middleware.process_exception(request, RuntimeError("Target closed\ncall log"), crawler.spider)
    assert isinstance(served, Request) and served.dont_filter and served.url == request.url
    assert served.meta == {"source": "s", RENDERING_FAILED: True}
    assert crawler.stats.get_value("journals/rendering/failed") == 1
    middleware.process_request(served, crawler.spider)
    assert "playwright" not in served.meta, "not rendered again"
    plain = Request("http://s.example/plain")
    assert middleware.process_exception(plain, RuntimeError("refused"), crawler.spider) is None


def test_a_render_that_timed_out_is_retried_in_the_browser_before_it_is_fetched_as_served() -> None:
    """Playwright's timeout and the handler's deadline alike; neither counts toward stopping the source's rendering."""
    crawler = get_crawler(Spider, {"RETRY_TIMES": 1})
    crawler.spider = Spider.from_crawler(crawler, "slow")
    noted: list[bool] = []
    # A RenderingSpider (the Protocol the middleware asks of a spider): it is told of failures.
    crawler.spider.wants_rendering = lambda request: False  # type: ignore[attr-defined]
    crawler.spider.note_rendering = lambda request, failed: noted.append(failed)  # type: ignore[attr-defined]
    middleware = RenderingMiddleware.from_crawler(crawler)
    request = Request("http://s.example/", meta={**rendering_meta(), "source": "s"})
    for timeout in (PlaywrightTimeoutError("Page.goto: Timeout 30000ms exceeded."), TimeoutError("took longer")):
        again = middleware.process_exception(request, timeout, crawler.spider)
        assert isinstance(again, Request) and again.meta["playwright"] and again.meta["retry_times"] == 1
        served = middleware.process_exception(again, timeout, crawler.spider)
        assert isinstance(served, Request) and served.meta.get(RENDERING_FAILED) and "playwright" not in served.meta
    assert crawler.stats.get_value("retry/count") == 2
    assert crawler.stats.get_value("journals/rendering/failed") == 2
    assert noted == []
    middleware.process_exception(request, RuntimeError("Target closed"), crawler.spider)
    assert noted == [True], "a browser that failed otherwise is told to the spider"


@deferred_f_from_coro_f
async def test_a_load_more_button_is_clicked_until_the_whole_list_is_shown(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    found, stats = await crawl(settings, url(site, "/grow/"), render="browser")
    assert found == expected(site, list(JOURNALS))
    assert stats["journals/rendering/grow_clicks"] == 1  # the first two are shown on load, one click shows the rest
    assert "journals/bounds/grow_clicks" not in stats


@deferred_f_from_coro_f
async def test_a_list_that_grows_forever_ends_at_its_bound_as_a_trap(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    _, stats = await crawl(settings, url(site, "/forever/"), render="browser")
    assert stats["journals/rendering/grow_clicks"] == GROW_CLICKS
    assert stats["journals/bounds/grow_clicks"] == 1
    assert stats["journals/traps/forever"][0]["kind"] == "grow_clicks"  # the health check fails the crawl on it


@pytest.mark.parametrize("path", ["/scroll/", "/late-scroll/"])
@deferred_f_from_coro_f
async def test_an_infinite_list_is_scrolled_until_it_stops_growing(
    site: ThreadingHTTPServer, settings: dict[str, Any], path: str
) -> None:
    found, stats = await crawl(settings, url(site, path), render="browser")
    assert found == expected(site, list(JOURNALS))
    assert stats["journals/rendering/grow_scrolls"] >= len(JOURNALS) - 1  # one journal shown on load, one a scroll
    assert "journals/bounds/grow_clicks" not in stats


@pytest.mark.parametrize("path", ["/tabbed/", "/late/"])
@deferred_f_from_coro_f
async def test_a_journal_page_with_an_empty_metrics_panel_is_probed_and_its_role_rendered(
    site: ThreadingHTTPServer, settings: dict[str, Any], path: str
) -> None:
    """The served page names its ISSN but its metrics panel is empty (a closed tab, skeleton lines a timer fills):
    a probe renders it, finds more data, and the source's journal pages are rendered from then on."""
    found, stats = await crawl(settings, url(site, path))
    prefix = path.rstrip("/")
    assert found == {url(site, f"{prefix}/journal/{s}"): (JOURNALS[s][1], float(JOURNALS[s][2])) for s in JOURNALS}
    assert stats["journals/rendering/decided/journal/browser"] == 1
    assert stats["journals/rendering/signs/empty_panel"] >= 1
    assert stats["playwright/page_count"] >= len(JOURNALS)
    if path == "/tabbed/":
        assert stats["journals/rendering/panels_opened"] >= len(JOURNALS)


@deferred_f_from_coro_f
async def test_probes_that_render_nothing_more_leave_the_role_read_as_served(
    site: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    found, stats = await crawl(settings, url(site, "/idle/"))
    assert found == {url(site, f"/idle/journal/{s}"): (JOURNALS[s][1], float(JOURNALS[s][2])) for s in JOURNALS}
    assert stats["journals/rendering/decided/journal/served"] == 1
    assert "journals/rendering/decided/journal/browser" not in stats
    assert stats["playwright/page_count"] < len(JOURNALS)  # the probes only, not every journal page
