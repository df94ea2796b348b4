"""The crawl's stats collector (``STATS_CLASS``) keeps Scrapy's stats as Scrapy's collector does, with Python's
plain attribute lookup."""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from journals.extensions.stats import CrawlStatsCollector
from settings import default as default_settings


def test_the_crawl_uses_it() -> None:
    assert load_object(default_settings.STATS_CLASS) is CrawlStatsCollector


def test_the_same_stats_as_scrapys_collector() -> None:
    crawler = get_crawler()
    collectors = [MemoryStatsCollector(crawler), CrawlStatsCollector(crawler)]
    for stats in collectors:
        stats.inc_value("pages")
        stats.inc_value("pages", 2)
        stats.inc_value("bytes", 10, start=5)
        stats.max_value("depth", 3)
        stats.max_value("depth", 2)
        stats.min_value("first", 7)
        stats.min_value("first", 4)
        stats.set_value("reason", "finished")
    scrapys, ours = (stats.get_stats() for stats in collectors)
    assert ours == scrapys == {"pages": 3, "bytes": 15, "depth": 3, "first": 4, "reason": "finished"}
    assert collectors[1].get_value("missing", 0) == 0


def test_no_python_code_between_a_caller_and_the_collectors_attributes() -> None:
    assert MemoryStatsCollector.__getattribute__ is not object.__getattribute__, "Scrapy's has its own lookup"
    assert CrawlStatsCollector.__getattribute__ is object.__getattribute__
