"""The MDR pipeline: data records of A–Z listings and data-rich regions of journal pages, mined off the reactor."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from scrapy.crawler import Crawler
from scrapy.utils.asyncio import run_in_thread

from journals.items import JournalPages
from journals.mdr import DEFAULT_MAX_NODES, mine_data_regions
from journals.mdr.listing import ListingIndex, index_listing


class MDRPipeline:
    """Fill ``listing_record`` and ``main_regions`` of :class:`JournalPages` items; other items pass through.

    Mining runs in a worker thread, so the crawl never waits on it. A listing page is shared by every
    journal it lists: it is mined once, and the result kept in an LRU of ``MDR_LISTING_CACHE_SIZE``
    listings (concurrent items of one listing await the same mining task). Needs the asyncio reactor.
    """

    def __init__(
        self,
        k: int = 10,
        threshold: float = 0.3,
        cache_size: int = 64,
        main_regions: int = 3,
        max_nodes: int = DEFAULT_MAX_NODES,
    ):
        self.k = k
        self.threshold = threshold
        self.cache_size = cache_size
        self.main_regions = main_regions
        self.max_nodes = max_nodes
        self._listings: OrderedDict[str, asyncio.Future[ListingIndex]] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MDRPipeline:
        """Read ``MDR_MAX_NODE_LENGTH``, ``MDR_THRESHOLD``, ``MDR_LISTING_CACHE_SIZE``, ``MDR_MAIN_REGIONS``,
        ``MDR_MAX_NODES`` (elements of a page mined, the first in document order)."""
        settings = crawler.settings
        return cls(
            k=settings.getint("MDR_MAX_NODE_LENGTH", 10),
            threshold=settings.getfloat("MDR_THRESHOLD", 0.3),
            cache_size=settings.getint("MDR_LISTING_CACHE_SIZE", 64),
            main_regions=settings.getint("MDR_MAIN_REGIONS", 3),
            max_nodes=settings.getint("MDR_MAX_NODES", DEFAULT_MAX_NODES),
        )

    async def process_item(self, item: Any) -> Any:
        """Mine the item's pages: the listing record of its journal, the main regions of the others."""
        if not isinstance(item, JournalPages):
            return item
        for page in item.pages:
            if page.role == "listing":
                index = await self._listing_index(page.url, page.html)
                item.listing_record = index.find(item.url, item.listing_title)
            else:
                regions = await run_in_thread(
                    mine_data_regions, page.html, self.k, self.threshold, False, max_nodes=self.max_nodes
                )
                item.main_regions[page.url] = [region.parent for region in regions[: self.main_regions]]
        return item

    def _listing_index(self, url: str, html: str) -> asyncio.Future[ListingIndex]:
        """The (possibly still running) mining of one listing page, from the LRU or started now."""
        future = self._listings.get(url)
        if future is not None and not _failed(future):
            self._listings.move_to_end(url)
            return future
        future = asyncio.ensure_future(run_in_thread(index_listing, html, url, self.k, self.threshold, self.max_nodes))
        self._listings[url] = future
        while len(self._listings) > self.cache_size:
            self._listings.popitem(last=False)
        return future


def _failed(future: asyncio.Future[Any]) -> bool:
    """Whether a finished mining task was cancelled or raised, so it is tried again rather than reused."""
    return future.done() and (future.cancelled() or future.exception() is not None)
