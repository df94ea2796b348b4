"""``scrapy parse --spider=publisher URL``: Scrapy's parse command on a spider of this project.

Scrapy's command builds the spider with the ``-a`` arguments alone and sends it a bare ``Request(URL)`` to its
``parse`` callback; the project's spiders need the start URL as an argument, have no ``parse`` (each page role has
its callback) and read what a request carries (its source, its role). Here the URL is also the spider's
``start_url`` when no ``-a start_url`` is given, and the first request is the one the spider's own ``start()``
makes of it, so the start page is read as a crawl reads it (``parse_start``) and the requests and items it gives
are printed; ``--callback`` still names another callback for that first page.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, Spider
from scrapy.commands.parse import Command as ScrapyParseCommand
from scrapy.exceptions import UsageError

from journals.commands.crawl import spider_arguments


class Command(ScrapyParseCommand):
    """Scrapy's ``parse``, starting as the spider starts (module docstring)."""

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options; the crawl's health check off (the pages' output is printed, not stored: the check
        would fail a parse for finding no journal), unless the command line turns it on."""
        super().process_options(args, opts)
        assert self.settings is not None
        self.settings.set("HEALTH_ENABLED", False, priority="spider")

    def set_spidercls(self, url: str, opts: argparse.Namespace) -> None:
        """Load the spider class; give it ``URL`` as its start URL and make its first request with its own
        ``start()``."""
        own_starts = {name: cls.start for name, cls in self._spider_classes().items()}
        super().set_spidercls(url, opts)
        spidercls = getattr(self, "spidercls", None)
        if spidercls is None or "start_url" not in spider_arguments(spidercls):
            return
        if not {"start_url", "start_urls"} & set(opts.spargs):
            opts.spargs["start_url"] = url
        check = getattr(spidercls, "check_arguments", None)
        if check is not None:
            try:
                check(**opts.spargs)
            except ValueError as error:
                raise UsageError(str(error), print_help=False) from error
        own_start = own_starts[spidercls.name]
        command = self

        async def start(spider: Spider) -> AsyncIterator[Any]:
            async for output in own_start(spider):
                if not isinstance(output, Request):
                    yield output
                    continue
                # --callback names the first page's callback: the spider's own, with its arguments, gives way.
                request = output.replace(callback=None, cb_kwargs={}) if opts.callback else output
                yield command.prepare_request(spider, request, opts)

        spidercls.start = start  # type: ignore[method-assign]

    def _spider_classes(self) -> dict[str, type[Spider]]:
        """The project's spider classes by name, before Scrapy's command replaces one's ``start``."""
        assert self.crawler_process is not None
        loader = self.crawler_process.spider_loader
        return {name: loader.load(name) for name in loader.list()}
