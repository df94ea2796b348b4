"""Scrapy's redirects, two ways changed: a loop is stopped where it is seen, and a meta refresh is read where the page
is parsed.

Scrapy's ``RedirectMiddleware`` follows a loop (``/a`` → ``/a/`` → ``/a``) until the duplicate filter drops the
request that comes back, at DEBUG level: the journal is lost with no failed page counted and nothing above DEBUG.
:class:`RedirectLoopMiddleware` ends a loop where it is seen, with an ``IgnoreRequest`` whose reason the spider's
errback counts as a failed page (``journals/failed_pages/redirect_loop``).

Scrapy's ``MetaRefreshMiddleware`` decodes every HTML response and scans it for a ``<meta http-equiv="refresh">``,
on the reactor; the project's spiders parse every page anyway, in their analysis thread.
:class:`ParsedMetaRefreshMiddleware` leaves the responses of such a spider (a :class:`MetaRefreshSpider`) alone and
decides, as Scrapy does, on the refresh the spider read off the parsed page (:mod:`journals.pages.meta_refresh`);
any other spider's responses are scanned as Scrapy scans them.

Both set a redirect's ``Referer`` with the crawl's ``RefererMiddleware``, as Scrapy's do, also when that middleware
runs fused (:mod:`journals.spidermiddlewares.fused`), where Scrapy's own lookup would not find it.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, runtime_checkable

from scrapy import Request, Spider
from scrapy.downloadermiddlewares.redirect import BaseRedirectMiddleware, MetaRefreshMiddleware, RedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response
from scrapy.spidermiddlewares.referer import RefererMiddleware
from scrapy.utils.httpobj import urlparse_cached

from journals.pages.scope import canonical_url
from journals.spidermiddlewares.fused import spider_middleware

REDIRECT_LOOP = "redirect loop"
"""The reason of the ``IgnoreRequest`` of a redirect back to a URL its chain has passed."""

logger = logging.getLogger(__name__)


class FusedRefererRedirects(BaseRedirectMiddleware):
    """Scrapy's redirect middleware, finding the ``RefererMiddleware`` that sets a redirect's ``Referer`` among the
    fused spider middlewares too."""

    def _engine_started(self) -> None:
        """Take the crawl's ``RefererMiddleware``, fused or not; Scrapy's own lookup (and its warning that the
        ``Referer`` is dropped on redirects) when there is none."""
        self._referer_spider_middleware = spider_middleware(self.crawler, RefererMiddleware)
        if self._referer_spider_middleware is None:
            super()._engine_started()


class RedirectLoopMiddleware(FusedRefererRedirects, RedirectMiddleware):
    """``DOWNLOADER_MIDDLEWARES`` entry in place of Scrapy's ``RedirectMiddleware``: the same redirects, but one back
    to a URL the chain already passed (its canonical form) ends the chain as a redirect loop."""

    def _redirect(self, redirected: Request, request: Request, reason: Any) -> Request:
        """Scrapy's redirect, unless ``redirected`` goes back to a URL of the chain so far."""
        chain = {canonical_url(url) for url in (*request.meta.get("redirect_urls", ()), request.url)}
        if canonical_url(redirected.url) in chain:
            logger.debug("Discarding %s: it redirects back to %s", request, redirected.url)
            raise IgnoreRequest(REDIRECT_LOOP)
        return super()._redirect(redirected, request, reason)


@runtime_checkable
class MetaRefreshSpider(Protocol):
    """A spider that reads each page's meta refresh off its parsed tree and asks
    :meth:`ParsedMetaRefreshMiddleware.refresh_request` whether to follow it (the project's spiders)."""

    reads_meta_refresh: bool
    """True: the spider reads meta refreshes itself."""


class ParsedMetaRefreshMiddleware(FusedRefererRedirects, MetaRefreshMiddleware):
    """``DOWNLOADER_MIDDLEWARES`` entry in place of Scrapy's ``MetaRefreshMiddleware``; see the module's docstring.

    Its settings are Scrapy's: ``METAREFRESH_ENABLED``, ``METAREFRESH_MAXDELAY``, ``METAREFRESH_IGNORE_TAGS``,
    ``REDIRECT_MAX_TIMES``, ``REDIRECT_PRIORITY_ADJUST``."""

    _judged_spider: object = None
    _spider_reads: bool = False

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Request | Response:
        """A :class:`MetaRefreshSpider`'s response as it came (the spider reads its refresh); any other's as Scrapy
        handles it."""
        if self._spider_reads_refresh():
            return response
        return super().process_response(request, response)

    def _spider_reads_refresh(self) -> bool:
        """Whether the crawl's spider reads meta refreshes itself; judged once per spider (a runtime protocol check
        costs tens of microseconds, and every response asks it)."""
        spider = self.crawler.spider
        if spider is not self._judged_spider:
            self._judged_spider = spider
            self._spider_reads = isinstance(spider, MetaRefreshSpider) and spider.reads_meta_refresh
        return self._spider_reads

    def refresh_request(self, response: Response, seconds: float, url: str) -> Request | None:
        """The request following the refresh to ``url`` after ``seconds`` that ``response``'s page declares, as Scrapy
        makes it (a GET of its request, carrying its meta, its redirect chain one longer); None when Scrapy would
        not follow it (``dont_redirect``, a ``HEAD`` request, no HTML, not http(s), ``METAREFRESH_MAXDELAY`` or
        more). ``IgnoreRequest`` past ``REDIRECT_MAX_TIMES``. Where it may go is judged as it is downloaded, as for
        every request (:class:`~journals.downloadermiddlewares.offsite.ScopeMiddleware`)."""
        request = response.request
        if (
            request is None
            or request.meta.get("dont_redirect", False)
            or request.method == "HEAD"
            or not isinstance(response, HtmlResponse)
            or urlparse_cached(request).scheme not in {"http", "https"}
        ):
            return None
        redirected = self._redirect_request_using_get(request, response, url)
        if urlparse_cached(redirected).scheme not in {"http", "https"} or seconds >= self._maxdelay:
            return None
        return self._redirect(redirected, request, "meta refresh")
