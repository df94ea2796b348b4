"""One crawl frontier shared by any number of workers: scrapy-redis's scheduler, keyed per crawl.

Every worker of a crawl is started with the same spider, arguments and ``CRAWL_ID``; they share

- ``journals:SPIDER:CRAWL_ID:requests``, the queue of requests any worker may pop,
- ``journals:SPIDER:CRAWL_ID:seen``, the fingerprints of every request ever scheduled (the duplicate filter),
- ``journals:SPIDER:CRAWL_ID:workers``, each worker's state (``busy`` or ``idle``) and when it was last seen.

Each worker's spider yields its start requests as usual; the shared duplicate filter drops them after the first
worker's, so the start URLs enter the frontier once, whichever worker starts first. A new ``CRAWL_ID`` starts a
new crawl; an old one's keys expire ``FRONTIER_TTL_SECS`` after its last worker stopped (the duplicate filter
would otherwise grow without bound).

A worker whose queue runs dry stays (``DontCloseSpider``) while another worker is busy, since that one may still
push requests, and closes once no live worker is busy and the queue is empty. A worker that dies stops beating
and is no longer waited for after ``FRONTIER_WORKER_TIMEOUT_SECS``. Whatever happens, the last worker alive
drains the queue before it closes, and a worker started later with the same ``CRAWL_ID`` resumes a queue that
was left behind.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import time
from typing import TYPE_CHECKING, Any, Self

from redis.exceptions import RedisError
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.asyncio import create_looping_call
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.scheduler import Scheduler

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

CRAWL_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")
"""What a ``CRAWL_ID`` may be: it becomes part of Redis keys."""


def frontier_keys(spider_name: str, crawl_id: str) -> dict[str, str]:
    """The Redis keys of one crawl's frontier: ``requests``, ``seen`` and ``workers``."""
    prefix = f"journals:{spider_name}:{crawl_id}"
    return {part: f"{prefix}:{part}" for part in ("requests", "seen", "workers")}


def worker_state(busy: bool, now: float) -> str:
    """A worker's entry in the ``workers`` hash: ``busy TIMESTAMP`` or ``idle TIMESTAMP``."""
    return f"{'busy' if busy else 'idle'} {now!r}"


def busy_workers(states: dict[str, str], now: float, timeout: float, exclude: str = "") -> list[str]:
    """Workers other than ``exclude`` that said they were busy at most ``timeout`` seconds ago.

    A worker that said it was idle holds no work; one that stopped beating longer ago is taken for dead.
    """
    busy = []
    for worker, state in states.items():
        word, _, stamp = state.partition(" ")
        if worker != exclude and word == "busy" and now - float(stamp or 0) <= timeout:
            busy.append(worker)
    return sorted(busy)


class SharedFrontierScheduler(Scheduler):
    """``SCHEDULER``: scrapy-redis's scheduler on per-crawl keys, with workers that wait for each other.

    Settings: ``CRAWL_ID`` (required), ``REDIS_URL``, ``SCHEDULER_PERSIST`` (keep it ``True`` with more than one
    worker: a worker that finishes first must not clear the others' frontier), ``FRONTIER_TTL_SECS``,
    ``FRONTIER_HEARTBEAT_SECS``, ``FRONTIER_WORKER_TIMEOUT_SECS``.
    """

    crawler: Crawler
    crawl_id: str
    worker_id: str
    """``HOST:PID``, this worker's name in the ``workers`` hash."""
    ttl_secs: int
    worker_timeout: float
    heartbeat: Any
    heartbeat_secs: float
    keys: dict[str, str]

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The scheduler of the crawl named by the ``CRAWL_ID`` setting."""
        crawl_id = crawler.settings.get("CRAWL_ID") or ""
        if not CRAWL_ID_PATTERN.fullmatch(crawl_id):
            raise NotConfigured(
                "the shared frontier needs -s CRAWL_ID=NAME (letters, digits, . _ : -), the same on every worker "
                f"of one crawl and new for each crawl; got {crawl_id!r}"
            )
        scheduler = super().from_crawler(crawler)
        scheduler.crawler = crawler
        scheduler.crawl_id = crawl_id
        scheduler.worker_id = f"{socket.gethostname()}:{os.getpid()}"
        settings = crawler.settings
        scheduler.ttl_secs = settings.getint("FRONTIER_TTL_SECS", 7 * 24 * 3600)
        scheduler.worker_timeout = settings.getfloat("FRONTIER_WORKER_TIMEOUT_SECS", 30.0)
        scheduler.heartbeat = create_looping_call(scheduler.beat)
        scheduler.heartbeat_secs = settings.getfloat("FRONTIER_HEARTBEAT_SECS", 1.0)
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        return scheduler

    def open(self, spider: Spider) -> None:
        """Open the crawl's queue and duplicate filter, and start beating."""
        self.keys = frontier_keys(spider.name, self.crawl_id)
        self.queue_key = self.keys["requests"]
        self.df = RFPDupeFilter(
            self.server, key=self.keys["seen"], debug=spider.settings.getbool("DUPEFILTER_DEBUG")
        )
        super().open(spider)
        spider.logger.info(
            "Shared frontier %s: worker %s, %d requests queued, %d seen",
            self.keys["requests"].rsplit(":", 1)[0],
            self.worker_id,
            len(self.queue),
            self.server.scard(self.keys["seen"]),
        )
        self.heartbeat.start(self.heartbeat_secs, now=False)

    def close(self, reason: str) -> None:
        """Stop beating, leave the workers' table, and let the crawl's keys expire (or flush them)."""
        if self.heartbeat.running:
            self.heartbeat.stop()
        self.server.hdel(self.keys["workers"], self.worker_id)
        self._refresh_expiry()
        super().close(reason)

    def next_request(self) -> Any:
        """Pop the next request of the shared queue; a popped request counts as work (a busy beat)."""
        request = super().next_request()
        if request is not None:
            self._set_state(busy=True)
        return request

    def beat(self) -> None:
        """Every ``FRONTIER_HEARTBEAT_SECS``: record whether this worker is busy, keep the keys alive, and wake the
        engine when requests wait in the shared queue (pushed by other workers)."""
        engine = self.crawler.engine
        if engine is None or engine.spider is None or engine.scraper.slot is None:
            return  # the engine opens the scheduler before the rest of the spider's slot
        idle = engine.spider_is_idle()
        try:
            self._set_state(busy=not idle)
            self._refresh_expiry()
            queued = len(self.queue)
        except RedisError as exc:
            # A Redis hiccup must not stop the heartbeat; the next beat retries.
            logger.warning("Shared frontier heartbeat failed: %s", exc)
            return
        if queued:
            # Scrapy's engine asks its scheduler again only when its own work moves on, or every 5 seconds: requests
            # another worker pushed meanwhile would wait that long.
            slot = getattr(engine, "_slot", None)
            if slot is not None:
                slot.nextcall.schedule()

    def spider_idle(self, spider: Spider) -> None:
        """Keep this worker while another one is busy, since it may still push requests."""
        entries = self.server.hgetall(self.keys["workers"])
        states = {worker.decode(): state.decode() for worker, state in entries.items()}
        busy = busy_workers(states, time.time(), self.worker_timeout, exclude=self.worker_id)
        if busy or len(self.queue):
            raise DontCloseSpider(f"waiting for workers {', '.join(busy)}" if busy else "requests queued")

    def _set_state(self, busy: bool) -> None:
        """Record whether this worker holds work, and that it is alive."""
        self.server.hset(self.keys["workers"], self.worker_id, worker_state(busy, time.time()))

    def _refresh_expiry(self) -> None:
        """Push back the expiry of the crawl's keys: they outlive the last worker by ``FRONTIER_TTL_SECS``."""
        pipe = self.server.pipeline(transaction=False)
        for key in self.keys.values():
            pipe.expire(key, self.ttl_secs)
        pipe.execute()
