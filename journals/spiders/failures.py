"""Failed pages counted by cause and source, each logged once, and the record of failed start pages.

A request refused on purpose (``IgnoreRequest``: out of scope, robots.txt) is no failed page: it is counted and
logged where it was refused. A page lost to a redirect loop or too many hops (Scrapy's redirect middleware ignores
it, logging at DEBUG) is one.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest

from journals.crawl_health import START_FAILED_STATS
from journals.downloadermiddlewares.redirect import REDIRECT_LOOP

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

REDIRECT_FAILURES = {"max redirections reached": "too_many_redirects", REDIRECT_LOOP: "redirect_loop"}
"""The reasons of the ``IgnoreRequest`` of a page lost to redirects (past ``REDIRECT_MAX_TIMES``, or a loop:
:mod:`journals.downloadermiddlewares.redirect`), by the cause its failed page is counted under."""
GONE_CAUSES = frozenset({"http_404", "http_410"})
"""Failed pages that are gone, the site's dead links: logged as INFO (still counted), other failures as WARNING."""


class FailedPages:
    """The crawl's account of its failed pages: ``journals/failed_pages/CAUSE``,
    ``journals/failed_pages_by_source/SOURCE`` and, for start pages, ``journals/start_failed/SOURCE``."""

    def __init__(self, crawler: Crawler, logger: logging.LoggerAdapter[logging.Logger]) -> None:
        """Count in ``crawler``'s stats, log to ``logger``."""
        self._crawler = crawler
        self._logger = logger

    def count(self, failure: Any) -> str:
        """Count a failed page by cause and source, log it once; return the cause (``http_404``, an error name,
        ``too_many_redirects``, ``redirect_loop``)."""
        error = failure.value
        redirects = REDIRECT_FAILURES.get(str(error)) if failure.check(IgnoreRequest) else None
        if failure.check(IgnoreRequest) and getattr(error, "response", None) is None and redirects is None:
            self._logger.debug("Request refused (%s): %s", error, failure.request.url)
            return type(error).__name__
        response = getattr(error, "response", None)
        cause = redirects or (f"http_{response.status}" if response is not None else type(error).__name__)
        stats = self._crawler.stats
        assert stats is not None
        stats.inc_value(f"journals/failed_pages/{cause}")
        stats.inc_value(f"journals/failed_pages_by_source/{failure.request.meta.get('source')}")
        # A page that is gone (404, 410) is the site's dead link, not the crawl's failure: counted, logged as INFO.
        level = logging.INFO if cause in GONE_CAUSES else logging.WARNING
        self._logger.log(level, "Page failed (%s): %s", cause, failure.request.url)
        return cause

    def record_start_failure(self, failure: Any, cause: str) -> None:
        """Record a start page that failed for good (after retries) for the health check: the stat
        ``journals/start_failed/SOURCE`` (:data:`journals.crawl_health.START_FAILED_STATS`) is a list with one
        ``{"url", "cause", "error"}`` per failed start page, its URL as given, before redirects."""
        request = failure.request
        stats = self._crawler.stats
        assert stats is not None
        key = f"{START_FAILED_STATS}{request.meta.get('source')}"
        record = {
            "url": request.meta.get("redirect_urls", [request.url])[0],
            "cause": cause,
            "error": str(failure.value).strip().split("\n")[0],
        }
        stats.set_value(key, [*(stats.get_value(key) or []), record])
