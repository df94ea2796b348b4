"""``scrapy crawl``, with the settings, the spider's arguments and the database checked first: a bad one is a
one-line error.

Scrapy builds the spider and the pipelines inside the crawl, where an exception becomes a traceback; spiders of
this project expose ``check_arguments`` (raising ``ValueError``) and the store raises ``DatabaseError`` with a
one-line reason, so the command can refuse both up front. The database it opens for that check is the crawl's own
(:func:`journals.extensions.database.hand_over`): the crawl does not open a second one.
"""

from __future__ import annotations

import argparse

from scrapy import Spider
from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from sqlalchemy import Engine

from journals.extensions.database import hand_over
from journals.extensions.interruption import INTERRUPTED_EXIT_CODE, INTERRUPTED_STATS
from journals.settings_check import settings_problems
from journals.store import DatabaseError, database_url, open_database

HEALTH_FAILED_EXIT_CODE = 3
"""Exit status of a crawl that ran to its end but failed its health check (:mod:`journals.extensions.health`)."""


class Command(ScrapyCrawlCommand):
    """Run a spider, after checking its arguments; exit with status 3 when the crawl fails its health check, 130
    when it was interrupted (Ctrl-C)."""

    crawler: Crawler | None = None
    database: tuple[str, Engine] | None = None
    """The database opened for the check, with its URL, until handed to the crawler."""

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Check the project's settings, ``-a`` arguments with the spider's ``check_arguments`` and reach the
        database, then crawl."""
        problem = next(settings_problems(self.settings), None)
        if problem is not None:
            raise UsageError(problem, print_help=False)
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spider_class = self.crawler_process.spider_loader.load(args[0])
            except KeyError as error:
                raise UsageError(f"no spider named {args[0]!r}", print_help=False) from error
            check = getattr(spider_class, "check_arguments", None)
            if check is not None:
                try:
                    check(**opts.spargs)
                except ValueError as error:
                    raise UsageError(str(error), print_help=False) from error
        try:
            url = database_url(self.settings)
            self.database = (url, open_database(url))
        except DatabaseError as error:
            raise UsageError(str(error), print_help=False) from error
        super().run(args, opts)
        if self.crawler is not None and self.crawler.stats.get_value(INTERRUPTED_STATS):
            self.exitcode = INTERRUPTED_EXIT_CODE
        elif self.crawler is not None and self.crawler.stats.get_value("health/failed"):
            self.exitcode = HEALTH_FAILED_EXIT_CODE

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        """Keep the crawler (its stats say, after the crawl, whether it passed its health check) and hand it the
        database opened for the check."""
        self.crawler = super()._create_crawler(spidercls)
        if self.database is not None:
            hand_over(self.crawler, *self.database)
            self.database = None
        return self.crawler
