"""scrapy-playwright's download handler as the crawl runs it: Playwright started at the first request to render,
a render cut short after ``RENDER_TIMEOUT``, the browser through the crawl's proxy, failures logged in one line.

Imported only when a request first asks to render (:class:`journals.downloadermiddlewares.playwright_handler.
LazyPlaywrightDownloadHandler`): importing scrapy-playwright imports Playwright, a large part of a short crawl's
start-up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING
from urllib.request import getproxies

from scrapy.crawler import Crawler
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from journals.downloadermiddlewares.rendering import browser_proxy

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

logger = logging.getLogger(__name__)


class OneLineFailures(logging.Filter):
    """Drops the traceback scrapy-playwright attaches to "Closing page due to failed request": a page the browser
    fails on (a redirect loop, a reset connection) is an expected event of the web, which
    :class:`journals.downloadermiddlewares.rendering.RenderingMiddleware` logs in one line and answers by fetching
    the page as served."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, without its traceback when it is a failed page's."""
        if record.levelno <= logging.WARNING and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True


_ONE_LINE_FAILURES = OneLineFailures()


class PlaywrightBrowserHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler, its browser started at the first request to render.

    - Playwright starts when a request first asks to render, not when the engine starts: a crawl that renders
      nothing starts neither Playwright's driver process nor a browser.
    - A page is given ``RENDER_TIMEOUT`` seconds in all, then fails with :class:`TimeoutError` (and is fetched as
      served, :class:`journals.downloadermiddlewares.rendering.RenderingMiddleware`): Playwright answers nothing to
      a page created while the browser dies, and scrapy-playwright would wait for it forever. The page of a render
      cut short may stay open until its browser closes.
    - A page the browser fails on is logged by scrapy-playwright without its traceback (:class:`OneLineFailures`).
    - The browser goes through the proxy Scrapy's requests go through (``https_proxy``/``http_proxy``, read by
      ``HttpProxyMiddleware``), unless ``PLAYWRIGHT_LAUNCH_OPTIONS`` names one: scrapy-playwright leaves the
      browser on direct connections, so a crawl behind a proxy (or replayed through one) would render nothing.
    """

    def __init__(self, crawler: Crawler) -> None:
        """The handler; Playwright is started by :meth:`download_request` when first needed."""
        super().__init__(crawler)
        logging.getLogger("scrapy-playwright").addFilter(_ONE_LINE_FAILURES)  # a set: added once whatever the calls
        options = self.config.launch_options
        proxy = browser_proxy(getproxies()) if crawler.settings.getbool("HTTPPROXY_ENABLED") else None
        if proxy is not None and "proxy" not in options:
            self.config.launch_options = {**options, "proxy": proxy}
            logger.info("The browser goes through the proxy %s, as Scrapy's requests do", proxy["server"])
        self.render_timeout = crawler.settings.getfloat("RENDER_TIMEOUT")
        self._started = False
        self._closed = False
        self._start_lock = asyncio.Lock()

    async def close(self) -> None:
        """Close the browser and its HTTP connections, once."""
        if not self._closed:
            self._closed = True
            await super().close()

    async def _maybe_launch_in_thread(self) -> None:
        """Start nothing when the engine starts (the base class starts Playwright here)."""

    async def download_request(self, request: Request) -> Response:
        """Download ``request``; Playwright is started first when it is the crawl's first request to render, and a
        render is cut short after ``RENDER_TIMEOUT`` seconds."""
        if not request.meta.get("playwright"):
            return await super().download_request(request)
        deadline = asyncio.timeout(self.render_timeout)
        try:
            async with deadline:
                if not self._started:
                    async with self._start_lock:
                        if not self._started:
                            await self._launch()
                            self._started = True
                return await super().download_request(request)
        except TimeoutError:
            if not deadline.expired():
                raise
            raise TimeoutError(f"Rendering {request.url} took longer than {self.render_timeout:g} seconds") from None
