"""The crawl's download handler of ``http`` and ``https``: Scrapy's own for a page fetched as served,
scrapy-playwright's (:class:`journals.downloadermiddlewares.playwright_browser.PlaywrightBrowserHandler`) made at the
first request to render.

Apart from :mod:`journals.downloadermiddlewares.rendering`, and importing neither scrapy-playwright nor Playwright
until a page is rendered: Scrapy imports every download handler's module when the crawl starts, and a crawl that
renders nothing (most of them, and every replay) would pay for importing Playwright.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Self

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.crawler import Crawler
from scrapy.utils.misc import build_from_crawler

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

    from journals.downloadermiddlewares.playwright_browser import PlaywrightBrowserHandler

_HANDLERS: weakref.WeakKeyDictionary[Crawler, LazyPlaywrightDownloadHandler] = weakref.WeakKeyDictionary()
"""Each crawl's one handler, whatever the scheme."""


class LazyPlaywrightDownloadHandler:
    """One handler per crawl, shared by ``http`` and ``https`` (so a crawl has one browser, not one per scheme):
    a request whose meta has ``playwright`` goes to the browser, made and started at the first such request; any
    other to Scrapy's HTTP/1.1 handler."""

    lazy = True
    """Made at the first request of its scheme (Scrapy's default, said out loud)."""

    def __init__(self, crawler: Crawler) -> None:
        """Scrapy's HTTP handler now; the browser's at the first request to render."""
        self._crawler = crawler
        self._served = build_from_crawler(HTTP11DownloadHandler, crawler)
        self._browser: PlaywrightBrowserHandler | None = None
        self._closed = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The crawl's one handler: made at the first call, returned again for the other scheme."""
        handler = _HANDLERS.get(crawler)
        if handler is None:
            handler = _HANDLERS[crawler] = cls(crawler)
        return handler  # type: ignore[return-value]

    async def download_request(self, request: Request) -> Response:
        """Download ``request``: rendered in the browser when its meta asks for it, else as served."""
        if not request.meta.get("playwright"):
            return await self._served.download_request(request)
        if self._browser is None:
            # Imported here: importing it imports Playwright.
            from journals.downloadermiddlewares.playwright_browser import PlaywrightBrowserHandler

            self._browser = PlaywrightBrowserHandler(self._crawler)
        return await self._browser.download_request(request)

    async def close(self) -> None:
        """Close the browser, if one was started, and the HTTP connections, once (Scrapy closes the handler of
        each scheme)."""
        if self._closed:
            return
        self._closed = True
        if self._browser is not None:
            await self._browser.close()
        await self._served.close()
