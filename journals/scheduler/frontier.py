"""One crawl frontier shared by any number of workers: scrapy-redis's scheduler, keyed per crawl, with leases.

Every worker of a crawl is started with the same spider, arguments and ``CRAWL_ID``; they share

- ``journals:SPIDER:CRAWL_ID:requests``, the queue of requests any worker may pop,
- ``journals:SPIDER:CRAWL_ID:seen``, the fingerprints of every request ever scheduled (the duplicate filter),
- ``journals:SPIDER:CRAWL_ID:workers``, each worker's state (``busy`` or ``idle``) and when it was last seen,
- ``journals:SPIDER:CRAWL_ID:leases`` and ``…:deadlines``, the requests popped and not done yet
  (:mod:`journals.scheduler.leased_queue`).

A pop is a lease, not a removal: the request stays in Redis, in the popping worker's name, until its response
has been processed, the requests it yielded are queued (in Redis: scrapy-redis pushes at ``enqueue_request``) and
the journals it produced are committed to the database (the store pipeline's :class:`~journals.scheduler.commits.
CommitLedger`). Requests that end in an error (download error, dropped by a filter, refused by the scope) end
their lease the same way. Every few seconds, every worker puts back (exactly once, in one Lua script) the leases of
workers silent for ``FRONTIER_WORKER_TIMEOUT_SECS`` and any lease older than ``FRONTIER_LEASE_SECS``: the work of a
killed worker is redone by the others, its fetched pages come from the shared page cache, and its journals are
upserted, never stored twice. A worker that stops cleanly puts its unfinished leases back itself.

Each worker's spider yields its start requests as usual; the shared duplicate filter drops them after the first
worker's, so the start URLs enter the frontier once, whichever worker starts first. A new ``CRAWL_ID`` starts a
new crawl; an old one's keys expire ``FRONTIER_TTL_SECS`` after its last worker stopped (the duplicate filter
would otherwise grow without bound).

A worker whose queue runs dry stays (``DontCloseSpider``) while another worker is busy or holds leases, since that
one may still push requests, and closes once no live worker is busy, no lease is held and the queue is empty.

A request reaches the shared queue only once the pages this worker had handed to its page cache when the request
was scheduled are committed (the cache's :attr:`~journals.downloadermiddlewares.httpcache.SQLCacheStorage.writes`):
the worker that pops a journal's request reads its listing from the shared cache, and the one that pops a
metrics hop its journal page, and a page still in the writer thread of the worker that fetched it is nowhere for
them. Until then the request waits in memory, as it does while Redis is away.

A Redis that is away for a while (a restart) stops no worker: pops wait and retry with a doubling delay, requests
to push wait in memory (and hold back every lease, so that none is released before its requests are in Redis),
and the outage is logged once, with its end.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from redis.exceptions import RedisError
from scrapy import signals
from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.asyncio import create_looping_call
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.scheduler import Scheduler

from journals.scheduler.commits import CommitLedger
from journals.scheduler.leased_queue import LeasedPriorityQueue, lease_owner

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

CRAWL_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")
"""What a ``CRAWL_ID`` may be: it becomes part of Redis keys."""

LEASE_META_KEY = "frontier_lease"
"""``request.meta`` key of the lease id of a request popped from the shared frontier (never pushed back)."""

MAX_REDIS_RETRY_DELAY = 5.0
"""The longest wait between two tries of a Redis that is away (the delay doubles from 0.1 s)."""


def frontier_keys(spider_name: str, crawl_id: str) -> dict[str, str]:
    """The Redis keys of one crawl's frontier: ``requests``, ``seen``, ``workers``, ``leases``, ``deadlines``."""
    prefix = f"journals:{spider_name}:{crawl_id}"
    return {part: f"{prefix}:{part}" for part in ("requests", "seen", "workers", "leases", "deadlines")}


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


@dataclass
class Lease:
    """A request this worker popped and has not finished."""

    request: Request
    ticket: int | None = None
    """Once the engine is done with the request: the store's last buffered record then (-1 without a store)."""


class SharedFrontierScheduler(Scheduler):
    """``SCHEDULER``: scrapy-redis's scheduler on per-crawl keys, with leases and workers that wait for each other.

    Settings: ``CRAWL_ID`` (required), ``REDIS_URL``, ``SCHEDULER_PERSIST`` (keep it ``True`` with more than one
    worker: a worker that finishes first must not clear the others' frontier), ``FRONTIER_TTL_SECS``,
    ``FRONTIER_HEARTBEAT_SECS``, ``FRONTIER_WORKER_TIMEOUT_SECS``, ``FRONTIER_LEASE_SECS``.

    Stats: ``frontier/leases/taken``, ``frontier/leases/released``, ``frontier/leases/recovered`` (other workers'
    leases this one put back), ``frontier/leases/returned`` (its own, put back as it stopped),
    ``frontier/redis_outages``.
    """

    crawler: Crawler
    crawl_id: str
    worker_id: str
    """``HOST:PID``, this worker's name in the ``workers`` hash and in its lease ids."""
    ttl_secs: int
    worker_timeout: float
    lease_secs: float
    heartbeat: Any
    heartbeat_secs: float
    keys: dict[str, str]
    queue: LeasedPriorityQueue
    leases: dict[str, Lease]
    """The leases this worker holds, by id."""

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
        scheduler.ttl_secs = settings.getint("FRONTIER_TTL_SECS")
        scheduler.worker_timeout = settings.getfloat("FRONTIER_WORKER_TIMEOUT_SECS")
        scheduler.lease_secs = settings.getfloat("FRONTIER_LEASE_SECS")
        scheduler.heartbeat = create_looping_call(scheduler.beat)
        scheduler.heartbeat_secs = settings.getfloat("FRONTIER_HEARTBEAT_SECS")
        scheduler.leases = {}
        scheduler._lease_count = 0
        scheduler._unpushed = deque()
        scheduler._ledger = None
        scheduler._page_cache = None
        scheduler._cache_writes = None
        scheduler._redis_down_since = None
        scheduler._redis_retry_at = 0.0
        scheduler._redis_retry_delay = 0.0
        scheduler._next_recovery = 0.0
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        return scheduler

    _lease_count: int
    _unpushed: deque[tuple[Request, str, int]]
    """Requests not pushed yet, in order, with their fingerprints and the last page cache write each waits for:
    those that met a Redis away, or came before the pages they were made from were committed. Pushed before any
    lease is released."""
    _ledger: CommitLedger | None
    _page_cache: Any
    """The ``HTTPCACHE_STORAGE`` that numbers its writes (:attr:`_cache_writes`), if the crawl has one."""
    _cache_writes: CommitLedger | None
    _redis_down_since: float | None
    _redis_retry_at: float
    _redis_retry_delay: float
    _next_recovery: float
    """When the heartbeat next runs :meth:`recover` (``time.monotonic()``)."""

    def open(self, spider: Spider) -> None:
        """Open the crawl's leased queue and duplicate filter, say this worker is alive, and start beating."""
        self.spider = spider
        self.keys = frontier_keys(spider.name, self.crawl_id)
        self.queue_key = self.keys["requests"]
        self.queue = LeasedPriorityQueue(self.server, spider, self.keys["requests"], serializer=self.serializer)
        self.queue.leases_key, self.queue.deadlines_key = self.keys["leases"], self.keys["deadlines"]
        self.df = RFPDupeFilter(self.server, key=self.keys["seen"], debug=spider.settings.getbool("DUPEFILTER_DEBUG"))
        if self.flush_on_start:
            self.flush()
        # Alive before the first pop: another worker's recovery puts back the leases of workers it does not know.
        self._set_state(busy=False)
        self._ledger = self._find_ledger()
        if self._ledger is not None:
            self._ledger.add_listener(self.release_done)
        self._page_cache, self._cache_writes = self._find_cache_writes()
        if self._cache_writes is not None:
            self._cache_writes.add_listener(self.cache_settled)
        spider.logger.info(
            "Shared frontier %s: worker %s, %d requests queued, %d leased, %d seen",
            self.keys["requests"].rsplit(":", 1)[0],
            self.worker_id,
            len(self.queue),
            self.server.zcard(self.keys["deadlines"]),
            self.server.scard(self.keys["seen"]),
        )
        self.heartbeat.start(self.heartbeat_secs, now=False)

    def close(self, reason: str) -> None:
        """Stop beating, put back the leases not finished, leave the workers' table, and let the crawl's keys
        expire (or flush them)."""
        if self.heartbeat.running:
            self.heartbeat.stop()
        self._flush_page_cache()
        try:
            self._push_unpushed(flushed=True)
            self.release_done()
            returned = self.queue.requeue([*self.leases, *self._stray_leases()])
            self.server.hdel(self.keys["workers"], self.worker_id)
            self._refresh_expiry()
        except RedisError as exc:
            logger.error(
                "Shared frontier: Redis unreachable at close (%s): %d leases and %d requests not pushed are left to "
                "the other workers' recovery",
                exc,
                len(self.leases),
                len(self._unpushed),
            )
            return
        if returned:
            logger.info("Shared frontier: put back %d unfinished requests for the other workers", returned)
            self._inc_stat("frontier/leases/returned", returned)
        self.leases.clear()
        super().close(reason)

    def enqueue_request(self, request: Request) -> bool:
        """Push ``request`` unless the shared duplicate filter has it, in one step (and never with a lease id:
        a retry or redirect of a leased request is a new request; its lease ends with the old one), once the pages
        this worker has handed to the page cache so far are committed: the page the request was made from is one."""
        request.meta.pop(LEASE_META_KEY, None)
        fingerprint = self.df.request_fingerprint(request)
        cache_ticket = self._cache_writes.ticket() if self._cache_writes is not None else -1
        if self._unpushed or not self._redis_ready() or not self._cached_through(cache_ticket):
            self._unpushed.append((request, fingerprint, cache_ticket))
            return True
        try:
            queued = self.queue.push_new(request, fingerprint, self.keys["seen"])
        except RedisError as exc:
            self._redis_failed(exc)
            self._unpushed.append((request, fingerprint, cache_ticket))
            return True
        self._redis_ok()
        if not queued:
            self.df.log(request, self.spider)
            return False
        self._inc_stat("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        """Lease the next request of the shared queue (after releasing the leases whose work is done); None while
        Redis is away. A leased request counts as work (a busy beat)."""
        if not self._redis_ready():
            return None
        try:
            self.release_done()
            self._lease_count += 1
            lease_id = f"{self.worker_id}#{self._lease_count}"
            request = self.queue.lease(lease_id, time.time() + self.lease_secs)
        except RedisError as exc:
            self._redis_failed(exc)
            return None
        self._redis_ok()
        if request is None:
            return None
        request.meta[LEASE_META_KEY] = lease_id
        self.leases[lease_id] = Lease(request)
        self._inc_stat("scheduler/dequeued/redis")
        self._inc_stat("frontier/leases/taken")
        try:
            self._set_state(busy=True)
        except RedisError as exc:
            self._redis_failed(exc)  # the next beat says it; the request is leased and ours
        return request

    def has_pending_requests(self) -> bool:
        """Whether requests wait in the shared queue (or, while Redis is away, in memory: assume so)."""
        try:
            return len(self.queue) > 0 or bool(self._unpushed)
        except RedisError:
            return True

    def release_done(self) -> None:
        """Push the requests whose pages are committed, then release the leases whose work is over: the engine is
        done with the request (its callback's output processed, its requests pushed) and the store committed every
        journal buffered until then."""
        # Requests not pushed yet go first: a lease ends only once the requests it yielded are in Redis.
        if not self._push_unpushed() or not self.leases:
            return
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None) if engine is not None else None
        # The engine holds a request in its slot from the download until the scrape of its result is over: its
        # callback or errback's items through the pipelines, its requests scheduled (Scrapy's one such hook).
        in_progress = slot.inprogress if slot is not None else set()
        done = []
        for lease_id, lease in self.leases.items():
            if lease.ticket is None and lease.request not in in_progress:
                lease.ticket = self._ledger.ticket() if self._ledger is not None else -1
            if lease.ticket is not None and (self._ledger is None or self._ledger.settled_through(lease.ticket)):
                done.append(lease_id)
        if not done:
            return
        try:
            self.queue.release(done)
        except RedisError as exc:
            self._redis_failed(exc)
            return
        for lease_id in done:
            del self.leases[lease_id]
        self._inc_stat("frontier/leases/released", len(done))

    def recover(self) -> int:
        """Put back the leases of dead workers and those past their deadline; how many this worker put back.

        The script reads every lease of the crawl: the heartbeat runs it every third of
        ``FRONTIER_WORKER_TIMEOUT_SECS``, not at every beat (an idle worker runs it each time it checks whether
        to close).
        """
        self._next_recovery = time.monotonic() + self.worker_timeout / 3
        recovered = self.queue.recover(self.keys["workers"], time.time(), self.worker_timeout)
        mine = [lease_id for lease_id in recovered if lease_id in self.leases]
        for lease_id in mine:
            # Ours, past its deadline: whoever pops it again redoes it; this worker's copy no longer holds it.
            del self.leases[lease_id]
        if recovered:
            owners = sorted({lease_owner(lease_id) for lease_id in recovered})
            logger.warning(
                "Shared frontier: put back %d requests leased by %s (silent for %.0f s or leased %.0f s ago)",
                len(recovered),
                ", ".join(owners),
                self.worker_timeout,
                self.lease_secs,
            )
            self._inc_stat("frontier/leases/recovered", len(recovered))
        return len(recovered)

    def beat(self) -> None:
        """Every ``FRONTIER_HEARTBEAT_SECS``: record whether this worker is busy, keep the keys alive, release the
        leases whose work is done, recover those of dead workers (every third of the worker timeout), and wake the
        engine when requests wait in the shared queue (pushed by other workers, or put back)."""
        engine = self.crawler.engine
        if engine is None or engine.spider is None or engine.scraper.slot is None:
            return  # the engine opens the scheduler before the rest of the spider's slot
        idle = engine.spider_is_idle()
        try:
            self._set_state(busy=not idle)
            self._refresh_expiry()
            self.release_done()
            if time.monotonic() >= self._next_recovery:
                self.recover()
            queued = len(self.queue)
        except RedisError as exc:
            # A Redis away must not stop the heartbeat; the next beat retries.
            self._redis_failed(exc)
            return
        self._redis_ok()
        if queued:
            self._wake_engine()

    def _wake_engine(self) -> None:
        """Have the engine ask for the next request now. Scrapy's engine asks its scheduler again only when its own
        work moves on, or every 5 seconds: requests pushed meanwhile (by another worker, or by this one once their
        pages were committed) would wait that long."""
        slot = getattr(self.crawler.engine, "_slot", None)
        if slot is not None:
            slot.nextcall.schedule()

    def cache_settled(self) -> None:
        """The page cache committed pages: push the requests that waited for them, and take them up at once."""
        waiting = len(self._unpushed)
        self.release_done()
        if len(self._unpushed) < waiting:
            self._wake_engine()

    def spider_idle(self, spider: Spider) -> None:
        """Keep this worker while another one is busy or holds leases, since it may still push requests (and its
        leases come back here if it dies), and while Redis is away."""
        try:
            self.release_done()
            self.recover()
            self.queue.requeue(self._stray_leases())
            entries = self.server.hgetall(self.keys["workers"])
            others_leases = [lease for lease in self.queue.leased_ids() if lease_owner(lease) != self.worker_id]
            queued = len(self.queue)
        except RedisError as exc:
            self._redis_failed(exc)
            raise DontCloseSpider("waiting for Redis") from exc
        states = {worker.decode(): state.decode() for worker, state in entries.items()}
        busy = busy_workers(states, time.time(), self.worker_timeout, exclude=self.worker_id)
        if busy:
            raise DontCloseSpider(f"waiting for workers {', '.join(busy)}")
        if others_leases:
            raise DontCloseSpider(f"waiting for {len(others_leases)} requests leased by other workers")
        if queued or self._unpushed:
            raise DontCloseSpider("requests queued")

    def _stray_leases(self) -> list[str]:
        """Leases in this worker's name that it does not hold (a release Redis lost in a restart)."""
        prefix = f"{self.worker_id}#"
        return [lease for lease in self.queue.leased_ids() if lease.startswith(prefix) and lease not in self.leases]

    def _push_unpushed(self, *, flushed: bool = False) -> bool:
        """Push the requests waiting in memory, in order, as far as Redis is there and the page cache committed the
        pages each waits for (all of them with ``flushed``: the cache's writes are over); whether none is left."""
        while self._unpushed and self._redis_ready():
            request, fingerprint, cache_ticket = self._unpushed[0]
            if not (flushed or self._cached_through(cache_ticket)):
                break  # the tickets grow in order: the later requests wait too
            try:
                queued = self.queue.push_new(request, fingerprint, self.keys["seen"])
            except RedisError as exc:
                self._redis_failed(exc)
                break
            self._redis_ok()
            self._unpushed.popleft()
            if queued:
                self._inc_stat("scheduler/enqueued/redis")
        return not self._unpushed

    def _cached_through(self, ticket: int) -> bool:
        """Whether the page cache committed (or gave up) every page it numbered up to ``ticket``."""
        return self._cache_writes is None or self._cache_writes.settled_through(ticket)

    def _find_cache_writes(self) -> tuple[Any, CommitLedger | None]:
        """The crawl's ``HTTPCACHE_STORAGE`` and its numbered writes, when it numbers them (``writes``)."""
        engine = self.crawler.engine
        downloader = getattr(engine, "downloader", None)
        for component in getattr(getattr(downloader, "middleware", None), "middlewares", ()):
            if isinstance(component, HttpCacheMiddleware):
                writes = getattr(component.storage, "writes", None)
                if isinstance(writes, CommitLedger):
                    return component.storage, writes
        return None, None

    def _flush_page_cache(self) -> None:
        """Wait for the page cache's writes (at close: the requests they hold back are pushed next)."""
        flush = getattr(self._page_cache, "flush", None)
        if flush is None:
            return
        with contextlib.suppress(RuntimeError):  # its writer has stopped already: nothing is left to write
            flush()

    def _find_ledger(self) -> CommitLedger | None:
        """The store pipeline's acknowledgements, when an item pipeline keeps them (``commits``)."""
        engine = self.crawler.engine
        itemproc = getattr(getattr(engine, "scraper", None), "itemproc", None)
        for component in getattr(itemproc, "middlewares", ()):
            ledger = getattr(component, "commits", None)
            if isinstance(ledger, CommitLedger):
                return ledger
        return None

    def _redis_ready(self) -> bool:
        """Whether to try Redis now: always, unless it failed and its retry delay has not passed."""
        return self._redis_down_since is None or time.monotonic() >= self._redis_retry_at

    def _redis_failed(self, exc: RedisError) -> None:
        """Note a failed Redis call: log the outage once, and wait twice as long before the next try."""
        now = time.monotonic()
        if self._redis_down_since is None:
            self._redis_down_since = now
            self._redis_retry_delay = 0.1
            self._inc_stat("frontier/redis_outages")
            logger.warning(
                "Shared frontier: Redis unreachable (%s); retrying, with %d leases held", exc, len(self.leases)
            )
        else:
            self._redis_retry_delay = min(self._redis_retry_delay * 2, MAX_REDIS_RETRY_DELAY)
        self._redis_retry_at = now + self._redis_retry_delay

    def _redis_ok(self) -> None:
        """Note a Redis call that worked: log the end of an outage."""
        if self._redis_down_since is not None:
            logger.warning("Shared frontier: Redis is back after %.1f s", time.monotonic() - self._redis_down_since)
            self._redis_down_since = None

    def _inc_stat(self, name: str, count: int = 1) -> None:
        """Count in the crawl's stats."""
        if self.stats is not None:
            self.stats.inc_value(name, count)

    def _set_state(self, busy: bool) -> None:
        """Record whether this worker holds work, and that it is alive."""
        self.server.hset(self.keys["workers"], self.worker_id, worker_state(busy, time.time()))

    def _refresh_expiry(self) -> None:
        """Push back the expiry of the crawl's keys: they outlive the last worker by ``FRONTIER_TTL_SECS``."""
        pipe = self.server.pipeline(transaction=False)
        for key in self.keys.values():
            pipe.expire(key, self.ttl_secs)
        pipe.execute()
