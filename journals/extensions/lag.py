"""Measure how long the reactor is kept from its other work: the longest gap between ticks of a short timer.

A callback that parses a wide page on the reactor thread holds every download, timeout and signal until it returns;
nothing in Scrapy's stats shows it (``LogStats`` and ``MemoryUsage`` tick rarely and say nothing of gaps), so a
timer due every ``REACTOR_LAG_INTERVAL`` seconds (default 0.05) notes how late each tick comes.

Settings: ``REACTOR_LAG_ENABLED`` (default False: a measurement, not a production feature), ``REACTOR_LAG_INTERVAL``.
Stats: ``reactor/max_lag_seconds`` (the longest delay of a tick past its due time), ``reactor/lag_ticks`` (ticks seen)
and ``reactor/lags_over_half_second`` (ticks more than half a second late, each one logged: what a reader notices).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

LONG_LAG_SECONDS = 0.5
"""A tick later than this counts in ``reactor/lags_over_half_second``."""


class ReactorLagExtension:
    """Tick every ``interval`` seconds while the spider runs and keep the longest lateness in the stats."""

    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self.task: Any = None
        self._last = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReactorLagExtension:
        """Off unless ``REACTOR_LAG_ENABLED``."""
        if not crawler.settings.getbool("REACTOR_LAG_ENABLED"):
            raise NotConfigured
        extension = cls(crawler, crawler.settings.getfloat("REACTOR_LAG_INTERVAL"))
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Any) -> None:
        """Start ticking."""
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("reactor/max_lag_seconds", 0.0)
        self._last = time.monotonic()
        self.task = create_looping_call(self.tick)
        self.task.start(self.interval, now=False)

    def tick(self) -> None:
        """Note how late this tick is: the time since the last one, less the interval."""
        now = time.monotonic()
        lag = max(0.0, now - self._last - self.interval)
        self._last = now
        stats = self.crawler.stats
        assert stats is not None
        stats.max_value("reactor/max_lag_seconds", round(lag, 3))
        stats.inc_value("reactor/lag_ticks")
        if lag > LONG_LAG_SECONDS:
            stats.inc_value("reactor/lags_over_half_second")
            logger.info("The reactor was blocked for %.2f s", lag)

    def spider_closed(self, spider: Any, reason: str) -> None:
        """Stop ticking (a last tick counts the time since the previous one)."""
        if self.task is not None and self.task.running:
            self.task.stop()
            self.tick()
