"""One database per crawl: the crawl's SQLAlchemy engine, opened once with its schema, shared by every component.

The page cache (:class:`journals.downloadermiddlewares.httpcache.SQLCacheStorage`), the item pipelines
(:mod:`journals.pipelines.store`, the learned rules of :mod:`journals.pipelines.extraction`), the resume middleware
(:mod:`journals.spidermiddlewares.resume`) and the extensions (:mod:`journals.extensions.health`,
:mod:`journals.extensions.crawl_runs`) all fetch the engine of :class:`CrawlDatabase` with :func:`crawl_database`
instead of opening their own.

Why an extension, and not a pipeline, a middleware or an add-on: Scrapy builds the extensions first, while it applies
the settings and before the downloader (whose cache middleware builds the cache storage), the spider middlewares and
the item pipelines, and since 2.12 it hands any component the running instance with ``crawler.get_extension()``.
So the engine exists before anything needs it, a bad ``DATABASE_URL`` stops the crawl before it starts, and no
component depends on another one that happens to be enabled. An extension also hears ``engine_stopped``, which Scrapy
sends once ``spider_closed`` has been handled by every receiver: the cache's writer thread has flushed, the store
pipeline has written its last batch (pipelines close before ``spider_closed``), the health check has read and the
crawl's record is written. The engine is disposed then, once. (An add-on only changes settings and is no running
component of the crawl; a pipeline or a spider middleware is built after the downloader, so after the cache storage,
and a pipeline closes before the extensions have written.)

One engine is one connection pool: SQLAlchemy's default (5 connections, 10 more on demand) covers the most that use
it at once, the reactor thread (cache reads, the health check), the cache's writer thread and Scrapy's thread pool
(``REACTOR_THREADPOOL_MAXSIZE``, 10: the store's batches, learned rules, resume, the crawl record).

``scrapy crawl`` opens the database before the crawl, so that an unusable one is a one-line error
(:mod:`journals.commands.crawl`); it hands that engine to its crawler with :func:`hand_over`, and the crawl adopts it
instead of opening a second one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

from journals.store import DatabaseError, database_url, open_database

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from sqlalchemy import Engine

_NOT_ENABLED = "journals.extensions.database.CrawlDatabase, the crawl's database, is not enabled in EXTENSIONS"

_handed_over: WeakKeyDictionary[Crawler, tuple[str, Engine]] = WeakKeyDictionary()
"""Engines opened for a crawler before its crawl started (by ``scrapy crawl``), with their URL, until adopted."""


class CrawlDatabase:
    """The crawl's database: one engine on ``DATABASE_URL`` with its schema created or upgraded once, disposed when
    the crawl engine stops. Off (``NotConfigured``) when no ``DATABASE_URL`` is set."""

    def __init__(self, url: str, engine: Engine) -> None:
        """Hold ``engine``, already opened on ``url`` with its schema."""
        self.url = url
        self._engine: Engine | None = engine

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Open the database (or adopt the engine handed over for this crawler) and dispose of it on
        ``engine_stopped``; :class:`~journals.store.DatabaseError` when it cannot be used."""
        try:
            url = database_url(crawler.settings)
        except DatabaseError as error:
            raise NotConfigured(str(error)) from None
        handed = _handed_over.pop(crawler, None)
        if handed is not None and handed[0] == url:
            engine = handed[1]
        else:
            if handed is not None:
                handed[1].dispose()
            engine = open_database(url)
        database = cls(url, engine)
        crawler.signals.connect(database.engine_stopped, signal=signals.engine_stopped)
        return database

    @property
    def engine(self) -> Engine:
        """The crawl's engine, until the crawl engine stops."""
        if self._engine is None:
            raise RuntimeError("the crawl's database is closed: the crawl engine has stopped")
        return self._engine

    def engine_stopped(self) -> None:
        """Release the connections: every component is done with the database."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def crawl_database(crawler: Crawler) -> CrawlDatabase:
    """The running :class:`CrawlDatabase` of ``crawler``; :class:`~journals.store.DatabaseError` saying why when
    there is none (no ``DATABASE_URL``, or the extension left out of ``EXTENSIONS``).

    Callable once the extensions are built: from a pipeline's or a middleware's ``from_crawler``, or an extension's
    signal handler.
    """
    database = crawler.get_extension(CrawlDatabase)
    if database is None:
        database_url(crawler.settings)  # raises with its own reason when DATABASE_URL is not set
        raise DatabaseError(_NOT_ENABLED)
    return database


def require_database(settings: BaseSettings) -> None:
    """Raise :class:`~journals.store.DatabaseError` unless the settings give the crawl a database: a component built
    before the crawl runs (the page cache storage is built from the settings alone) refuses to start without it."""
    database_url(settings)  # raises with its own reason when DATABASE_URL is not set
    enabled = build_component_list(settings.getwithbase("EXTENSIONS"))
    if not any(issubclass(load_object(component), CrawlDatabase) for component in enabled):
        raise DatabaseError(_NOT_ENABLED)


def hand_over(crawler: Crawler, url: str, engine: Engine) -> None:
    """Give ``crawler`` an engine opened (with its schema) on ``url`` before its crawl: its :class:`CrawlDatabase`
    adopts it when the crawl starts on the same URL, and disposes of it."""
    _handed_over[crawler] = (url, engine)
