"""The MDR pipeline: the data records of A–Z listings, mined off the reactor.

The data-rich regions of journal pages are mined by the extraction, on the pages it learns by their labels only
(:class:`journals.mdr.mining.MainRegions`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from scrapy.crawler import Crawler

from journals.extensions.page_store import PageStore, page_store
from journals.items.adapted import journal_pages
from journals.mdr import DEFAULT_MAX_NODE_LENGTH, DEFAULT_MAX_NODES, DEFAULT_THRESHOLD
from journals.mdr.listing import ListingIndex, index_listing
from journals.pages.parsed import ParsedPage

logger = logging.getLogger(__name__)


class MDRPipeline:
    """Fill ``listing_record`` of :class:`JournalPages` items; other items pass through.

    Listings, the widest pages, are mined one at a time in a thread of their own (mining is the widest page's costliest
    step, in memory too), so the crawl never waits on it. An item names its listing page by URL: the page is read from
    the crawl's :class:`~journals.extensions.page_store.PageStore` (as the spider parsed it while kept, else its HTML,
    else from the page cache: a resumed or distributed crawl); a listing found in none gives no record (counted as
    ``mdr/listing_unavailable``). A listing page
    is shared by every journal it lists: it is mined once, and the result kept in an LRU of ``MDR_LISTING_CACHE_SIZE``
    listings (concurrent items of one listing await the same mining task). The tree the spider's analysis thread parsed
    is only read here, in the listing thread, once the spider is done with it.
    Needs the asyncio reactor.
    """

    def __init__(
        self,
        k: int = DEFAULT_MAX_NODE_LENGTH,
        threshold: float = DEFAULT_THRESHOLD,
        cache_size: int = 64,
        *,
        max_nodes: int = DEFAULT_MAX_NODES,
        pages: PageStore | None = None,
        crawler: Crawler | None = None,
    ):
        self.k = k
        self.threshold = threshold
        self.cache_size = cache_size
        self.max_nodes = max_nodes
        """Elements of a page mined at most (``MDR_MAX_NODES``): a wider page is mined on its first part."""
        self.pages = pages
        """Where listing pages are read (none: every listing is unavailable)."""
        self.crawler = crawler
        self._listings: OrderedDict[str, asyncio.Future[ListingIndex]] = OrderedDict()
        self._listing_miner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="listing-mining")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MDRPipeline:
        """Read ``MDR_MAX_NODE_LENGTH``, ``MDR_THRESHOLD``, ``MDR_LISTING_CACHE_SIZE``, ``MDR_MAX_NODES``."""
        settings = crawler.settings
        return cls(
            k=settings.getint("MDR_MAX_NODE_LENGTH"),
            threshold=settings.getfloat("MDR_THRESHOLD"),
            cache_size=settings.getint("MDR_LISTING_CACHE_SIZE"),
            max_nodes=settings.getint("MDR_MAX_NODES"),
            pages=page_store(crawler),
            crawler=crawler,
        )

    async def process_item(self, item: Any) -> Any:
        """Read the journal's record off its listing page (any item kind, :mod:`journals.items.adapted`); return
        it as a :class:`JournalPages`."""
        journal = journal_pages(item)
        if journal is None:
            return item
        item = journal
        if item.listing_url:
            index = await self._listing_index(item.listing_url)
            item.listing_record = index.find(item.url, item.listing_title)
        return item

    def _listing_index(self, url: str) -> asyncio.Future[ListingIndex]:
        """The (possibly still running) mining of one listing page, from the LRU or started now."""
        future = self._listings.get(url)
        if future is not None and not _failed(future):
            self._listings.move_to_end(url)
            return future
        future = asyncio.ensure_future(self._mine_listing(url))
        self._listings[url] = future
        while len(self._listings) > self.cache_size:
            self._listings.popitem(last=False)
        return future

    async def _mine_listing(self, url: str) -> ListingIndex:
        """Mine the listing page at ``url`` in a worker thread; an empty index when the page is nowhere."""
        html: ParsedPage | str | None = self.pages.listing(url) if self.pages is not None else None
        if html is None and self.pages is not None:
            # Read, decompressed and decoded off the reactor: a listing can be 16 MB.
            html = await asyncio.wrap_future(self._listing_miner.submit(self.pages.cached_text, url))
        if html is None:
            logger.warning("Listing page %s is neither in memory nor in the page cache: no listing record", url)
            self._inc_stat("mdr/listing_unavailable")
            return ListingIndex()
        index = await asyncio.wrap_future(
            self._listing_miner.submit(index_listing, html, url, self.k, self.threshold, self.max_nodes)
        )
        if index.truncated_nodes:
            logger.warning(
                "Listing page %s: mined its first %d elements, %d left", url, self.max_nodes, index.truncated_nodes
            )
            self._inc_stat("mdr/listing_nodes_over_cap")
        return index

    def close_spider(self) -> None:
        """Stop the listing-mining thread."""
        self._listing_miner.shutdown(wait=False, cancel_futures=True)

    def _inc_stat(self, key: str) -> None:
        if self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value(key)


def _failed(future: asyncio.Future[Any]) -> bool:
    """Whether a finished mining task was cancelled or raised, so it is tried again rather than reused."""
    return future.done() and (future.cancelled() or future.exception() is not None)
