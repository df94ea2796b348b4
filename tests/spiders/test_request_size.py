"""Journal requests name their listing page, never carry it: a request pickled into ``JOBDIR`` or Redis stays a
few kB with a 16 MB listing."""

from __future__ import annotations

import pickle

import scrapy
from scrapy.http import HtmlResponse
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.extensions.page_store import page_store
from journals.spiders.publisher import PublisherSpider
from tests.conftest import project_defaults

START = "http://publisher.example/journals/"
BAR = 8 * 1024


def _listing(journals: int, target_bytes: int) -> bytes:
    """A listing page of ``journals`` entries, each with a long description, ``target_bytes`` in all."""
    padding = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * (target_bytes // journals // 60)
    entries = "".join(
        f"<li class='journal'><h3><a href='/journal/j{n}'>Journal of Example Studies {n}</a></h3>"
        f"<p>ISSN 1234-5678 · {padding}</p></li>"
        for n in range(journals)
    )
    return f"<html><body><nav><a href='/'>Home</a></nav><ul class='journals'>{entries}</ul></body></html>".encode()


@deferred_f_from_coro_f
async def test_journal_requests_stay_small_whatever_the_listings_size() -> None:
    crawler = get_crawler(PublisherSpider, project_defaults())
    spider = PublisherSpider.from_crawler(crawler, start_url=START)
    crawler.spider = spider
    body = _listing(10_000, 16 * 1024 * 1024)
    assert len(body) > 15 * 1024 * 1024
    request = scrapy.Request(f"{START}a", meta={"source": "publisher.example", "letter": "A"})
    response = HtmlResponse(request.url, body=body, request=request)
    requests = [r async for r in spider.parse_listing(response)]
    journals = [r for r in requests if r.callback == spider.parse_journal]
    assert len(journals) == 10_000
    # What Scrapy's disk queues (JOBDIR) and scrapy-redis's queue write: the request as a dict, pickled.
    sizes = [len(pickle.dumps(r.to_dict(spider=spider), protocol=4)) for r in journals]
    assert max(sizes) <= BAR, max(sizes)
    assert page_store(crawler).listings.get(response.url) is not None, "the listing is kept once, for the MDR pipeline"


@deferred_f_from_coro_f
async def test_a_metrics_hop_names_its_journal_page_and_the_journal_keeps_it() -> None:
    crawler = get_crawler(PublisherSpider, project_defaults())
    spider = PublisherSpider.from_crawler(crawler, start_url=START)
    crawler.spider = spider
    text = "Lorem ipsum dolor sit amet. " * 10_000
    home = (
        "<html><body><h1>Journal of Example Studies</h1><nav><a href='/journal/j1/metrics'>Journal metrics</a></nav>"
        f"<p>{text}</p></body></html>"
    ).encode()
    url = "http://publisher.example/journal/j1"
    request = scrapy.Request(url, meta={"source": "publisher.example"})
    kwargs = {"listing_url": f"{START}a", "listing_title": "Journal of Example Studies"}
    response = HtmlResponse(url, body=home, request=request)
    (hop,) = [r async for r in spider.parse_journal(response, **kwargs)]
    assert len(pickle.dumps(hop.to_dict(spider=spider), protocol=4)) <= BAR < len(home)
    metrics = HtmlResponse(hop.url, body=b"<html><body><p>Impact factor 2.5</p></body></html>", request=hop)
    (journal,) = [item async for item in spider.parse_metrics(metrics, **hop.cb_kwargs)]
    assert [(page.role, len(page.html) > len(text)) for page in journal.pages] == [("home", True), ("metrics", False)]
    assert (journal.url, journal.listing_url) == (url, f"{START}a")
