"""Scrapy's offsite downloader middleware, made to judge origins and addresses: no request leaves the crawl's site.

Scrapy's :class:`~scrapy.downloadermiddlewares.offsite.OffsiteMiddleware` checks every request, redirects and
meta refreshes included, but by host name only (any port of the site's host passes), and it lets ``dont_filter``
requests through (retries, the spider's metrics hop). :class:`ScopeMiddleware` keeps its machinery (one log line
per refused origin, ``IgnoreRequest``, the ``allowed_domains`` fallback) and changes what is allowed and when:

- the spider (a :class:`ScopedSpider`: its ``request_in_scope``) decides, by scheme, host and port
  (:class:`journals.pages.scope.SiteScope`), for every request whatever its ``dont_filter``; any other spider
  (``scrapy bench``'s) gets Scrapy's own ``allowed_domains`` rule, unchanged;
- the check is made as the request is about to be downloaded (no byte is sent before it), not as it is scheduled,
  where Scrapy drops a refused request silently: the request's errback hears of it, so a metrics hop redirected off
  the site still yields its journal with the journal's own page;
- the address its host resolves to (Scrapy's own caching resolver) must be public:
  private, loopback, link-local (a cloud's metadata service) and reserved addresses are refused, unless a start
  URL is itself on one (the sandbox, an intranet mirror). A request sent through a proxy is left to the proxy.

Stats: ``scope/refused``, ``scope/refused/origin``, ``scope/refused/private_address``; each refused origin is
logged once at WARNING.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import defer
from twisted.internet.error import DNSLookupError

from journals.pages.scope import Origin, is_ip_address, is_private_address, strip_user_info

if TYPE_CHECKING:
    from scrapy import Request, Spider

logger = logging.getLogger(__name__)


@runtime_checkable
class ScopedSpider(Protocol):
    """What :class:`ScopeMiddleware` asks of a spider that keeps a scope of its own (the project's spiders)."""

    seed_urls: list[str]
    """The crawl's start URLs: a start URL on a private address lets the crawl onto private addresses."""

    def request_in_scope(self, request: Request) -> bool:
        """Whether ``request`` may be sent: it is on its source's site (or its journal's origin)."""
        ...


class ScopeMiddleware(OffsiteMiddleware):
    """``DOWNLOADER_MIDDLEWARES`` entry in place of Scrapy's offsite middleware; see the module's docstring.

    It must run after ``HttpProxyMiddleware`` (750), which says whether a request goes through a proxy.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._refused_origins: set[str] = set()
        self._private_site: bool | None = None
        self._judged_spider: object = None
        self._scoped_spider: ScopedSpider | None = None

    def _scoped(self, spider: object) -> ScopedSpider | None:
        """``spider`` when it is a :class:`ScopedSpider`, else None; judged once per spider (a runtime protocol check
        costs tens of microseconds, and every request asks it twice)."""
        if spider is not self._judged_spider:
            self._judged_spider = spider
            self._scoped_spider = spider if isinstance(spider, ScopedSpider) else None
        return self._scoped_spider

    def spider_opened(self, spider: Spider) -> None:
        """Scrapy's set-up; for a spider with a scope, no receiver of ``request_scheduled`` (it would do nothing, for
        every request of the crawl)."""
        super().spider_opened(spider)
        if self._scoped(spider) is not None:
            self.crawler.signals.disconnect(self.request_scheduled, signal=signals.request_scheduled)

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """Let every request of a spider with a scope be queued: it is judged when downloaded (see the module's
        docstring); other spiders' requests are judged as Scrapy's offsite middleware does."""
        if self._scoped(spider) is None:
            super().process_request(request)  # Scrapy's own (synchronous) check

    async def process_request(self, request: Request, spider: Spider | None = None) -> Request | None:
        """Refuse an out-of-scope request, or one whose host resolves to a private address, before download.

        A spider that is no :class:`ScopedSpider` (``scrapy bench``'s, a test's) gets Scrapy's own offsite rule and
        no address check."""
        scoped = self._scoped(self.crawler.spider)
        if scoped is None:
            super().process_request(request)
            return None
        if "@" in urlparse_cached(request).netloc:
            # A redirect to a URL carrying a user name and password: the same page without them (journals.pages.scope).
            self.stats.inc_value("scope/user_info_dropped")
            return request.replace(url=strip_user_info(urlparse_cached(request)).geturl())
        if not scoped.request_in_scope(request):
            self._refuse(request, "origin", "outside the crawl's site")
        if request.meta.get("proxy"):
            return None
        host = urlparse_cached(request).hostname or ""
        address = host if is_ip_address(host) else await _resolve(host)
        if address is None or not is_private_address(address) or await self._site_is_private():
            return None
        self._refuse(request, "private_address", f"{host} resolves to the private address {address}")

    def _refuse(self, request: Request, reason: str, why: str) -> None:
        origin = Origin.of(request.url)
        shown = str(origin) if origin is not None else request.url[:200]
        self.stats.inc_value("scope/refused")
        self.stats.inc_value(f"scope/refused/{reason}")
        if shown not in self._refused_origins:
            self._refused_origins.add(shown)
            logger.warning("Refused %s (%s): %s", shown, why, request)
        raise IgnoreRequest(f"Refused {shown}: {why}")

    async def _site_is_private(self) -> bool:
        """Whether a start URL of the spider is on a private address (resolved once)."""
        if self._private_site is None:
            spider = self._scoped(self.crawler.spider)
            seed_urls = spider.seed_urls if spider is not None else []
            hosts = {urlsplit(url).hostname for url in seed_urls}
            addresses = [host if is_ip_address(host) else await _resolve(host) for host in hosts if host]
            self._private_site = any(a is not None and is_private_address(a) for a in addresses)
        return self._private_site


async def _resolve(host: str) -> str | None:
    """The address Scrapy's resolver (``DNS_RESOLVER``, cached) gives ``host``; None when it cannot be resolved
    (the download then fails on its own, with its usual error)."""
    from twisted.internet import reactor

    try:
        return await maybe_deferred_to_future(reactor.resolve(host))
    except (DNSLookupError, TimeoutError, defer.TimeoutError):
        return None
