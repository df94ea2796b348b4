"""Show a crawl's progress per source: a live block of lines on a terminal, periodic log lines otherwise.

Under scrapyd (``SCRAPY_JOB`` set) it stays off: scrapyd keeps the log and the stats already.
Settings: ``PROGRESS_ENABLED`` (default True), ``PROGRESS_INTERVAL`` seconds (default 2 on a terminal, 30 in logs).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

from journals.crawl_progress import ProgressBoard
from journals.items import JournalItem

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

UNCHANGED_DROP = "unchanged since the last crawl"
"""How the store pipeline's drop of a journal a re-crawl found unchanged begins (:mod:`journals.pipelines.store`)."""
LIVE_INTERVAL = 2.0
"""Seconds between redraws on a terminal when ``PROGRESS_INTERVAL`` is unset."""
LOGGED_INTERVAL = 30.0
"""Seconds between progress lines in a log when ``PROGRESS_INTERVAL`` is unset."""


class ProgressExtension:
    """Feed a :class:`ProgressBoard` from signals and show it every ``interval`` seconds."""

    def __init__(self, crawler: Crawler, stream: TextIO, interval: float, live: bool) -> None:
        self.crawler = crawler
        self.stream = stream
        self.interval = interval
        self.live = live
        self.board = ProgressBoard()
        self.task: Any = None
        self._shown_lines = 0
        self._last_render = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProgressExtension:
        """Off under scrapyd or when ``PROGRESS_ENABLED`` is false; live only when stderr is a terminal."""
        settings = crawler.settings
        if not settings.getbool("PROGRESS_ENABLED") or os.environ.get("SCRAPY_JOB"):
            raise NotConfigured
        live = sys.stderr.isatty()
        if settings.get("PROGRESS_INTERVAL") is None:  # unset: a terminal is redrawn often, a log written seldom
            interval = LIVE_INTERVAL if live else LOGGED_INTERVAL
        else:
            interval = settings.getfloat("PROGRESS_INTERVAL")
        extension = cls(crawler, sys.stderr, interval, live)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Any) -> None:
        """Start showing progress."""
        self.task = create_looping_call(self.show)
        self.task.start(self.interval, now=False)

    def spider_closed(self, spider: Any, reason: str) -> None:
        """Show the final state once and stop."""
        if self.task is not None and self.task.running:
            self.task.stop()
        self.show()

    def response_received(self, response: Any, request: Any, spider: Any) -> None:
        """Count a page for its source; listing pages (``parse_listing``) mark their letter."""
        source = request.meta.get("source")
        if source:
            callback = getattr(request.callback, "__name__", "")
            self.board.page(source, request.meta.get("letter"), listing=callback == "parse_listing")

    def item_scraped(self, item: Any, response: Any, spider: Any) -> None:
        """Count a journal for its source."""
        if isinstance(item, JournalItem):
            self.board.source(item.source).journals += 1

    def item_dropped(self, item: Any, response: Any, exception: BaseException, spider: Any) -> None:
        """Count a journal a re-crawl found unchanged for its source, as found and as unchanged: the store drops it
        from the feeds (:data:`UNCHANGED_DROP`), its rows only re-confirmed. Scrapy hands over the item as the
        spider yielded it (the journal's pages), which names its source."""
        source = getattr(item, "source", None)
        if isinstance(source, str) and str(exception).startswith(UNCHANGED_DROP):
            progress = self.board.source(source)
            progress.journals += 1
            progress.unchanged += 1

    def show(self) -> None:
        """Redraw the block on a terminal, or log one line per source."""
        stats = self.crawler.stats
        for name, progress in self.board.sources.items():
            progress.errors = stats.get_value(f"journals/failed_pages_by_source/{name}", 0) if stats else 0
        now = time.monotonic()
        lines = self.board.lines(now - self._last_render)
        self._last_render = now
        if not self.live:
            for line in lines:
                logger.info("Progress: %s", line)
            return
        if self._shown_lines:
            self.stream.write(f"\x1b[{self._shown_lines}F\x1b[J")
        self.stream.write("".join(f"{line}\n" for line in lines))
        self.stream.flush()
        self._shown_lines = len(lines)
