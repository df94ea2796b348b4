"""``scrapy crawl``, with the settings, the spider's arguments and the database checked first: a bad one is a
one-line error.

Scrapy builds the spider and the pipelines inside the crawl, where an exception becomes a traceback; spiders of
this project expose ``check_arguments`` (raising ``ValueError``) and the store raises ``DatabaseError`` with a
one-line reason, so the command can refuse both up front. The database it opens for that check is the crawl's own
(:func:`journals.extensions.database.hand_over`): the crawl does not open a second one.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import inspect
from collections.abc import Mapping
from typing import Any

from scrapy import Spider
from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from sqlalchemy import Engine

from journals.exporters import feed_path_problem, local_feed_path
from journals.extensions.database import hand_over
from journals.extensions.interruption import INTERRUPTED_EXIT_CODE, INTERRUPTED_STATS
from journals.settings_check import settings_problems
from journals.store import DatabaseError, database_url, open_database

HEALTH_FAILED_EXIT_CODE = 3
"""Exit status of a crawl that ran to its end but failed its health check (:mod:`journals.extensions.health`)."""


def spider_arguments(spider_class: type[Spider]) -> set[str]:
    """The ``-a`` arguments a spider takes: the named parameters of its ``__init__`` and its ancestors'."""
    names: set[str] = set()
    for klass in spider_class.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        parameters = inspect.signature(init).parameters.values()
        names |= {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names - {"self"}


def unknown_argument(spider_class: type[Spider], arguments: Mapping[str, str]) -> str | None:
    """Why an ``-a`` argument is not the spider's (a misspelt ``-a rendr=never`` would otherwise be silently
    ignored: Scrapy sets any argument as an attribute); None when all are. Arguments starting with ``_`` are
    scrapyd's (``_job``) and always accepted; so is a class attribute an argument overrides."""
    known = spider_arguments(spider_class)
    for name in arguments:
        if name in known or name.startswith("_") or hasattr(spider_class, name):
            continue
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown spider argument -a {name}{hint}; {spider_class.name} takes: {', '.join(sorted(known))}"
    return None


class Command(ScrapyCrawlCommand):
    """Run a spider, after checking its arguments; exit with status 3 when the crawl fails its health check, 130
    when it was interrupted (Ctrl-C)."""

    crawler: Crawler | None = None
    database: tuple[str, Engine] | None = None
    """The database opened for the check, with its URL, until handed to the crawler."""

    def long_desc(self) -> str:
        """The help text: what the project's spiders take as ``-a`` arguments and what the exit statuses mean."""
        return (
            "Run a spider of the current project, by name: publisher (any site: -a start_url=URL or "
            "-a start_urls=URL1,URL2) or a real publisher's (elsevier, wiley…). Spider arguments: start_url, "
            "start_urls, source (names the source of a single start URL), render (auto, browser or never: which "
            "pages are rendered in Chromium); any other is refused. Exit status: 0 finished, 3 failed its health "
            "check, 130 interrupted (the previous -O feeds are kept)."
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Check the project's settings, ``-a`` arguments with the spider's ``check_arguments``, that every local
        feed file can be written and that the database can be reached, then crawl."""
        problem = next(settings_problems(self.settings), None)
        if problem is not None:
            raise UsageError(problem, print_help=False)
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spider_class = self.crawler_process.spider_loader.load(args[0])
            except KeyError as error:
                raise UsageError(f"no spider named {args[0]!r}", print_help=False) from error
            if (unknown := unknown_argument(spider_class, opts.spargs)) is not None:
                raise UsageError(unknown, print_help=False)
            check = getattr(spider_class, "check_arguments", None)
            if check is not None:
                try:
                    check(**opts.spargs)
                except ValueError as error:
                    raise UsageError(str(error), print_help=False) from error
        for uri in self.settings.getdict("FEEDS"):
            path = local_feed_path(str(uri))
            if path is not None and (problem := feed_path_problem(path)) is not None:
                raise UsageError(f"cannot write the feed {uri}: {problem}", print_help=False)
        try:
            url = database_url(self.settings)
            self.database = (url, open_database(url))
        except DatabaseError as error:
            raise UsageError(str(error), print_help=False) from error
        _import_http_handler()
        super().run(args, opts)
        if self._stat(INTERRUPTED_STATS):
            self.exitcode = INTERRUPTED_EXIT_CODE
        elif self._stat("health/failed"):
            self.exitcode = HEALTH_FAILED_EXIT_CODE

    def _stat(self, name: str) -> Any:
        """A stat of the crawl; None when there was no crawl or it failed before its stats existed."""
        if self.crawler is None:
            return None
        try:
            return self.crawler.stats.get_value(name)
        except RuntimeError:  # Crawler.stats is set only once the crawl starts
            return None

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        """Keep the crawler (its stats say, after the crawl, whether it passed its health check) and hand it the
        database opened for the check."""
        self.crawler = super()._create_crawler(spidercls)
        if self.database is not None:
            hand_over(self.crawler, *self.database)
            self.database = None
        return self.crawler


HTTP_HANDLER_MODULE = "scrapy.core.downloader.handlers.http11"
"""Scrapy's HTTP/1.1 download handler, whose TLS context factory module builds a deprecated alias at import with
``inspect.stack()``."""


def _import_http_handler() -> None:
    """Import Scrapy's HTTP/1.1 handler before the crawl, from a shallow stack.

    Every crawl imports it (the download handler wraps it, and ``RETRY_EXCEPTIONS`` names its ``TunnelError``).
    The ``inspect.stack()`` of its import reads the source of every frame above it: deep in the engine's
    construction that is three to four times the cost of importing it here, and every crawl, a replay included,
    pays it at start.
    """
    importlib.import_module(HTTP_HANDLER_MODULE)
