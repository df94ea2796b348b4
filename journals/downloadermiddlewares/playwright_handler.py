"""scrapy-playwright's download handler, one per crawl and started only when a request asks to render.

Apart from :mod:`journals.downloadermiddlewares.rendering` so that a process that never downloads (``scrapy
list``, a command's argument check) does not import Playwright: Scrapy loads a download handler at the first request
of its scheme.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING
from urllib.request import getproxies

from scrapy.crawler import Crawler
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from journals.downloadermiddlewares.rendering import browser_proxy

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

logger = logging.getLogger(__name__)
_HANDLERS: weakref.WeakKeyDictionary[Crawler, LazyPlaywrightDownloadHandler] = weakref.WeakKeyDictionary()
"""Each crawl's one handler, whatever the scheme."""


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


class LazyPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler, with one browser per crawl, started at the first request to render.

    - Scrapy makes a handler per scheme; this one is shared by ``http`` and ``https``, so a crawl has one browser,
      not one per scheme.
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

    lazy = True
    """Made at the first request of its scheme (Scrapy's default, said out loud)."""

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

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LazyPlaywrightDownloadHandler:
        """The crawl's one handler: made at the first call, returned again for the other scheme."""
        handler = _HANDLERS.get(crawler)
        if handler is None:
            handler = _HANDLERS[crawler] = cls(crawler)
        return handler

    async def close(self) -> None:
        """Close the browser and the HTTP connections once (Scrapy closes the handler of each scheme)."""
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
