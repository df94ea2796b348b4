"""Scrapy's request-preparing downloader middlewares fused into one layer: a real crawl of a local site, live and then
replayed from the page cache, sends the server the same headers and gives the same responses, meta and stats as
Scrapy's chain of layers; what a fused hook returns ends the layer's turn as it ends the chain's; a fusion that would
reorder a hook, a middleware left enabled as a layer too, or a hook that wants a spider argument is refused."""

from __future__ import annotations

import gzip
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import scrapy
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.downloadermiddlewares.useragent import UserAgentMiddleware
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler
from twisted.internet.defer import succeed

from journals.downloadermiddlewares.fused import FusedDownloaderMiddleware, downloader_middleware, fusion_problems
from settings import default as default_settings
from tests.conftest import project_defaults

LINKS = {
    "/": ["/a", "/gz", "/setcookie", "/moved"],
    "/setcookie": ["/after"],
}
"""Each page's links; any other path is a page without links."""


class SiteHandler(BaseHTTPRequestHandler):
    """Serves :data:`LINKS`, a gzipped page, a cookie, a redirect that sets a cookie, no robots.txt; records the
    headers of every request it receives, by path (a proxied request's absolute URL taken for its path)."""

    def do_GET(self) -> None:
        path = urlsplit(self.path).path or "/"
        self.server.received.append((path, sorted(self.headers.items())))  # type: ignore[attr-defined]
        if path == "/robots.txt":
            self.send_error(404)
            return
        if path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/landed")
            self.send_header("Set-Cookie", "moved=1; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = "".join(f'<a href="{link}">{link}</a>' for link in LINKS.get(path, [])).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if path == "/gz":
            body = gzip.compress(b"<p>" + b"compressed " * 50 + b"</p>")
            self.send_header("Content-Encoding", "gzip")
        if path == "/setcookie":
            self.send_header("Set-Cookie", "session=abc; Path=/")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def site() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SiteHandler)
    server.received = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


class SiteSpider(scrapy.Spider):
    """Follows every link; starts with the home page, a page asking its own User-Agent, Accept and timeout, and a
    page fetched through a proxy (the site itself, answering for the absolute URL); records what each response
    came with."""

    name = "fused_site"

    def __init__(self, site_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url = site_url
        self.seen: list[tuple[Any, ...]] = []

    async def start(self) -> AsyncIterator[Request]:
        yield Request(f"{self.site_url}/")
        yield Request(f"{self.site_url}/own", headers={"User-Agent": "own", "Accept": "x/y"}, meta={"download_timeout": 7})
        yield Request(f"{self.site_url}/proxied", meta={"proxy": self.site_url})

    def parse(self, response: Response) -> Iterator[Request]:
        request = response.request
        assert request is not None
        self.seen.append(
            (
                response.url.removeprefix(self.site_url),
                type(response).__name__,
                sorted(response.flags),
                response.body,
                request.meta.get("download_timeout"),
                request.meta.get("proxy"),
                sorted((name, tuple(values)) for name, values in request.headers.items()),
            )
        )
        if isinstance(response, HtmlResponse):
            yield from response.follow_all(css="a")


LAYERED = {
    **default_settings.DOWNLOADER_MIDDLEWARES,
    **default_settings.FUSED_DOWNLOADER_MIDDLEWARES,
    "journals.downloadermiddlewares.fused.FusedDownloaderMiddleware": None,
}
"""The project's chain with the fused middlewares as Scrapy's own layers, at Scrapy's priorities."""
CHAINS = {
    "layered": {"DOWNLOADER_MIDDLEWARES": LAYERED, "FUSED_DOWNLOADER_MIDDLEWARES": {}},
    "fused": {
        "DOWNLOADER_MIDDLEWARES": default_settings.DOWNLOADER_MIDDLEWARES,
        "FUSED_DOWNLOADER_MIDDLEWARES": default_settings.FUSED_DOWNLOADER_MIDDLEWARES,
    },
}
COMPARED_STATS = ("downloader/", "httpcompression/", "httpcache/", "robotstxt/", "response_received_count")


async def crawl(site: ThreadingHTTPServer, settings: dict[str, Any]) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """One crawl of the site: what it recorded, the headers the server received, the compared stats."""
    site.received.clear()  # type: ignore[attr-defined]
    crawler = get_crawler(SiteSpider, project_defaults(**settings))
    await crawler.crawl_async(site_url=f"http://127.0.0.1:{site.server_address[1]}")
    assert isinstance(crawler.spider, SiteSpider)
    stats = {key: value for key, value in crawler.stats.get_stats().items() if key.startswith(COMPARED_STATS)}
    return sorted(crawler.spider.seen, key=str), sorted(site.received, key=str), stats  # type: ignore[attr-defined]


@deferred_f_from_coro_f
async def test_the_fused_chain_sends_and_receives_what_scrapys_layers_do(
    site: ThreadingHTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    runs = {}
    for name, chain in CHAINS.items():
        settings = {
            **chain,
            "ROBOTSTXT_OBEY": True,
            "HTTPAUTH_USER": "user",
            "HTTPAUTH_PASS": "secret",
            "HTTPAUTH_DOMAIN": None,  # every host (a domain with a port never matches Scrapy's check)
            "DOWNLOAD_TIMEOUT": 20,
            "CONCURRENT_REQUESTS": 1,  # one order of requests, so one jar of cookies at each
            "DATABASE_URL": f"sqlite:///{tmp_path / name}.db",
            "EXTENSIONS": {"journals.extensions.database.CrawlDatabase": 100},
            "HTTPCACHE_ENABLED": True,
            "HTTPCACHE_STORAGE": "journals.downloadermiddlewares.httpcache.SQLCacheStorage",
            "HTTPCACHE_POLICY": "scrapy.extensions.httpcache.DummyPolicy",
        }
        live = await crawl(site, settings)
        replay = await crawl(site, {**settings, "HTTPCACHE_IGNORE_MISSING": True})
        runs[name] = (live, replay)
    assert runs["fused"] == runs["layered"]

    (seen, received, stats), (replayed, received_again, replay_stats) = runs["fused"]
    headers = dict(received)
    assert all(("Authorization", "Basic dXNlcjpzZWNyZXQ=") in sent for sent in headers.values())
    assert ("User-Agent", "own") in headers["/own"] and ("Accept", "x/y") in headers["/own"]
    assert ("Accept-Language", "en") in headers["/a"] and "Accept-Encoding" in dict(headers["/a"])
    assert sorted(dict(headers["/after"])["Cookie"].split("; ")) == ["moved=1", "session=abc"], "set by a redirect too"
    timeouts = {record[0]: (record[4], record[5]) for record in seen}
    assert timeouts["/own"] == (7, None) and timeouts["/a"] == (20.0, None)
    assert timeouts["/proxied"][1] == f"http://127.0.0.1:{site.server_address[1]}"
    assert stats["httpcompression/response_count"] == 1
    assert stats["downloader/request_count"] == len(received) == 10, "9 pages (a redirect among them) and robots.txt"
    assert received_again == [], "the replay asks the site nothing"
    assert all(record[2] == ["cached"] for record in replayed)
    assert replay_stats["httpcache/hit"] == len(replayed) + 2, "and the redirect and robots.txt"


def built(**settings: Any) -> FusedDownloaderMiddleware:
    crawler = get_crawler(SiteSpider, project_defaults(**{**CHAINS["fused"], **settings}))
    return FusedDownloaderMiddleware.from_crawler(crawler)


def test_hooks_run_in_scrapys_order() -> None:
    names = [type(middleware).__name__ for middleware in built().middlewares]
    assert names == ["HttpAuthMiddleware", "DownloadTimeoutMiddleware", "DefaultHeadersMiddleware", "UserAgentMiddleware"]


def test_a_middleware_off_by_its_setting_is_left_out() -> None:
    fused = {
        "scrapy.downloadermiddlewares.downloadtimeout.DownloadTimeoutMiddleware": 350,
        "scrapy.downloadermiddlewares.stats.DownloaderStats": 360,
    }
    chain = {**dict.fromkeys(fused), "journals.downloadermiddlewares.fused.FusedDownloaderMiddleware": 355}
    for enabled in (True, False):
        kinds = [
            type(middleware).__name__
            for middleware in built(
                DOWNLOADER_MIDDLEWARES=chain, FUSED_DOWNLOADER_MIDDLEWARES=fused, DOWNLOADER_STATS=enabled
            ).middlewares
        ]
        assert kinds == ["DownloadTimeoutMiddleware", "DownloaderStats"][: 2 if enabled else 1]


def test_off_when_nothing_is_fused() -> None:
    with pytest.raises(NotConfigured):
        built(FUSED_DOWNLOADER_MIDDLEWARES={})


def test_a_fused_middleware_left_enabled_as_a_layer_is_refused() -> None:
    chain = {**default_settings.DOWNLOADER_MIDDLEWARES, "scrapy.downloadermiddlewares.useragent.UserAgentMiddleware": 500}
    with pytest.raises(ValueError, match="UserAgentMiddleware"):
        built(DOWNLOADER_MIDDLEWARES=chain)


def test_a_fusion_that_would_reorder_a_hook_is_refused() -> None:
    fused = {**default_settings.FUSED_DOWNLOADER_MIDDLEWARES, "scrapy.downloadermiddlewares.cookies.CookiesMiddleware": 700}
    chain = {**default_settings.DOWNLOADER_MIDDLEWARES, "scrapy.downloadermiddlewares.cookies.CookiesMiddleware": None}
    with pytest.raises(ValueError, match=r"HttpCompressionMiddleware.process_request \(590\) runs between Cookies"):
        built(DOWNLOADER_MIDDLEWARES=chain, FUSED_DOWNLOADER_MIDDLEWARES=fused)
    layer = "journals.downloadermiddlewares.fused.FusedDownloaderMiddleware"
    for priority, crossed in ((595, "HttpCompressionMiddleware.process_request"), (50, "RobotsRulesMiddleware")):
        with pytest.raises(ValueError, match=crossed):
            built(DOWNLOADER_MIDDLEWARES={**default_settings.DOWNLOADER_MIDDLEWARES, layer: priority})
    # Past the rate limit middleware, which has no process_request: no hook changes its place.
    assert built(DOWNLOADER_MIDDLEWARES={**default_settings.DOWNLOADER_MIDDLEWARES, layer: 560})


class WantsSpider:
    """A hook that requires the deprecated ``spider`` argument."""

    def process_request(self, request: Request, spider: scrapy.Spider) -> None:
        return None


def test_a_hook_wanting_a_spider_argument_cannot_be_fused() -> None:
    assert fusion_problems(WantsSpider()) == ["its process_request requires a spider argument"]
    assert fusion_problems(UserAgentMiddleware()) == []
    with pytest.raises(TypeError, match="WantsSpider cannot be fused"):
        FusedDownloaderMiddleware([WantsSpider()])


class Recording:
    """A middleware that logs each hook it runs and answers as told: ``answers[hook]`` is what that hook returns
    (called with the request, or the response or exception), None when absent."""

    def __init__(self, name: str, log: list[str], **answers: Callable[[Any], Any]) -> None:
        self.name, self.log, self.answers = name, log, answers

    def _answer(self, hook: str, value: Any, default: Any) -> Any:
        self.log.append(f"{self.name}.{hook}")
        answer = self.answers.get(hook)
        return answer(value) if answer is not None else default

    def process_request(self, request: Request) -> Any:
        return self._answer("process_request", request, None)

    def process_response(self, request: Request, response: Response) -> Any:
        return self._answer("process_response", response, response)

    def process_exception(self, request: Request, exception: Exception) -> Any:
        return self._answer("process_exception", exception, None)


ANSWERED = Response("http://example.org/answered")
RETRY = Request("http://example.org/again")
SCENARIOS: dict[str, dict[str, dict[str, Callable[[Any], Any]]]] = {
    "all pass": {},
    "a request answered": {"b": {"process_request": lambda _: ANSWERED}},
    "a request answered late": {"b": {"process_request": lambda _: succeed(ANSWERED)}},
    "a request answered None late": {"b": {"process_request": lambda _: succeed(None)}},
    "a request refused": {"b": {"process_request": lambda _: (_ for _ in ()).throw(IgnoreRequest("no"))}},
    "a response replaced": {"c": {"process_response": lambda r: r.replace(body=b"new")}},
    "a response turned into a request": {"c": {"process_response": lambda _: RETRY}},
    "an exception answered": {"b": {"process_request": lambda _: 1 / 0}, "a": {"process_exception": lambda _: RETRY}},
    "an exception passed on": {"b": {"process_request": lambda _: 1 / 0}},
}


async def outcome(scenario: str, *, fuse: bool) -> tuple[Any, ...]:
    """Scrapy's manager over three middlewares between two others, those three as layers or fused: the hooks run
    (the download among them) and the result."""
    log: list[str] = []
    answers = SCENARIOS[scenario]
    inner = [Recording(name, log, **answers.get(name, {})) for name in ("a", "b", "c")]
    middlewares = [FusedDownloaderMiddleware(inner)] if fuse else inner
    manager = DownloaderMiddlewareManager(
        Recording("first", log), *middlewares, Recording("last", log), crawler=get_crawler(SiteSpider)
    )

    async def download(request: Request) -> Response:
        log.append("download")
        return Response(request.url, body=b"downloaded")

    try:
        result: Any = await manager.download_async(download, Request("http://example.org/"))
    except Exception as exc:
        result = exc
    return log, type(result).__name__, getattr(result, "url", str(result)), getattr(result, "body", None)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.filterwarnings("ignore:.*returned a Deferred")
@deferred_f_from_coro_f
async def test_what_a_fused_hook_returns_ends_the_layers_turn_as_it_ends_the_chains(scenario: str) -> None:
    assert await outcome(scenario, fuse=True) == await outcome(scenario, fuse=False)


def test_a_layer_without_response_or_exception_hooks_has_none() -> None:
    layer = FusedDownloaderMiddleware([UserAgentMiddleware()])
    assert not hasattr(layer, "process_response") and not hasattr(layer, "process_exception")
    assert hasattr(FusedDownloaderMiddleware([Recording("a", [])]), "process_response")


@deferred_f_from_coro_f
async def test_a_fused_middleware_is_found_as_a_layer_would_be(site: ThreadingHTTPServer) -> None:
    crawler = get_crawler(SiteSpider, project_defaults(**CHAINS["fused"]))
    await crawler.crawl_async(site_url=f"http://127.0.0.1:{site.server_address[1]}")
    assert isinstance(downloader_middleware(crawler, UserAgentMiddleware), UserAgentMiddleware)
    assert crawler.get_downloader_middleware(UserAgentMiddleware) is None, "Scrapy's own lookup sees only the layers"

