"""The crawl's log formatter: Scrapy's, without building messages the log would drop."""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Spider
from scrapy.http import Response
from scrapy.logformatter import LogFormatter, LogFormatterResult
from twisted.python.failure import Failure

_ENGINE_LOG = logging.getLogger("scrapy.core.engine")
_SCRAPER_LOG = logging.getLogger("scrapy.core.scraper")


class QuietLogFormatter(LogFormatter):
    """Scrapy's :class:`~scrapy.logformatter.LogFormatter`, except that the DEBUG lines of every page ("Crawled")
    and every item ("Scraped") are not built when the logger that would write them is above DEBUG.

    Scrapy builds both for each page and item (the referer, the flags) and leaves the level check to the logger,
    which at the INFO a crawl runs with drops them: work on the reactor for every response. Returning None is the
    formatter's documented way to log nothing; with ``LOG_LEVEL=DEBUG`` the lines are Scrapy's own.
    """

    def crawled(self, request: Any, response: Response, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Crawled" line, or None when its logger would drop it."""
        if not _ENGINE_LOG.isEnabledFor(logging.DEBUG):
            return None
        return super().crawled(request, response, spider)

    def scraped(self, item: Any, response: Response | Failure | None, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Scraped" line, or None when its logger would drop it."""
        if not _SCRAPER_LOG.isEnabledFor(logging.DEBUG):
            return None
        return super().scraped(item, response, spider)
