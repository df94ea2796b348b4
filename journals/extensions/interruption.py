"""Whether a crawl was interrupted, and saying so once.

A crawl stopped before its end (Ctrl-C or SIGTERM: finish reason ``shutdown``; a spider closed with no reason:
``cancelled``) has seen part of each site. What it wrote to the database stays (every row it wrote is true), but
its feeds would replace complete ones with a partial list (:class:`journals.exporters.AtomicFileFeedStorage`
keeps the previous files instead), its health check would compare a part with the last whole crawl and report
losses that are no losses (:mod:`journals.extensions.health` skips the comparison), and ``scrapy crawl`` exits
with :data:`INTERRUPTED_EXIT_CODE` so that a script or ``make`` does not take it for a finished crawl.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from scrapy import signals
from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

INTERRUPTED_REASONS = frozenset({"shutdown", "cancelled"})
"""Scrapy's finish reasons of a crawl stopped before its end."""
INTERRUPTED_STATS = "crawl/interrupted"
"""Stat holding the finish reason of an interrupted crawl (absent when the crawl ran to its end)."""
INTERRUPTED_EXIT_CODE = 130
"""Exit status of ``scrapy crawl`` after an interrupted crawl: the shell's status of a command ended by Ctrl-C."""


def crawl_interrupted(crawler: Crawler) -> bool:
    """Whether ``crawler``'s crawl is ending before its end: its spider closed with an interrupted reason, or the
    crawler was stopped (read before the close's reason is known, as the feeds are stored)."""
    stats = crawler.stats
    if stats is not None and stats.get_value(INTERRUPTED_STATS):
        return True
    return crawler.engine is not None and not crawler.crawling


class InterruptionExtension:
    """Records an interrupted crawl in :data:`INTERRUPTED_STATS` and says once what that means for its outputs.

    Its ``spider_closed`` receiver is synchronous, so it has run before the feed exporter stores its files (the
    feed slots are closed in tasks of their own, started by the same signal).
    """

    def __init__(self, crawler: Crawler) -> None:
        """Keep the crawler, whose stats get the mark."""
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Connect to ``spider_closed`` (the items so far, for the message, are Scrapy's ``item_scraped_count``)."""
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, spider: Any, reason: str) -> None:
        """Mark and report a crawl closed with an interrupted reason."""
        if reason not in INTERRUPTED_REASONS:
            return
        assert self.crawler.stats is not None
        self.crawler.stats.set_value(INTERRUPTED_STATS, reason)
        logger.warning(
            "Crawl interrupted (%s) after %d items: the rows written so far stay in the database; feeds keep their "
            "previous contents; not compared with the last crawl; exit status %d",
            reason,
            self.crawler.stats.get_value("item_scraped_count", 0),
            INTERRUPTED_EXIT_CODE,
        )
