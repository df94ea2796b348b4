"""The spider reads each page once in its analysis thread and hands the parsed page on, by URL, to the pipelines."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import pytest
import scrapy
from scrapy.http import HtmlResponse
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.extensions.page_store import page_store
from journals.items import JournalPages
from journals.pages.analysis_thread import AnalysisThread
from journals.pages.entries import ListingMemory
from journals.pages.reading import read_page
from journals.spiders.publisher import PublisherSpider
from tests.conftest import project_defaults

P = ParamSpec("P")
T = TypeVar("T")
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


@pytest.mark.parametrize("in_process", [False, True])
@deferred_f_from_coro_f
async def test_journal_and_metrics_pages_are_kept_parsed_for_an_extraction_in_the_crawl_s_process(
    in_process: bool,
) -> None:
    """Kept for the extraction thread; not for a worker process, which parses their text again."""
    crawler = get_crawler(PublisherSpider, project_defaults(EXTRACTION_PROCESS=in_process))
    spider = PublisherSpider.from_crawler(crawler, start_url=START)
    crawler.spider = spider
    home_url = "http://publisher.example/acta"
    request = scrapy.Request(home_url, meta={"source": "publisher.example"})
    home = HtmlResponse(home_url, body=HOME, request=request)
    hops = [r async for r in spider.parse_journal(home, listing_url=START, listing_title="Acta")]
    assert [r.url for r in hops] == ["http://publisher.example/acta/about"]
    assert (page_store(crawler).parsed.get(home_url) is None) is in_process
    metrics = HtmlResponse(hops[0].url, body=METRICS, request=hops[0])
    (item,) = [i async for i in spider.parse_metrics(metrics, **hops[0].cb_kwargs)]
    assert isinstance(item, JournalPages)
    assert [page.html for page in item.pages] == [HOME.decode(), METRICS.decode()]
    kept = [page_store(crawler).parsed.get(page.url) for page in item.pages]
    if in_process:
        assert kept == [None, None]
    else:
        assert all(page is not None and page.tree is not None for page in kept)
        assert [page.text for page in kept if page is not None] == [page.html for page in item.pages]
    spider.closed("finished")


class CountedAnalysis(AnalysisThread):
    """The analysis thread, counting what is handed to it."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list[str] = []

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        self.handed.append(getattr(function, "__name__", repr(function)))
        return await super().run(function, *args, **kwargs)


SUBJECT = (
    "<html><body><h1>Mathematics</h1><ul>"
    + "".join(
        f'<li><a href="/journal/{n}">Journal of {name} Studies</a></li>'
        for n, name in enumerate(["Algebra", "Geometry", "Topology", "Analysis", "Logic", "Number Theory"])
    )
    + "</ul></body></html>"
).encode()


def _counted_spider() -> tuple[PublisherSpider, CountedAnalysis]:
    crawler = get_crawler(PublisherSpider, project_defaults())
    spider = PublisherSpider.from_crawler(crawler, start_url=START)
    crawler.spider = spider
    spider.reader.analysis.shutdown()
    counted = CountedAnalysis()
    spider.reader.analysis = counted
    spider.rendering._analysis = counted
    return spider, counted


@deferred_f_from_coro_f
async def test_every_page_is_handed_to_the_analysis_thread_once() -> None:
    spider, counted = _counted_spider()
    meta = {"source": "publisher.example"}
    start = HtmlResponse(START, body=SUBJECT, request=scrapy.Request(START, meta=meta))
    listed = [r async for r in spider.parse_start(start, depth=0)]
    assert len(listed) == 6
    home_url = "http://publisher.example/acta"
    home = HtmlResponse(home_url, body=HOME, request=scrapy.Request(home_url, meta=meta))
    (hop,) = [r async for r in spider.parse_journal(home, listing_url=START, listing_title="Acta")]
    metrics = HtmlResponse(hop.url, body=METRICS, request=hop)
    [i async for i in spider.parse_metrics(metrics, **hop.cb_kwargs)]
    assert counted.handed == ["read_page"] * 3
    spider.closed("finished")


@deferred_f_from_coro_f
async def test_a_journal_page_that_lists_journals_is_read_as_a_listing_in_the_same_hand_off() -> None:
    spider, counted = _counted_spider()
    url = "http://publisher.example/subjects/mathematics"
    subject = HtmlResponse(url, body=SUBJECT, request=scrapy.Request(url, meta={"source": "publisher.example"}))
    requests = [r async for r in spider.parse_journal(subject, listing_url=START, listing_title="Mathematics")]
    assert [r.url for r in requests] == [f"http://publisher.example/journal/{n}" for n in range(6)]
    assert spider.crawler.stats.get_value("journals/reclassified/listing") == 1
    assert counted.handed == ["read_page"]
    spider.closed("finished")


def test_a_journal_page_is_read_for_what_the_spider_asks_next() -> None:
    names = read_page(HOME, "text/html", "http://publisher.example/acta", 100, links="metrics", memory=ListingMemory())
    assert names.names_data is True and names.as_index is None
    lists = read_page(
        SUBJECT, "text/html", "http://publisher.example/subjects/m", 100, links="metrics", memory=ListingMemory()
    )
    assert lists.names_data is False
    assert lists.as_index is not None and lists.as_index.group is not None
    assert len(lists.as_index.group.anchors) == 6


def test_an_index_page_is_read_with_its_signs_only_when_it_gives_nothing() -> None:
    app = b"<html><body><div id='app'></div><script src='/app.js'></script></body></html>"
    empty = read_page(app, "text/html", START, 100, memory=ListingMemory(), signs=True)
    assert empty.signs is not None and empty.signs.script_built
    listing = read_page(SUBJECT, "text/html", START, 100, memory=ListingMemory(), signs=True)
    assert listing.group is not None and listing.signs is None
