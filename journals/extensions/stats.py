"""The crawl's stats collector: Scrapy's, read and written without a detour through Python code at each access."""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class CrawlStatsCollector(MemoryStatsCollector):
    """Scrapy's :class:`~scrapy.statscollectors.MemoryStatsCollector` (the same stats, kept and dumped alike) with
    Python's plain attribute lookup.

    Scrapy's ``StatsCollector`` defines ``__getattribute__`` to wrap its methods in a check that warns of the
    deprecated ``spider`` argument, and so every attribute read on a collector runs Python code: each
    ``inc_value`` of every middleware, extension and spider, and each ``self._stats`` inside the methods, which
    first raises and catches an ``AttributeError``. Neither the project nor Scrapy passes that argument (a caller
    that still does is served all the same, unwarned); what the lookup costs, it costs on the reactor thread, several
    times for every page.
    """

    __getattribute__ = object.__getattribute__
