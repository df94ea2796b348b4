"""The crawl's bounds: requests per source and listing pages per letter held to them, a bound hit recorded once."""

from __future__ import annotations

import logging

from scrapy.utils.test import get_crawler

from journals.crawl_health import TRAPS_STATS
from journals.spiders.bounds import CrawlBounds, CrawlLimits
from tests.conftest import project_defaults


def _limits(**settings: int) -> tuple[CrawlLimits, dict[str, object]]:
    crawler = get_crawler(settings_dict=project_defaults(**settings))
    crawler.stats.open_spider()
    logger = logging.LoggerAdapter(logging.getLogger("test"), {})
    limits = CrawlLimits(CrawlBounds.from_settings(crawler.settings), crawler, logger)
    return limits, crawler.stats.get_stats()


def test_the_bounds_come_from_the_settings_and_their_defaults() -> None:
    limits, _ = _limits(CRAWL_MAX_INDEX_DEPTH=2)
    assert limits.bounds.index_depth == 2
    assert limits.bounds.pages_per_site == project_defaults()["CRAWL_MAX_PAGES_PER_SITE"]


def test_requests_past_the_bound_are_refused_and_the_trap_recorded_once() -> None:
    limits, stats = _limits(CRAWL_MAX_PAGES_PER_SITE=2)
    assert [limits.count_request("s", f"http://s/{n}") for n in range(4)] == [True, True, False, False]
    assert limits.count_request("other", "http://o/"), "each source has its own count"
    assert stats["journals/bounds/pages_per_site"] == 2
    assert stats[f"{TRAPS_STATS}s"] == [{"kind": "pages_per_site", "url": "http://s/2"}]


def test_listing_pages_are_bounded_per_letter_and_letters_by_depth() -> None:
    limits, stats = _limits(CRAWL_MAX_LISTING_PAGES=1, CRAWL_MAX_INDEX_DEPTH=3)
    assert limits.index_room("s", "A", 3, "http://s/a")
    limits.listing_pages["s"]["A"] += 1
    assert not limits.index_room("s", "A", 3, "http://s/a?page=2")
    assert limits.index_room("s", "B", 3, "http://s/b")
    assert not limits.index_room("s", "B", 4, "http://s/b/b")
    assert [record["kind"] for record in stats[f"{TRAPS_STATS}s"]] == ["listing_pages", "index_depth"]
