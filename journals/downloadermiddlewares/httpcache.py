"""The page cache: a storage for Scrapy's ``HttpCacheMiddleware`` kept in the project's database.

Every fetched response is one :class:`~journals.store.models.CachedPage` row keyed by the request fingerprint,
so one SQLite file holds both the rows and the pages, and on PostgreSQL every worker shares one cache.

- Replay: ``HTTPCACHE_POLICY = "scrapy.extensions.httpcache.DummyPolicy"`` (the default) serves every cached
  page without asking the site; add ``HTTPCACHE_IGNORE_MISSING = True`` to run offline (zero downloads).
- Revalidation: ``HTTPCACHE_POLICY = "scrapy.extensions.httpcache.RFC2616Policy"`` asks the site with
  ``If-None-Match``/``If-Modified-Since`` and keeps the cached page on ``304 Not Modified``.
- ``HTTPCACHE_EXPIRATION_SECS`` > 0 treats older pages as missing.
- Rendered pages: a page the browser rendered (:mod:`journals.downloadermiddlewares.rendering`) replaces the HTML
  its site served, under the same key, marked with :data:`RENDERED_HEADER`; a request to render is answered from
  the cache only with a rendered page, unless the run is offline (``HTTPCACHE_IGNORE_MISSING``): then with what
  there is.

Scrapy calls a cache storage on the reactor thread. A read is one short statement on a kept connection, and none
at all for a page the cache did not hold at start nor stored since (:class:`~journals.store.page_cache.
CachedPageReader`); a write is handed to one writer thread (compressing a wide listing, or waiting on SQLite's lock
while the store writes a batch, would block the reactor); the pages waiting for its next turn are written in one
transaction. A page waiting to be written is served from memory; at most ``PENDING_WRITES`` pages wait, beyond that a
write is made on the spot (back-pressure); closing waits for them all.

Every page handed over is numbered in :attr:`SQLCacheStorage.writes` and settled once its transaction is committed (or
its write given up): on a shared cache, another process sees a page only then, so the shared frontier of a
distributed crawl (:mod:`journals.scheduler.frontier`) holds back the requests a page led to until it is settled.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from time import time
from typing import TYPE_CHECKING, Any

from scrapy.http import Headers, Request
from scrapy.responsetypes import responsetypes
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from journals.extensions.database import crawl_database, require_database
from journals.scheduler.commits import CommitLedger
from journals.store.models import utcnow
from journals.store.page_cache import (
    CachedPageReader,
    CachedPageRow,
    PageCacheError,
    refresh_cached_page,
    write_cached_pages,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector
    from scrapy.utils.request import RequestFingerprinterProtocol

logger = logging.getLogger(__name__)

CACHE_COMPRESSION_LEVEL = 1
"""zlib's fastest level: on a wide listing it is several times faster than the default level for a little more
space (docs/ARCHITECTURE.md, "Measurements behind the design")."""
PENDING_WRITES = 64
"""Pages at most waiting for the writer thread."""
CACHED_BODY = "_journals_cached_body"
"""Request meta: the body of the cached response the cache gave for the request. Scrapy stores a page that a ``304
Not Modified`` confirmed again, with fresher headers and this very body: then only its headers and time are
written (no body compressed and written again)."""
RENDERED_HEADER = "X-Journals-Rendered"
"""The header a cached page rendered by the browser carries (:mod:`journals.downloadermiddlewares.rendering`): a
page has one row, the rendered page replacing the served HTML, and a request to render is not answered with the
served HTML."""


class SQLCacheStorage:
    """``HTTPCACHE_STORAGE`` keeping responses in the ``cached_pages`` table of ``DATABASE_URL``."""

    def __init__(self, settings: BaseSettings) -> None:
        """Read the settings; the database is the crawl's own, taken in :meth:`open_spider`.

        Raises :class:`journals.store.DatabaseError` when the crawl will have no database, so that the crawl stops
        before it starts.
        """
        require_database(settings)
        self.expiration_secs = settings.getint("HTTPCACHE_EXPIRATION_SECS")
        self.offline = settings.getbool("HTTPCACHE_IGNORE_MISSING")
        self._engine: Engine | None = None
        self._reader: CachedPageReader | None = None
        self._fingerprinter: RequestFingerprinterProtocol | None = None
        self._stats: StatsCollector | None = None
        self._pending: dict[str, dict[str, Any]] = {}
        """Rows handed to the writer thread and not written yet, by fingerprint (their body uncompressed)."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="page-cache-writer")
        self._queued: list[tuple[int, dict[str, Any]]] = []
        """Rows waiting for the writer thread's next turn, which writes them in one transaction (a transaction a
        page cost more than the page's write), each with its number in :attr:`writes`."""
        self._queue_lock = threading.Lock()
        self.writes = CommitLedger()
        """The pages handed over to be written, numbered as they come; each is settled on the reactor thread once
        its transaction is committed, or its write given up (:meth:`flush` waits for the writes, not the
        settling)."""
        self._call_from_thread: Callable[..., Any] | None = None

    def open_spider(self, spider: Spider) -> None:
        """Take the crawl's database (:func:`journals.extensions.database.crawl_database`) and the crawler's request
        fingerprinter, the key of every cached page.

        Raises :class:`journals.store.DatabaseError` when the crawl has no database.
        """
        from twisted.internet import reactor  # the crawl's, installed by now

        self._call_from_thread = reactor.callFromThread
        self._engine = crawl_database(spider.crawler).engine
        self._fingerprinter = spider.crawler.request_fingerprinter
        self._stats = spider.crawler.stats
        try:
            self._reader = CachedPageReader(self._engine)
        except PageCacheError as exc:
            # Unreadable now: every page is fetched, and cached when the database comes back.
            logger.warning("Could not read the page cache: %s", exc)
        logger.debug("Using the SQL page cache in %s", self._connected().url.render_as_string(hide_password=True))

    def flush(self) -> None:
        """Wait until every page handed to the writer thread is written (or its failure counted)."""
        self._writer.submit(lambda: None).result()

    def close_spider(self, spider: Spider) -> None:
        """Wait for the pages still being written, then let go of the database (the crawl disposes of it)."""
        self._writer.shutdown(wait=True)
        if self._reader is not None:
            self._reader.close()
        self._reader = None
        self._engine = None

    def retrieve_response(self, spider: Spider, request: Request) -> Response | None:
        """The cached response to ``request``, or ``None`` when not cached, expired, or the cache is unreadable
        (logged and counted as ``httpcache/retrieve_error``)."""
        key = self._key(request)
        pending = self._pending.get(key)
        if pending is not None:
            written = CachedPageRow(pending["url"], pending["status"], pending["headers"], b"", pending["fetched_at"])
            return self._cached(request, written, pending["body"])
        if self._reader is None:
            self._connected()
            return None
        try:
            row = self._reader.read(key)
        except PageCacheError as exc:
            # The database is down or locked: fetch the page instead of failing its request.
            logger.warning("Could not read the cache for %s: %s", request.url, exc)
            if spider.crawler.stats is not None:
                spider.crawler.stats.inc_value("httpcache/retrieve_error")
            return None
        if row is None:
            return None
        if 0 < self.expiration_secs < time() - row.fetched_at.timestamp():
            return None
        return self._cached(request, row, zlib.decompress(row.body))

    def _cached(self, request: Request, row: CachedPageRow, body: bytes) -> Response | None:
        """The response a cached ``row`` (``body``: its body uncompressed) holds for ``request``; None when
        ``request`` asks to render a page the cache has only as served (and the run is not offline).

        Built as :func:`scrapy.utils.response.response_from_dict` builds it (the class that
        :data:`scrapy.responsetypes.responsetypes` picks from the headers, URL and body), without its copies of
        the headers: every request of a replay comes through here."""
        headers = headers_from_json(row.headers)
        if request.meta.get("playwright") and RENDERED_HEADER not in headers and not self.offline:
            return None
        request.meta["cache_timestamp"] = row.fetched_at.timestamp()
        request.meta[CACHED_BODY] = body
        response_class = responsetypes.from_args(headers=headers, url=row.url, body=body)
        response = response_class(url=row.url, status=row.status, body=body)
        # The response's own headers, as its constructor's copy of them would be: a Headers is taken as it is.
        response.headers = headers
        return response

    def store_response(self, spider: Spider, request: Request, response: Response) -> None:
        """Insert or replace the cached response to ``request``, in the writer thread (on the spot when
        ``PENDING_WRITES`` pages already wait).

        A failed write is logged and counted (``httpcache/store_error``), not raised: losing a cache entry
        must not lose the page from the crawl.
        """
        headers = response.headers
        if request.meta.get("playwright"):
            headers = headers.copy()
            headers[RENDERED_HEADER] = "chromium"
        key = self._key(request)
        if request.meta.pop(CACHED_BODY, None) is response.body and key not in self._pending:
            self._writer.submit(self._refresh, key, response.url, headers_to_json(headers))
            return
        row: dict[str, Any] = {
            "fingerprint": key,
            "url": response.url,
            "status": response.status,
            "headers": headers_to_json(headers),
            "body": response.body,
            "fetched_at": utcnow(),
        }
        if self._reader is not None:
            self._reader.remember(row["fingerprint"])
        number = self.writes.buffered()
        if len(self._pending) >= PENDING_WRITES:
            self._write(row)
            self._settle([number])
            return
        self._pending[row["fingerprint"]] = row
        with self._queue_lock:
            self._queued.append((number, row))
            first = len(self._queued) == 1
        if first:  # else the writer thread has a turn coming that takes this row too
            self._writer.submit(self._write_queued)

    def _write_queued(self) -> None:
        """Write every row queued so far in one transaction (in the writer thread)."""
        with self._queue_lock:
            queued, self._queued = self._queued, []
        rows = [row for _, row in queued]
        latest = {row["fingerprint"]: row for row in rows}  # a page queued twice: its later response
        try:
            write_cached_pages(self._connected(), [self._compressed(row) for row in latest.values()])
        except SQLAlchemyError:
            for row in latest.values():  # one row the database refuses loses no other
                self._write(row)
        else:
            for row in rows:
                self._written(row)
        self._settle([number for number, _ in queued])

    def _write(self, row: dict[str, Any]) -> None:
        """Upsert one page's row, its body compressed; then it no longer waits."""
        try:
            write_cached_pages(self._connected(), [self._compressed(row)])
        except SQLAlchemyError as exc:
            logger.warning("Could not cache %s: %s", row["url"], str(exc).splitlines()[0])
            if self._stats is not None:
                self._stats.inc_value("httpcache/store_error")
        finally:
            self._written(row)

    def _settle(self, numbers: list[int]) -> None:
        """Settle written pages in :attr:`writes`, on the reactor thread (its listeners run there)."""
        if self._call_from_thread is None:  # never opened: nobody listens
            self.writes.settle(numbers)
            return
        with contextlib.suppress(RuntimeError):  # the reactor's loop is closed: the crawl is over, nobody listens
            self._call_from_thread(self.writes.settle, numbers)

    @staticmethod
    def _compressed(row: dict[str, Any]) -> dict[str, Any]:
        return {**row, "body": zlib.compress(row["body"], CACHE_COMPRESSION_LEVEL)}

    def _written(self, row: dict[str, Any]) -> None:
        """``row`` no longer waits (unless a later response of its page took its place)."""
        if self._pending.get(row["fingerprint"]) is row:
            del self._pending[row["fingerprint"]]

    def _refresh(self, key: str, url: str, headers: str) -> None:
        """Write a revalidated page's new headers and time (counted as ``httpcache/refreshed``)."""
        try:
            if refresh_cached_page(self._connected(), key, headers, utcnow()) and self._stats is not None:
                self._stats.inc_value("httpcache/refreshed")
        except SQLAlchemyError as exc:
            logger.warning("Could not cache %s: %s", url, str(exc).splitlines()[0])
            if self._stats is not None:
                self._stats.inc_value("httpcache/store_error")

    def _key(self, request: Request) -> str:
        """The cache key of ``request``: its fingerprint, in hex."""
        if self._fingerprinter is None:
            raise RuntimeError("SQLCacheStorage used before open_spider()")
        return self._fingerprinter.fingerprint(request).hex()

    def _connected(self) -> Engine:
        """The crawl's engine, from :meth:`open_spider` to :meth:`close_spider`."""
        if self._engine is None:
            raise RuntimeError("SQLCacheStorage used outside open_spider() ... close_spider()")
        return self._engine


def headers_to_json(headers: Headers) -> str:
    """Headers as a JSON object of name → list of values; Latin-1 maps every byte to one character."""
    return json.dumps(
        {name.decode("latin-1"): [value.decode("latin-1") for value in values] for name, values in headers.items()},
        separators=(",", ":"),
    )


def headers_from_json(text: str) -> Headers:
    """The inverse of :func:`headers_to_json`: the very bytes that were stored.

    Names stored from a ``Headers`` are in its form already (title case), so the names and lists are put in as they
    are, without ``Headers`` normalising each name and value again; a name in another form (a row written by other
    means) is normalised as ``Headers`` does."""
    stored = {
        name.encode("latin-1"): [value.encode("latin-1") for value in values]
        for name, values in json.loads(text).items()
    }
    headers = Headers()
    if all(name == name.title() for name in stored):
        dict.update(headers, stored)
    else:
        headers.update(stored)
    return headers
