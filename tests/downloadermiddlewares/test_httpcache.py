"""The SQL page cache: round trips, expiry, offline replay and RFC 2616 revalidation over real HTTP."""

from __future__ import annotations

import hashlib
import json
import threading
import zlib
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from scrapy import Request, Spider, signals
from scrapy.http import Headers, HtmlResponse, Response
from scrapy.utils.defer import deferred_f_from_coro_f, maybe_deferred_to_future
from scrapy.utils.test import get_crawler
from sqlalchemy import update
from twisted.internet import reactor
from twisted.internet.task import deferLater

from journals.downloadermiddlewares.httpcache import SQLCacheStorage, headers_from_json, headers_to_json
from journals.store import engine_from_url
from journals.store.models import CachedPage

PAGES = {
    "/": '<title>A-Z</title><a href="/a">A</a> <a href="/b?page=2">B</a>',
    "/a": '<title>Journal A</title><a href="/c">About</a>',
    "/b?page=2": "<title>Journal B</title>",
    "/c": "<title>About A</title>",
}


class SiteHandler(BaseHTTPRequestHandler):
    """Serves ``PAGES`` with an ETag, answers ``If-None-Match`` with 304, counts what it sends."""

    def do_GET(self):
        """One page, or 304 when the client already has it, or 404."""
        body = PAGES.get(self.path)
        if body is None:
            self.send_error(404)
            return
        etag = '"' + hashlib.sha1(body.encode()).hexdigest() + '"'
        if self.headers.get("If-None-Match") == etag:
            self.server.counts["304"] += 1
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.server.counts["200"] += 1
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.send_header("Cache-Control", "max-age=0, must-revalidate")
        self.send_header("Set-Cookie", "a=1")
        self.send_header("Set-Cookie", "b=2")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        """Keep test output quiet."""


@pytest.fixture
def site():
    """The little site on a free port of 127.0.0.1, stopped after the test."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), SiteHandler)
    server.counts = {"200": 0, "304": 0}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


class SiteSpider(Spider):
    """Follows every link from the start page; yields each page's URL and title."""

    name = "cache_fixture"

    async def start(self):
        """The start page."""
        yield Request(self.start_url)

    def parse(self, response):
        """One item per page, then its links."""
        yield {"url": response.url, "title": response.css("title::text").get()}
        yield from response.follow_all(css="a")


@pytest.fixture
def settings(tmp_path, monkeypatch):
    """Crawl settings with the SQL page cache in a fresh SQLite file."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cache.db'}",
        "EXTENSIONS": {"journals.extensions.database.CrawlDatabase": 100},
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_STORAGE": "journals.downloadermiddlewares.httpcache.SQLCacheStorage",
        "HTTPCACHE_POLICY": "scrapy.extensions.httpcache.DummyPolicy",
        "ROBOTSTXT_OBEY": False,
    }


async def crawl(settings, start_url):
    """Crawl the site once; return the items (sorted by URL) and the stats."""
    items = []

    def keep(item):
        items.append(item)

    crawler = get_crawler(SiteSpider, settings)
    crawler.signals.connect(keep, signal=signals.item_scraped)
    await crawler.crawl_async(start_url=start_url)
    return sorted(items, key=lambda item: item["url"]), crawler.stats.get_stats()


def base_url(server):
    """``http://127.0.0.1:PORT``."""
    return f"http://127.0.0.1:{server.server_address[1]}"


@deferred_f_from_coro_f
async def test_offline_replay_needs_no_server(site, settings):
    first_items, first_stats = await crawl(settings, base_url(site) + "/")
    assert [item["title"] for item in first_items] == ["A-Z", "Journal A", "Journal B", "About A"]
    assert first_stats["httpcache/store"] == 4
    assert site.counts["200"] == 4
    start_url = base_url(site) + "/"
    site.shutdown()
    site.server_close()

    offline = {**settings, "HTTPCACHE_IGNORE_MISSING": True}
    items, stats = await crawl(offline, start_url)
    assert items == first_items
    assert stats["httpcache/hit"] == 4
    assert "httpcache/miss" not in stats
    assert "downloader/exception_count" not in stats
    assert site.counts["200"] == 4


@deferred_f_from_coro_f
async def test_rfc2616_policy_revalidates_with_304(site, settings):
    first_items, _ = await crawl(settings, base_url(site) + "/")
    revalidating = {**settings, "HTTPCACHE_POLICY": "scrapy.extensions.httpcache.RFC2616Policy"}
    items, stats = await crawl(revalidating, base_url(site) + "/")
    assert items == first_items
    assert site.counts == {"200": 4, "304": 4}
    assert stats["httpcache/revalidate"] == 4


@pytest.fixture
def storage(settings):
    """An open storage on the test database, with a spider to key requests."""
    crawler = get_crawler(SiteSpider, settings)
    spider = SiteSpider.from_crawler(crawler, start_url="http://example.org/")
    storage = SQLCacheStorage(crawler.settings)
    storage.open_spider(spider)
    yield storage, spider
    storage.close_spider(spider)


def test_round_trip_keeps_status_headers_and_bytes(storage):
    cache, spider = storage
    request = Request("http://example.org/page?x=1")
    body = bytes(range(256)) * 50
    headers = {
        "Content-Type": "application/octet-stream",
        "Set-Cookie": ["a=1", "b=2"],
        "X-Latin": b"caf\xe9 \xff",
        "ETag": '"v1"',
    }
    response = Response("http://example.org/page?x=1", status=203, headers=headers, body=body)
    cache.store_response(spider, request, response)
    for written in (False, True):  # waiting in the writer thread (maybe), then surely in the database
        if written:
            cache.flush()
            assert not cache._pending
        again = Request("http://example.org/page?x=1")
        cached = cache.retrieve_response(spider, again)
        assert (cached.url, cached.status, cached.body) == (response.url, 203, body)
        assert cached.headers.getlist("Set-Cookie") == [b"a=1", b"b=2"]
        assert cached.headers["X-Latin"] == b"caf\xe9 \xff"
        assert cached.headers["ETag"] == b'"v1"'
        assert again.meta["cache_timestamp"] == pytest.approx(datetime.now(UTC).timestamp(), abs=60)
    assert cache.retrieve_response(spider, Request("http://example.org/page?x=2")) is None


@pytest.mark.parametrize(
    "stored",
    [
        {"Content-Type": ["text/html"], "Set-Cookie": ["a=1", "b=2"], "X-Latin": ["caf\u00e9 \u00ff"], "Etag": ['"v1"']},
        {"content-type": ["text/html"], "X-MIXED-case": ["1"], "Content-Type": ["text/plain"]},
        {},
    ],
)
def test_stored_headers_come_back_as_headers_would_make_them(stored):
    text = json.dumps(stored)
    expected = Headers(
        {name.encode("latin-1"): [v.encode("latin-1") for v in values] for name, values in json.loads(text).items()}
    )
    headers = headers_from_json(text)
    assert type(headers) is Headers and headers.encoding == expected.encoding
    assert dict(headers) == dict(expected) and list(headers) == list(expected)
    assert headers_from_json(headers_to_json(headers)) == headers


def test_a_cached_response_has_the_headers_its_constructor_would_give_it(storage):
    cache, spider = storage
    headers = {"Content-Type": "text/html; charset=latin-1", "Set-Cookie": ["a=1", "b=2"], "X-Empty": ""}
    response = HtmlResponse("http://example.org/h", headers=headers, body=b"<p>caf\xe9</p>")
    cache.store_response(spider, Request("http://example.org/h"), response)
    cached = cache.retrieve_response(spider, Request("http://example.org/h"))
    rebuilt = HtmlResponse("http://example.org/h", headers=headers_from_json(headers_to_json(response.headers)))
    assert dict(cached.headers) == dict(rebuilt.headers) == dict(response.headers)
    assert cached.headers.encoding == rebuilt.headers.encoding and cached.encoding == "cp1252"
    assert cached.text == "<p>caf\xe9</p>"


def test_html_comes_back_as_html_and_replaces_older_copy(storage):
    cache, spider = storage
    request = Request("http://example.org/")
    for title in ("old", "new"):
        html = f"<title>{title}</title>".encode()
        cache.store_response(
            spider, request, HtmlResponse("http://example.org/", body=html, headers={"Content-Type": "text/html"})
        )
    cached = cache.retrieve_response(spider, request)
    assert isinstance(cached, HtmlResponse)
    assert cached.css("title::text").get() == "new"


def test_bodies_are_compressed(storage, settings):
    cache, spider = storage
    body = b"<p>journal</p>" * 1000
    cache.store_response(spider, Request("http://example.org/big"), HtmlResponse("http://example.org/big", body=body))
    cache.flush()  # pages are written by the writer thread
    engine = engine_from_url(settings["DATABASE_URL"])
    try:
        with engine.connect() as conn:
            stored = conn.execute(CachedPage.__table__.select()).one()
    finally:
        engine.dispose()
    assert len(stored.body) < len(body) / 10
    assert zlib.decompress(stored.body) == body


def test_expired_pages_are_missing(settings):
    settings = {**settings, "HTTPCACHE_EXPIRATION_SECS": 60}
    crawler = get_crawler(SiteSpider, settings)
    spider = SiteSpider.from_crawler(crawler, start_url="http://example.org/")
    cache = SQLCacheStorage(crawler.settings)
    cache.open_spider(spider)
    try:
        request = Request("http://example.org/old")
        cache.store_response(spider, request, HtmlResponse("http://example.org/old", body=b"x"))
        assert cache.retrieve_response(spider, request) is not None
        cache.flush()  # pages are written by the writer thread: age the written row
        engine = engine_from_url(settings["DATABASE_URL"])
        with engine.begin() as conn:
            conn.execute(update(CachedPage).values(fetched_at=datetime.now(UTC) - timedelta(minutes=2)))
        engine.dispose()
        assert cache.retrieve_response(spider, request) is None
    finally:
        cache.close_spider(spider)


def test_a_failed_store_is_counted_not_raised(storage, settings):
    cache, spider = storage
    engine = engine_from_url(settings["DATABASE_URL"])
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE cached_pages")
    engine.dispose()
    cache.store_response(spider, Request("http://example.org/"), HtmlResponse("http://example.org/", body=b"x"))
    cache.flush()  # pages are written by the writer thread
    assert spider.crawler.stats.get_value("httpcache/store_error") == 1


def test_pages_waiting_together_are_written_together_and_a_refused_one_alone(storage, settings):
    cache, spider = storage
    engine = engine_from_url(settings["DATABASE_URL"])
    with engine.begin() as conn:  # the database refuses one page, as a server may refuse a row
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON cached_pages WHEN NEW.url LIKE '%refused%'"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    writer_busy = threading.Event()
    cache._writer.submit(writer_busy.wait, 10)  # the pages below wait for one turn of the writer thread
    urls = [f"http://example.org/{name}" for name in ("a", "b", "refused", "c", "a")]
    for number, url in enumerate(urls):
        cache.store_response(spider, Request(url), HtmlResponse(url, body=f"<p>{number}</p>".encode()))
    writer_busy.set()
    cache.flush()
    assert not cache._pending
    assert spider.crawler.stats.get_value("httpcache/store_error") == 1
    with engine.connect() as conn:
        stored = {row.url: zlib.decompress(row.body) for row in conn.execute(CachedPage.__table__.select())}
    engine.dispose()
    assert stored == {  # the page stored twice keeps its later response
        "http://example.org/a": b"<p>4</p>",
        "http://example.org/b": b"<p>1</p>",
        "http://example.org/c": b"<p>3</p>",
    }


@deferred_f_from_coro_f
async def test_every_page_handed_over_is_settled_once_the_writer_is_done_with_it(storage, settings):
    """Pages are numbered as they come and settled on the reactor once their transaction is over, a page the
    database refuses too (given up): what the shared frontier waits for before handing on a request made from one."""
    cache, spider = storage
    engine = engine_from_url(settings["DATABASE_URL"])
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON cached_pages WHEN NEW.url LIKE '%refused%'"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    engine.dispose()
    writer_busy = threading.Event()
    cache._writer.submit(writer_busy.wait, 10)
    urls = [f"http://example.org/{name}" for name in ("a", "refused", "b")]
    for url in urls:
        cache.store_response(spider, Request(url), HtmlResponse(url, body=b"<p>page</p>"))
    assert cache.writes.ticket() == len(urls) - 1
    assert cache.writes.unsettled == len(urls), "settled before the writer thread wrote anything"
    writer_busy.set()
    cache.flush()
    await maybe_deferred_to_future(deferLater(reactor, 0, lambda: None))  # the writer's settling, called from its thread, runs first
    assert cache.writes.unsettled == 0
    assert cache.writes.settled_through(len(urls) - 1)
