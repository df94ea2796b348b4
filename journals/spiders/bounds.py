"""The limits that end every crawl, traps included, and the record of each source's requests against them.

A bound hit is logged once per source, counted in ``journals/bounds/KIND`` and recorded in ``journals/traps/SOURCE``
(:data:`journals.crawl_health.TRAPS_STATS`), which fails the health check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from journals.crawl_health import TRAPS_STATS

if TYPE_CHECKING:
    import logging

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings


@dataclass(frozen=True)
class CrawlBounds:
    """The limits that end every crawl, traps included (settings ``CRAWL_MAX_*``, their defaults in
    ``settings/default.py``)."""

    pages_per_site: int
    """Requests per source, every kind (``CRAWL_MAX_PAGES_PER_SITE``)."""
    index_depth: int
    """Letter and browse hops below the start page, pagination not counted (``CRAWL_MAX_INDEX_DEPTH``): letters
    nested in letters beyond it are a trap."""
    listing_pages: int
    """Listing pages per letter, pagination included (``CRAWL_MAX_LISTING_PAGES``)."""

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CrawlBounds:
        """The bounds the settings ask for."""
        return cls(
            pages_per_site=settings.getint("CRAWL_MAX_PAGES_PER_SITE"),
            index_depth=settings.getint("CRAWL_MAX_INDEX_DEPTH"),
            listing_pages=settings.getint("CRAWL_MAX_LISTING_PAGES"),
        )


class CrawlLimits:
    """Per source, the requests made and the listing pages per letter, held to :class:`CrawlBounds`."""

    def __init__(self, bounds: CrawlBounds, crawler: Crawler, logger: logging.LoggerAdapter[logging.Logger]) -> None:
        """Hold ``crawler``'s crawl to ``bounds``, a bound hit logged to ``logger``."""
        self.bounds = bounds
        self.requests: Counter[str] = Counter()
        """Requests made per source so far (every kind)."""
        self.listing_pages: defaultdict[str, Counter[str]] = defaultdict(Counter)
        """Per source, listing pages requested per A–Z letter (``""`` for the start page's own pages)."""
        self.bounds_hit: defaultdict[str, set[str]] = defaultdict(set)
        """Per source, the bounds it hit (each logged and recorded once)."""
        self._crawler = crawler
        self._logger = logger

    def within(self, source: str, kind: str, allowed: bool, url: str) -> bool:
        """``allowed``, and when not, the bound ``kind`` is hit: counted, and logged and recorded once per source."""
        if allowed:
            return True
        stats = self._crawler.stats
        assert stats is not None
        stats.inc_value(f"journals/bounds/{kind}")
        if kind not in self.bounds_hit[source]:
            self.bounds_hit[source].add(kind)
            self._logger.warning(
                "Crawl bound %s hit on %s at %s: not following further (a spider trap?)", kind, source, url
            )
            key = f"{TRAPS_STATS}{source}"
            record = {"kind": kind, "url": url}
            stats.set_value(key, [*(stats.get_value(key) or []), record])
        return False

    def count_request(self, source: str, url: str) -> bool:
        """Count one more request of ``source``; False when it would pass the bound of requests per site."""
        if not self.within(source, "pages_per_site", self.requests[source] < self.bounds.pages_per_site, url):
            return False
        self.requests[source] += 1
        return True

    def index_room(self, source: str, letter: str | None, index_depth: int, url: str) -> bool:
        """Whether a listing page of ``letter`` at ``index_depth`` stays within the letter nesting and the listing
        pages per letter (each bound hit counted)."""
        if not self.within(source, "index_depth", index_depth <= self.bounds.index_depth, url):
            return False
        pages = self.listing_pages[source][letter or ""]
        return self.within(source, "listing_pages", pages < self.bounds.listing_pages, url)
