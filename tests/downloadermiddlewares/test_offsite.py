"""The scope middleware: every scheduled or downloaded request judged by origin, and by address after DNS."""

from __future__ import annotations

import pytest
import scrapy
from pydispatch.dispatcher import getAllReceivers, liveReceivers
from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.downloadermiddlewares.offsite import ScopeMiddleware
from journals.spiders.publisher import PublisherSpider


def _middleware(start_url: str) -> ScopeMiddleware:
    crawler = get_crawler(PublisherSpider)
    crawler.spider = PublisherSpider.from_crawler(crawler, start_url=start_url)
    return ScopeMiddleware.from_crawler(crawler)


@deferred_f_from_coro_f
async def test_out_of_scope_requests_are_refused_before_download_even_with_dont_filter() -> None:
    middleware = _middleware("http://127.0.0.1:8000/pub/")
    source = {"source": "pub"}
    assert await middleware.process_request(scrapy.Request("http://127.0.0.1:8000/pub/j/1", meta=source)) is None
    for url in ("http://127.0.0.1:8001/j/1", "http://localhost:8000/j/1", "http://169.254.169.254/latest/"):
        request = scrapy.Request(url, meta=source, dont_filter=True)
        with pytest.raises(IgnoreRequest):
            await middleware.process_request(request)
    assert middleware.stats.get_value("scope/refused/origin") == 3


def test_a_listed_journal_on_a_sister_site_and_its_redirects_stay_on_that_origin() -> None:
    spider = _middleware("https://publisher.example/journals").crawler.spider
    meta = {"source": "publisher.example", "journal_origin": "https://sister.example:443"}
    assert spider.request_in_scope(scrapy.Request("https://www.sister.example/j", meta=meta))
    assert not spider.request_in_scope(scrapy.Request("https://third.example/j", meta=meta))
    assert not spider.request_in_scope(scrapy.Request("https://sister.example/j", meta={"source": "publisher.example"}))


@deferred_f_from_coro_f
async def test_a_host_on_a_private_address_is_refused_unless_the_site_is_private() -> None:
    public = _middleware("http://93.184.216.34/journals")
    public.crawler.spider.sites["93.184.216.34"].scope.add("http://10.0.0.7/")  # in scope by origin...
    request = scrapy.Request("http://10.0.0.7/j/1", meta={"source": "93.184.216.34"})
    with pytest.raises(IgnoreRequest, match="private address"):
        await public.process_request(request)  # ...but on a private address
    assert public.stats.get_value("scope/refused/private_address") == 1
    sandbox = _middleware("http://127.0.0.1:8000/pub/")
    assert await sandbox.process_request(scrapy.Request("http://127.0.0.1:8000/pub/j", meta={"source": "pub"})) is None
    proxied = scrapy.Request("http://10.0.0.7/j/1", meta={"source": "93.184.216.34", "proxy": "http://127.0.0.1:3128"})
    assert await public.process_request(proxied) is None, "a proxy resolves the host, not the crawl"


def test_a_start_url_with_a_non_ascii_host_is_crawled_in_its_ascii_form() -> None:
    spider = _middleware("http://bücher.example/zeitschriften/").crawler.spider
    assert spider.seed_urls == ["http://xn--bcher-kva.example/zeitschriften/"]
    source = spider.source_for(spider.seed_urls[0])
    response_link = scrapy.Request("http://xn--bcher-kva.example/z/1", meta={"source": source})
    assert spider.request_in_scope(response_link)


@deferred_f_from_coro_f
async def test_a_host_name_is_judged_by_the_address_it_resolves_to() -> None:
    public = _middleware("http://93.184.216.34/journals")
    public.crawler.spider.sites["93.184.216.34"].scope.add("http://localhost:8000/")  # in scope by origin
    with pytest.raises(IgnoreRequest, match=r"localhost resolves to the private address 127\.0\.0\.1"):
        await public.process_request(scrapy.Request("http://localhost:8000/j", meta={"source": "93.184.216.34"}))


@deferred_f_from_coro_f
async def test_a_spider_without_a_scope_gets_scrapys_own_offsite_rule() -> None:
    """``scrapy bench``'s spider crawls 127.0.0.1 with no ``allowed_domains``: nothing is refused."""
    for allowed, url, refused in (
        ([], "http://127.0.0.1:8998/", False),
        (["example.org"], "http://www.example.org:8080/a", False),
        (["example.org"], "http://other.example/a", True),
    ):
        spider_class = type("Plain", (scrapy.Spider,), {"name": "plain", "allowed_domains": allowed})
        crawler = get_crawler(spider_class)
        crawler.spider = spider_class.from_crawler(crawler)
        middleware = ScopeMiddleware.from_crawler(crawler)
        if refused:
            with pytest.raises(IgnoreRequest):
                await middleware.process_request(scrapy.Request(url))
        else:
            assert await middleware.process_request(scrapy.Request(url)) is None


def test_only_a_spider_without_a_scope_has_its_requests_judged_as_they_are_scheduled() -> None:
    """A scoped spider's requests are judged when downloaded: nothing listens for their scheduling."""
    plain = type("Plain", (scrapy.Spider,), {"name": "plain"})
    for spider_class, listens in ((PublisherSpider, False), (plain, True)):
        crawler = get_crawler(spider_class)
        kwargs = {"start_url": "http://publisher.example/"} if spider_class is PublisherSpider else {}
        crawler.spider = spider_class.from_crawler(crawler, **kwargs)
        middleware = ScopeMiddleware.from_crawler(crawler)
        middleware.spider_opened(crawler.spider)
        receivers = list(liveReceivers(getAllReceivers(crawler.signals.sender, signals.request_scheduled)))
        assert (middleware.request_scheduled in receivers) is listens
