"""One page store per crawl: the pages the spider read, held for the item pipelines, and the page cache behind them.

The spider parses each page once (in its analysis thread); the pipelines read the same tree rather than parse it
again, and the MDR pipeline reads a journal's listing by the URL its item names. An item carries only its pages' URL
and text, and a request only URLs (both stay small: an item is exported, a request pickled into ``JOBDIR`` or
Redis). The store holds, by URL:

- the recent parsed pages (:class:`~journals.pages.parsed.RecentPages`: journal, metrics and listing pages, bounded
  by ``PARSED_PAGES_CHARS``);
- the recent listings' HTML (:class:`~journals.pages.listings.RecentListings`, bounded by ``LISTING_MEMORY_CHARS``),
  which outlive their trees;
- the journal pages waiting for their metrics hop;

and falls back on the page cache (the storage of Scrapy's ``HttpCacheMiddleware``, any ``HTTPCACHE_STORAGE``) for a
page no longer in memory (a resumed crawl, another worker of a distributed one): the crawl's one way back to a page.
Every component reaches it with :func:`page_store`.

An extension, as :class:`~journals.extensions.database.CrawlDatabase` is: built once per crawl, before the spider
reads a page or a pipeline an item, and independent of which of them are enabled.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Self

from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
from scrapy.http import Request

from journals.items import FetchedPage, JournalPages
from journals.pages.decoding import decode_html
from journals.pages.listings import RecentListings
from journals.pages.parsed import RecentPages

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from journals.pages.parsed import ParsedPage

logger = logging.getLogger(__name__)

_NOT_ENABLED = "journals.extensions.page_store.PageStore, the crawl's page store, is not enabled in EXTENSIONS"


class PageStore:
    """The crawl's pages in memory by URL, with the page cache behind them; a journal's pages put together."""

    def __init__(
        self, crawler: Crawler | None, *, parsed_chars: int, listing_chars: int, keep_journal_pages: bool = True
    ) -> None:
        """A store of at most ``parsed_chars`` characters of parsed pages and ``listing_chars`` of listings, falling
        back on ``crawler``'s page cache (none without a crawler); journal and metrics pages kept parsed only with
        ``keep_journal_pages``."""
        self.keep_journal_pages = keep_journal_pages
        """Whether journal and metrics pages are kept parsed: for an extraction in the crawl's own process. One in a
        worker process (``EXTRACTION_PROCESS``) parses their text again, and their trees would only take the room of
        the listings' trees, which the MDR pipeline reads."""
        self.parsed = RecentPages(parsed_chars)
        """Parsed pages, for the pipelines to read rather than parse again."""
        self.listings = RecentListings(listing_chars)
        """The listing pages journal requests refer to, as HTML."""
        self.awaiting_metrics: dict[str, FetchedPage] = {}
        """Journal pages whose metrics hop is on its way, by URL."""
        self._crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The store of ``crawler``, bounded by ``PARSED_PAGES_CHARS`` and ``LISTING_MEMORY_CHARS``; keeping journal
        pages parsed unless they are extracted in a worker process (``EXTRACTION_PROCESS``)."""
        settings = crawler.settings
        return cls(
            crawler,
            parsed_chars=settings.getint("PARSED_PAGES_CHARS"),
            listing_chars=settings.getint("LISTING_MEMORY_CHARS"),
            keep_journal_pages=not settings.getbool("EXTRACTION_PROCESS"),
        )

    def keep(self, page: ParsedPage) -> None:
        """Keep a journal or metrics page as parsed, for the extraction pipeline (unless it extracts in a worker
        process: :attr:`keep_journal_pages`)."""
        if self.keep_journal_pages:
            self.parsed.keep(page)

    def keep_listing(self, page: ParsedPage) -> None:
        """Keep a listing page, parsed and as HTML, for the MDR pipeline (every journal it lists names it)."""
        self.listings.keep(page.url, page.text)
        self.parsed.keep(page)

    def take_parsed(self, url: str) -> ParsedPage | None:
        """The parsed page at ``url`` if kept, forgotten now (a journal's page is read by its one item)."""
        return self.parsed.take(url)

    def listing(self, url: str) -> ParsedPage | str | None:
        """The listing page at ``url`` from memory: parsed while kept, else its HTML; None when gone (read it from
        :meth:`cached_text`, off the reactor)."""
        return self.parsed.get(url) or self.listings.get(url)

    def cached_text(self, url: str) -> str | None:
        """The decoded HTML of the page the crawl's page cache holds for a GET of ``url``; None when the cache is off,
        not running, or does not have it. Read through the crawl's own ``HttpCacheMiddleware`` storage, so no second
        connection is opened; it decompresses and decodes, so a large page is read in a worker thread."""
        crawler = self._crawler
        if crawler is None or crawler.engine is None or crawler.spider is None:
            return None
        storage = next(
            (m.storage for m in crawler.engine.downloader.middleware.middlewares if isinstance(m, HttpCacheMiddleware)),
            None,
        )
        if storage is None:
            return None
        response = storage.retrieve_response(crawler.spider, Request(url))
        if response is None:
            return None
        return decode_html(response.body, response.headers.get("Content-Type", b"").decode("latin-1"))[0]

    def await_metrics(self, home: FetchedPage) -> None:
        """Hold a journal's home page until its metrics page comes (:meth:`journal`)."""
        self.awaiting_metrics[home.url] = home

    def home_page(self, url: str, *, from_cache: bool) -> FetchedPage | None:
        """The journal page at ``url`` that waits for its metrics hop: from memory (handed over once), else the page
        cache; None when in neither (another worker fetched it and its cache write failed, or the cache is off)."""
        home = self.awaiting_metrics.pop(url, None)
        if home is None and (html := self.cached_text(url)) is not None:
            home = FetchedPage(url=url, html=html, role="home", from_cache=from_cache)
        return home

    def journal(
        self,
        source: str,
        *,
        home_url: str,
        home_from_cache: bool,
        listing_url: str,
        listing_title: str,
        metrics: FetchedPage | None,
        home: FetchedPage | None = None,
    ) -> JournalPages:
        """The journal a metrics hop was made for: its home page (``home``, else :meth:`home_page`) and the metrics
        page, if any. A home page found nowhere is logged and counted (``journals/journal_page_unavailable``)."""
        if home is None:
            home = self.home_page(home_url, from_cache=home_from_cache)
        if home is None:
            logger.warning("Journal page %s is neither in memory nor in the page cache", home_url)
            self._inc("journals/journal_page_unavailable")
        pages = [page for page in (home, metrics) if page is not None]
        return JournalPages(
            source=source, url=home_url, listing_url=listing_url, listing_title=listing_title, pages=pages
        )

    def _inc(self, key: str) -> None:
        if self._crawler is not None and self._crawler.stats is not None:
            self._crawler.stats.inc_value(key)


def page_store(crawler: Crawler) -> PageStore:
    """The running :class:`PageStore` of ``crawler``; ``RuntimeError`` when the extension is not enabled.

    Callable once the extensions are built: from a pipeline's or a middleware's ``from_crawler``, or from a spider's
    callbacks (a spider is made before the extensions)."""
    store = crawler.get_extension(PageStore)
    if store is None:
        raise RuntimeError(_NOT_ENABLED)
    return store
