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


def debug_written(logger: logging.Logger) -> bool:
    """Whether a DEBUG record of ``logger`` would be written: the logger takes it and so does a handler of it or of
    an ancestor it propagates to (as ``Logger.callHandlers`` walks them)."""
    if not logger.isEnabledFor(logging.DEBUG):
        return False
    current: logging.Logger | None = logger
    while current is not None:
        if any(handler.level <= logging.DEBUG for handler in current.handlers):
            return True
        current = current.parent if current.propagate else None
    return False


class QuietLogFormatter(LogFormatter):
    """Scrapy's :class:`~scrapy.logformatter.LogFormatter`, except that the DEBUG lines of every page ("Crawled")
    and every item ("Scraped") are not built when no handler would write them.

    Scrapy builds both for each page and item (the referer, the flags) and leaves the level check to logging, which
    at the INFO a crawl runs with drops them: work on the reactor for every response. Scrapy applies ``LOG_LEVEL`` to
    its handler, not to its loggers (the root logger is left at NOTSET), so the logger's own level lets DEBUG
    through and logging builds each record (and finds its caller) before the handler drops it: a line is built here
    only when the logger and one of the handlers it reaches both take DEBUG. Returning None is the formatter's
    documented way to log nothing; with ``LOG_LEVEL=DEBUG`` the lines are Scrapy's own.
    """

    def crawled(self, request: Any, response: Response, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Crawled" line, or None when its logger would drop it."""
        if not debug_written(_ENGINE_LOG):
            return None
        return super().crawled(request, response, spider)

    def scraped(self, item: Any, response: Response | Failure | None, spider: Spider) -> LogFormatterResult | None:  # type: ignore[override]
        """Scrapy's "Scraped" line, or None when its logger would drop it."""
        if not debug_written(_SCRAPER_LOG):
            return None
        return super().scraped(item, response, spider)
