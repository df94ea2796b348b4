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
    which at the INFO a crawl runs with drops them: work on the reactor for every response. Scrapy leaves its loggers
    at every level and sets ``LOG_LEVEL`` on its handler, so a line is built when a handler it would reach takes
    DEBUG (:func:`debug_is_written`). Returning None is the formatter's documented way to log nothing; with
    ``LOG_LEVEL=DEBUG`` the lines are Scrapy's own.
    """

    def crawled(self, request: Any, response: Response, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Crawled" line, or None when its logger would drop it."""
        if not debug_is_written(_ENGINE_LOG):
            return None
        return super().crawled(request, response, spider)

    def scraped(self, item: Any, response: Response | Failure | None, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Scraped" line, or None when its logger would drop it."""
        if not debug_is_written(_SCRAPER_LOG):
            return None
        return super().scraped(item, response, spider)


def debug_is_written(logger: logging.Logger) -> bool:
    """Whether a DEBUG record of ``logger`` would be written: the logger takes DEBUG and a handler on its way to the
    root (or Python's last resort, when none is there) does too. Scrapy filters by ``LOG_LEVEL`` in its root
    handler, not in its loggers, so a logger's own level does not say."""
    if not logger.isEnabledFor(logging.DEBUG):
        return False
    current: logging.Logger | None = logger
    handled = False
    while current is not None:
        for handler in current.handlers:
            handled = True
            if handler.level <= logging.DEBUG:
                return True
        if not current.propagate:
            break
        current = current.parent
    resort = logging.lastResort
    return not handled and resort is not None and resort.level <= logging.DEBUG
