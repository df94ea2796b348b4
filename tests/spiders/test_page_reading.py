"""The spider reads each page once in its analysis thread and hands the parsed page on, by URL, to the pipelines."""

from __future__ import annotations

import scrapy
from scrapy.http import HtmlResponse
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.extensions.page_store import page_store
from journals.items import JournalPages
from journals.pages.reading import read_page
from journals.spiders.publisher import PublisherSpider
from tests.conftest import project_defaults

START = "http://publisher.example/journals/"
HOME = b"<html><body><h1>Acta</h1><a href='/acta/about'>About the journal</a><p>ISSN 1234-5678</p></body></html>"
METRICS = b"<html><body><h1>Acta</h1><a href='/acta/x'>Something</a><p>Impact factor 3.1</p></body></html>"


def test_read_page_decodes_parses_and_reads_links_once() -> None:
    read = read_page(HOME, "text/html", "http://publisher.example/acta", 100)
    assert read.links is not None
    assert [a.url for a in read.links.metrics] == ["http://publisher.example/acta/about"]
    assert read.page.tree is not None
    assert read.text == HOME.decode()


def test_a_page_whose_links_are_not_wanted_is_parsed_but_its_links_not_read() -> None:
    read = read_page(METRICS, "text/html", "http://publisher.example/acta/about", 100, links="none")
    assert read.links is None
    assert "tree" in vars(read.page), "parsed in the analysis thread, off the reactor"


@deferred_f_from_coro_f
async def test_journal_and_metrics_pages_are_kept_parsed_for_the_pipelines() -> None:
    crawler = get_crawler(PublisherSpider, project_defaults())
    spider = PublisherSpider.from_crawler(crawler, start_url=START)
    crawler.spider = spider
    home_url = "http://publisher.example/acta"
    request = scrapy.Request(home_url, meta={"source": "publisher.example"})
    home = HtmlResponse(home_url, body=HOME, request=request)
    hops = [r async for r in spider.parse_journal(home, listing_url=START, listing_title="Acta")]
    assert [r.url for r in hops] == ["http://publisher.example/acta/about"]
    assert page_store(crawler).parsed.get(home_url) is not None
    metrics = HtmlResponse(hops[0].url, body=METRICS, request=hops[0])
    (item,) = [i async for i in spider.parse_metrics(metrics, **hops[0].cb_kwargs)]
    assert isinstance(item, JournalPages)
    kept = [page_store(crawler).parsed.get(page.url) for page in item.pages]
    assert all(page is not None and page.tree is not None for page in kept)
    assert [page.text for page in kept if page is not None] == [page.html for page in item.pages]
    spider.closed("finished")
