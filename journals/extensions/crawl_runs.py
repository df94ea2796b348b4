"""Record every finished crawl's Scrapy stats in the ``crawl_runs`` table of ``DATABASE_URL``.

``scrapy report`` shows the last one. Under scrapyd the row names its job (``scrapyd/job``: the ``_job`` spider
argument scrapyd passes, or the ``SCRAPY_JOB`` of older scrapyds), so ``scrapy jobs`` can tell a finished job that
failed its health check from a healthy one. Setting: ``CRAWL_RUNS_ENABLED`` (default True). A database that cannot
be reached is logged as a warning: the stats are a record of the crawl, never a reason to fail it.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread
from sqlalchemy.exc import SQLAlchemyError

from journals.extensions.database import crawl_database
from journals.store import DatabaseError, database_url
from journals.store.crawl_runs import record_run

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

JOB_STAT = "scrapyd/job"
"""The stat naming the scrapyd job a crawl ran as."""


class CrawlRunsExtension:
    """On ``spider_closed``, write the crawl's stats as one ``crawl_runs`` row (in a worker thread)."""

    def __init__(self, crawler: Crawler) -> None:
        """Record the crawl of ``crawler`` in its database (:func:`journals.extensions.database.crawl_database`)."""
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlRunsExtension:
        """Off when ``CRAWL_RUNS_ENABLED`` is false or no database is configured."""
        if not crawler.settings.getbool("CRAWL_RUNS_ENABLED"):
            raise NotConfigured
        try:
            database_url(crawler.settings)
        except DatabaseError as exc:
            raise NotConfigured(str(exc)) from None
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    async def spider_closed(self, spider: Any, reason: str) -> None:
        """Store the stats; Scrapy's core stats (finish time and reason) are already set by then."""
        assert self.crawler.stats is not None
        stats = {**self.crawler.stats.get_stats(), "finish_reason": reason}
        if job := getattr(spider, "_job", None) or os.environ.get("SCRAPY_JOB"):
            stats[JOB_STAT] = job
        try:
            await run_in_thread(record_run, crawl_database(self.crawler).engine, spider.name, stats)
        except (DatabaseError, SQLAlchemyError) as exc:
            logger.warning("Crawl stats not recorded in crawl_runs: %s", exc)
