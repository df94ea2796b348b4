"""scrapy-playwright's download handler, one per crawl and started only when a request asks to render.

Apart from :mod:`journals.browser` so that a process that never downloads (``scrapy list``, a command's argument
check) does not import Playwright: Scrapy loads a download handler at the first request of its scheme.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING

from scrapy.crawler import Crawler
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

_HANDLERS: weakref.WeakKeyDictionary[Crawler, LazyPlaywrightDownloadHandler] = weakref.WeakKeyDictionary()
"""Each crawl's one handler, whatever the scheme."""


class LazyPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler, with one browser per crawl, started at the first request to render.

    - Scrapy makes a handler per scheme; this one is shared by ``http`` and ``https``, so a crawl has one browser,
      not one per scheme.
    - Playwright starts when a request first asks to render, not when the engine starts: a crawl that renders
      nothing starts neither Playwright's driver process nor a browser.
    """

    lazy = True
    """Made at the first request of its scheme (Scrapy's default, said out loud)."""

    def __init__(self, crawler: Crawler) -> None:
        """The handler; Playwright is started by :meth:`download_request` when first needed."""
        super().__init__(crawler)
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
        """Download ``request``; Playwright is started first when it is the crawl's first request to render."""
        if request.meta.get("playwright") and not self._started:
            async with self._start_lock:
                if not self._started:
                    await self._launch()
                    self._started = True
        return await super().download_request(request)
