"""Scrapy's per-request spider middlewares fused into one layer: a real crawl of a local site gives the same requests
(depth, priority, Referer, start flag, redirects' Referer), items and stats as Scrapy's layers, and a middleware that
is not per-request, or is left enabled as a layer too, is refused."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.spidermiddlewares.depth import DepthMiddleware
from scrapy.spidermiddlewares.referer import RefererMiddleware
from scrapy.spidermiddlewares.urllength import UrlLengthMiddleware
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.spidermiddlewares.fused import FusedSpiderMiddleware, fusion_problems, spider_middleware
from settings import default as default_settings
from tests.conftest import project_defaults

LONG = "/" + "x" * 3000
"""A path past Scrapy's ``URLLENGTH_LIMIT`` (2083): ``UrlLengthMiddleware`` drops its request."""
SITE = {
    "/": ["/a", "/b", LONG],
    "/a": ["/a/1", "/a/2", "/moved"],
    "/b": ["/b/1"],
    "/a/1": ["/a/1/x"],
}
"""Each page's links: a tree, so that every page has one depth whatever order the crawl takes."""


class SiteHandler(BaseHTTPRequestHandler):
    """Serves :data:`SITE`; ``/moved`` redirects to ``/landed``; any other path is a page without links."""

    def do_GET(self) -> None:
        if self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/landed")
            self.end_headers()
            return
        body = "".join(f'<a href="{link}">{link}</a>' for link in SITE.get(self.path, [])).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SiteHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class TreeSpider(scrapy.Spider):
    """Follows every link and yields one item per page after its requests, recording each page's request."""

    name = "tree"

    def __init__(self, site_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url = site_url
        self.seen: list[tuple[Any, ...]] = []

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield scrapy.Request(f"{self.site_url}/")

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        request = response.request
        assert request is not None
        path = response.url.removeprefix(self.site_url)
        referer = request.headers.get("Referer")
        self.seen.append(
            (
                path,
                request.meta.get("depth"),
                request.priority,
                referer.decode().removeprefix(self.site_url) if referer else None,
                request.meta.get("is_start_request", False),
            )
        )
        for link in response.css("a::attr(href)").getall():
            yield response.follow(link)
        yield {"path": path}


SCRAPY_LAYERS = {
    "SPIDER_MIDDLEWARES": {},
    "FUSED_SPIDER_MIDDLEWARES": {},
    "DEPTH_PRIORITY": 1,
    "DOWNLOADER_MIDDLEWARES": {
        "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
        "journals.downloadermiddlewares.redirect.RedirectLoopMiddleware": 600,
        "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
        "journals.downloadermiddlewares.redirect.ParsedMetaRefreshMiddleware": 580,
    },
}
"""Scrapy's own spider middlewares, one layer each; a depth priority, so that the priorities differ by depth."""
FUSED = {
    **SCRAPY_LAYERS,
    "SPIDER_MIDDLEWARES": default_settings.SPIDER_MIDDLEWARES,
    "FUSED_SPIDER_MIDDLEWARES": default_settings.FUSED_SPIDER_MIDDLEWARES,
}
"""The project's: the same middlewares fused."""
COMPARED_STATS = (
    "request_depth_max",
    "urllength/request_ignored_count",
    "item_scraped_count",
    "response_received_count",
)


async def crawl(site_url: str, settings: dict[str, Any]) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    crawler = get_crawler(TreeSpider, project_defaults(**settings))
    await crawler.crawl_async(site_url=site_url)
    assert isinstance(crawler.spider, TreeSpider)
    stats = crawler.stats.get_stats()
    return sorted(crawler.spider.seen, key=str), {key: stats.get(key) for key in COMPARED_STATS}


@deferred_f_from_coro_f
async def test_fused_middlewares_make_the_crawl_scrapys_layers_make(site_url: str) -> None:
    layered = await crawl(site_url, SCRAPY_LAYERS)
    fused = await crawl(site_url, FUSED)
    assert fused == layered
    seen, stats = fused
    assert ("/", 0, 0, None, True) in seen, "the start request is flagged, at depth 0"
    assert ("/a/1/x", 3, -3, "/a/1", False) in seen, "depth, its priority and the Referer set"
    assert ("/landed", 2, 0, "/moved", False) in seen, "a redirect's Referer set as Scrapy sets it"
    assert stats["urllength/request_ignored_count"] == 1
    assert stats["item_scraped_count"] == len(seen) == 8


def built(**settings: Any) -> FusedSpiderMiddleware:
    crawler = get_crawler(TreeSpider, project_defaults(**{**FUSED, **settings}))
    return FusedSpiderMiddleware.from_crawler(crawler)


def test_hooks_run_nearest_the_spider_first() -> None:
    names = [type(middleware).__name__ for middleware in built().middlewares]
    assert names == [
        "MetaCopyDetectionMiddleware",
        "DepthMiddleware",
        "UrlLengthMiddleware",
        "RefererMiddleware",
        "StartSpiderMiddleware",
    ]


def test_a_middleware_off_by_its_setting_is_left_out() -> None:
    kinds = {type(middleware) for middleware in built(URLLENGTH_LIMIT=0, REFERER_ENABLED=False).middlewares}
    assert DepthMiddleware in kinds
    assert not kinds & {UrlLengthMiddleware, RefererMiddleware}


def test_off_when_nothing_is_fused() -> None:
    with pytest.raises(NotConfigured):
        built(FUSED_SPIDER_MIDDLEWARES={})


def test_a_fused_middleware_left_enabled_as_a_layer_is_refused() -> None:
    layers = {**default_settings.SPIDER_MIDDLEWARES, "scrapy.spidermiddlewares.depth.DepthMiddleware": 900}
    with pytest.raises(ValueError, match="DepthMiddleware"):
        built(SPIDER_MIDDLEWARES=layers)


class ExceptionHandling(BaseSpiderMiddleware):
    """Handles the spider's errors: not one output at a time."""

    def process_spider_exception(self, response: Response, exception: Exception) -> None:
        return None


def test_a_middleware_that_is_not_per_output_cannot_be_fused() -> None:
    crawler = get_crawler(TreeSpider)
    assert fusion_problems(ExceptionHandling(crawler)) == ["it has a process_spider_exception of its own"]
    assert fusion_problems(DepthMiddleware.from_crawler(crawler)) == []
    with pytest.raises(TypeError, match="ExceptionHandling cannot be fused"):
        FusedSpiderMiddleware([ExceptionHandling(crawler)])


@deferred_f_from_coro_f
async def test_a_fused_middleware_is_found_as_a_layer_would_be(site_url: str) -> None:
    crawler = get_crawler(TreeSpider, project_defaults(**FUSED))
    await crawler.crawl_async(site_url=site_url)
    assert isinstance(spider_middleware(crawler, RefererMiddleware), RefererMiddleware)
    assert crawler.get_spider_middleware(RefererMiddleware) is None, "Scrapy's own lookup sees only the layers"
