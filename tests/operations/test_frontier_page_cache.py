"""The shared frontier and the shared page cache together, on real Redis and PostgreSQL servers: a worker hands a
request to the other workers only once the page it was made from is in the cache they read, and a worker that pops a
metrics hop whose journal page is in no cache fetches that page again.

The worker that pops a journal's request reads its listing from the shared cache, and the one that pops a metrics
hop reads its journal page there; a page still waiting in the writer thread of the worker that fetched it is
nowhere for them, and the journal would be stored without it.
"""

from __future__ import annotations

from typing import Any

import pytest
from redis import Redis
from scrapy import Request, Spider, signals
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler
from scrapy_redis.dupefilter import RFPDupeFilter
from server_fixtures import postgres_fixture, redis_server_fixture  # noqa: F401  (pytest fixtures)
from sqlalchemy import text

from journals.scheduler.frontier import frontier_keys
from journals.scheduler.leased_queue import LeasedPriorityQueue
from journals.spiders.publisher import PublisherSpider
from journals.store import create_schema, engine_from_url
from settings import default

SITE = "elsevier"
CRAWL_ID = "cache-order"
DERIVED_REQUESTS_WATCHED = 3
"""Requests made from the start page that are scheduled while the page cache cannot commit, before it can again."""


def worker_settings(database_url: str, redis_url: str, crawl_id: str = CRAWL_ID) -> dict[str, Any]:
    """The project's settings with the shared frontier of ``settings.distributed`` on this database and Redis."""
    return {
        **{name: getattr(default, name) for name in dir(default) if name.isupper()},
        "SCHEDULER": "journals.scheduler.frontier.SharedFrontierScheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
        "SCHEDULER_PERSIST": True,
        "REDIS_URL": redis_url,
        "CRAWL_ID": crawl_id,
        "DATABASE_URL": database_url,
        "PROGRESS_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }


@deferred_f_from_coro_f
async def test_a_request_reaches_the_frontier_only_once_its_page_is_in_the_shared_cache(
    sandbox: Any, postgres: Any, redis_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page cache cannot commit (its table locked, as a busy database holds it): the letters the start page
    leads to wait in the worker's memory, none reaches the shared queue, where another worker would take them
    while their page is in no cache it can read. Once the database takes writes again they go, and the crawl ends
    with every journal's pages found."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    database = postgres.create_database("journals_frontier_cache")
    engine = engine_from_url(database)
    create_schema(engine)
    lock = engine.connect()
    lock.begin()
    # Blocks every write of the table (INSERT … ON CONFLICT), no read.
    lock.execute(text("LOCK TABLE cached_pages IN SHARE ROW EXCLUSIVE MODE"))
    redis = Redis.from_url(redis_server.url)
    keys = frontier_keys(PublisherSpider.name, CRAWL_ID)
    queued_while_locked: list[int] = []

    def scheduled(request: Request, spider: Spider) -> None:
        # Sent before the request is enqueued: the requests before it were enqueued already.
        if lock.closed or request.meta.get("start_page"):
            return
        queued_while_locked.append(redis.zcard(keys["requests"]))
        if len(queued_while_locked) == DERIVED_REQUESTS_WATCHED:
            lock.rollback()
            lock.close()

    crawler = get_crawler(PublisherSpider, worker_settings(database, redis_server.url))
    crawler.signals.connect(scheduled, signal=signals.request_scheduled)
    try:
        await crawler.crawl_async(start_url=sandbox.start_url(SITE))
    finally:
        if not lock.closed:
            lock.close()
        redis.delete(*keys.values())
        engine.dispose()
    stats = crawler.stats.get_stats()
    assert queued_while_locked == [0] * DERIVED_REQUESTS_WATCHED, "requests reached Redis before their page's cache"
    assert stats["item_scraped_count"] > 10
    assert stats["frontier/leases/taken"] == stats["frontier/leases/released"]
    assert "journals/journal_page_unavailable" not in stats
    assert "mdr/listing_unavailable" not in stats


@deferred_f_from_coro_f
async def test_a_metrics_hop_whose_journal_page_is_in_no_cache_fetches_that_page_again(
    sandbox: Any, postgres: Any, redis_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frontier holds one metrics hop, as the worker that read its journal page pushed it, but that worker's
    write of the page never reached the cache (refused, or the cache was off): the worker that pops the hop fetches
    the journal page again, and stores the journal with both its pages rather than with its metrics page alone."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    database = postgres.create_database("journals_hop_alone")
    crawl_id = "hop-alone"
    keys = frontier_keys(PublisherSpider.name, crawl_id)
    redis = Redis.from_url(redis_server.url)
    journal = next(j for j in sandbox.truth["sites"][SITE]["journals"] if j["metrics_url"])
    start_url = sandbox.start_url(SITE)
    pusher = PublisherSpider(start_url=start_url)
    source = pusher.source_for(pusher.seed_urls[0])
    # The start page taken already (by the worker that pushed the hop), and the hop as that worker pushes it.
    redis.sadd(keys["seen"], RFPDupeFilter(redis, keys["seen"]).request_fingerprint(Request(pusher.seed_urls[0])))
    hop = Request(
        journal["metrics_url"],
        pusher.parse_metrics,
        cb_kwargs={
            "home_url": journal["url"],
            "home_from_cache": False,
            "listing_url": journal["listing_urls"][-1],
            "listing_title": journal["values"]["title"],
        },
        errback=pusher.metrics_failed,
        dont_filter=True,
        meta={"source": source, "page_role": "metrics"},
    )
    queue = LeasedPriorityQueue(redis, pusher, keys["requests"])
    assert queue.push_new(hop, "hop", keys["seen"])
    stored: list[Any] = []

    def keep(item: Any) -> None:
        stored.append(item)

    crawler = get_crawler(PublisherSpider, worker_settings(database, redis_server.url, crawl_id))
    crawler.signals.connect(keep, signal=signals.item_scraped)
    try:
        await crawler.crawl_async(start_url=start_url)
    finally:
        redis.delete(*keys.values())
    stats = crawler.stats.get_stats()
    assert [item.url for item in stored] == [journal["url"]]
    assert sorted(page["role"] for page in stored[0].pages if page["role"] != "listing") == ["home", "metrics"]
    assert stored[0].title == journal["values"]["title"]
    assert stats["journals/journal_page_fetched_again"] == 1
    assert "journals/journal_page_unavailable" not in stats
