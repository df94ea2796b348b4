"""The shared frontier's pure parts: its keys, who counts as busy, refusing to start without a crawl name, and the
Scrapy behaviour its leases rely on."""

import socket

import pytest
from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.scheduler.frontier import SharedFrontierScheduler, busy_workers, frontier_keys, worker_state
from tests.conftest import project_defaults


def test_frontier_keys_are_per_spider_and_crawl():
    assert frontier_keys("elsevier", "2026-w48") == {
        "requests": "journals:elsevier:2026-w48:requests",
        "seen": "journals:elsevier:2026-w48:seen",
        "workers": "journals:elsevier:2026-w48:workers",
        "leases": "journals:elsevier:2026-w48:leases",
        "deadlines": "journals:elsevier:2026-w48:deadlines",
    }


def test_busy_workers_are_recent_busy_beats_of_others():
    now = 1000.0
    states = {
        "a:1": worker_state(busy=True, now=now - 1),
        "b:2": worker_state(busy=False, now=now - 1),
        "c:3": worker_state(busy=True, now=now - 60),  # silent for a minute: dead
        "me:4": worker_state(busy=True, now=now),
    }
    assert busy_workers(states, now, timeout=30, exclude="me:4") == ["a:1"]
    assert busy_workers(states, now, timeout=120, exclude="me:4") == ["a:1", "c:3"]


@pytest.mark.parametrize("crawl_id", ["", "has space", "a%b", "x" * 101])
def test_the_scheduler_refuses_to_start_without_a_proper_crawl_id(crawl_id):
    crawler = get_crawler(settings_dict=project_defaults(CRAWL_ID=crawl_id))
    with pytest.raises(NotConfigured, match="CRAWL_ID"):
        SharedFrontierScheduler.from_crawler(crawler)


class HeldRequestsSpider(Spider):
    """A page whose callback yields an item, and a refused connection whose errback yields one."""

    name = "held_requests"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.requests = []
        self.held_at_item = []

    async def start(self):
        """One page, one refused connection."""
        yield Request("data:text/html,<p>page</p>", callback=self.parse)
        yield Request(f"http://127.0.0.1:{free_port()}/", callback=self.parse, errback=self.failed)

    def parse(self, response):
        """An item from the page."""
        self.requests.append(response.request)
        yield {"request": len(self.requests) - 1}

    def failed(self, failure):
        """An item from the error."""
        self.requests.append(failure.request)
        yield {"request": len(self.requests) - 1}


class HeldRequestsPipeline:
    """Record whether the engine still holds the item's request while the item is in the pipelines."""

    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        """The pipeline, with the crawler to read the engine from."""
        return cls(crawler)

    async def process_item(self, item):
        """Note whether the engine holds the request that yielded ``item``."""
        spider = self.crawler.spider
        spider.held_at_item.append(spider.requests[item["request"]] in self.crawler.engine._slot.inprogress)
        return item


def check_released(spider):
    """At spider_idle: the engine holds neither request any more."""
    spider.held_at_idle = [request in spider.crawler.engine._slot.inprogress for request in spider.requests]


def free_port() -> int:
    """A port nothing listens on (a refused connection)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@deferred_f_from_coro_f
async def test_the_engine_holds_a_request_until_its_output_went_through_the_pipelines():
    """What the leases rely on (SharedFrontierScheduler.release_done): Scrapy keeps a request in its slot's
    ``inprogress`` set while the items of its callback or errback are in the pipelines, and drops it after."""
    crawler = get_crawler(
        HeldRequestsSpider,
        {"ITEM_PIPELINES": {HeldRequestsPipeline: 100}, "DOWNLOAD_TIMEOUT": 5, "RETRY_ENABLED": False},
    )
    crawler.signals.connect(check_released, signal=signals.spider_idle)
    await crawler.crawl_async()
    assert crawler.spider.held_at_item == [True, True]
    assert crawler.spider.held_at_idle == [False, False]
