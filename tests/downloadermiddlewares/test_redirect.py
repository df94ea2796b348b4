"""Scrapy's redirects as the project runs them: the meta refresh middleware leaves a spider that reads refreshes off
its parsed pages to do so, and makes the request it follows as Scrapy makes it."""

from __future__ import annotations

import pytest
import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.test import get_crawler

from journals.downloadermiddlewares.redirect import ParsedMetaRefreshMiddleware
from journals.spiders.publisher import PublisherSpider
from tests.conftest import project_defaults

URL = "http://publisher.example/journal/acta"
REFRESHING = b'<html><head><meta http-equiv="refresh" content="0; url=/journal/acta/home"></head></html>'


def middleware(spider_class: type[scrapy.Spider], **settings: object) -> ParsedMetaRefreshMiddleware:
    crawler = get_crawler(spider_class, project_defaults(**settings))
    crawler.spider = (
        PublisherSpider.from_crawler(crawler, start_url="http://publisher.example/")
        if spider_class is PublisherSpider
        else spider_class.from_crawler(crawler)
    )
    return ParsedMetaRefreshMiddleware.from_crawler(crawler)


def response(request: scrapy.Request, body: bytes = REFRESHING) -> HtmlResponse:
    return HtmlResponse(request.url, body=body, request=request)


class OtherSpider(scrapy.Spider):
    """A spider that does not read refreshes (``scrapy bench``'s, a user's)."""

    name = "other"


def test_a_spider_that_reads_refreshes_gets_its_responses_as_they_came() -> None:
    request = scrapy.Request(URL, meta={"source": "publisher.example"})
    page = response(request)
    assert middleware(PublisherSpider).process_response(request, page) is page


def test_any_other_spider_gets_scrapys_meta_refresh() -> None:
    request = scrapy.Request(URL)
    redirected = middleware(OtherSpider).process_response(request, response(request))
    assert isinstance(redirected, scrapy.Request)
    assert redirected.url == "http://publisher.example/journal/acta/home"


def test_the_request_a_refresh_leads_to_carries_the_request_and_its_chain() -> None:
    request = scrapy.Request(URL, meta={"source": "publisher.example", "page_role": "journal"}, priority=3)
    redirected = middleware(PublisherSpider).refresh_request(response(request), 0.0, URL + "/home")
    assert redirected is not None
    assert redirected.url == URL + "/home"
    assert redirected.meta["source"] == "publisher.example" and redirected.meta["page_role"] == "journal"
    assert redirected.meta["redirect_urls"] == [URL]
    assert redirected.meta["redirect_reasons"] == ["meta refresh"]
    assert redirected.priority == 3 + 2  # REDIRECT_PRIORITY_ADJUST


def test_a_refresh_scrapy_would_not_follow_is_not_followed() -> None:
    refreshes = middleware(PublisherSpider)
    plain = scrapy.Request(URL)
    assert refreshes.refresh_request(response(plain), 100.0, URL + "/home") is None  # METAREFRESH_MAXDELAY
    assert refreshes.refresh_request(response(plain), 0.0, "ftp://publisher.example/x") is None
    unredirected = scrapy.Request(URL, meta={"dont_redirect": True})
    assert refreshes.refresh_request(response(unredirected), 0.0, URL + "/home") is None
    head = scrapy.Request(URL, method="HEAD")
    assert refreshes.refresh_request(response(head), 0.0, URL + "/home") is None
    text = TextResponse(URL, body=REFRESHING, request=plain)
    assert refreshes.refresh_request(text, 0.0, URL + "/home") is None


def test_a_refresh_past_the_maximum_redirects_is_ignored() -> None:
    refreshes = middleware(PublisherSpider, REDIRECT_MAX_TIMES=2)
    request = scrapy.Request(URL, meta={"redirect_times": 2, "redirect_ttl": 1})
    with pytest.raises(IgnoreRequest, match="max redirections reached"):
        refreshes.refresh_request(response(request), 0.0, URL + "/home")
