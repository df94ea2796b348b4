"""A host nobody answers for fails in seconds, not after every retry of every request at the full download timeout.

Scrapy meets a dead host request by request: its robots.txt is tried ``RETRY_TIMES + 1`` times, each try waiting up
to ``DOWNLOAD_TIMEOUT`` (30 s) for a connection that never comes, so a start URL on a machine that is down was
reported after some four minutes. :class:`FirstContactMiddleware` settles whether a host is there before its first
download:

- a host never contacted yet is first probed with a bare TCP connection, within ``FIRST_CONTACT_TIMEOUT`` seconds
  (a live machine completes the handshake in its kernel, however slow its web server is). A probe that fails (DNS
  lookup failed, connection refused, no answer to the handshake) fails every request to that host at once with
  the probe's error, unretried: its robots.txt is then unreachable, which RFC 9309 reads as "crawl nothing"
  (:mod:`journals.downloadermiddlewares.robotstxt`), and the crawl's health check names the cause;
- a host that took the connection but has never answered a request, and lets its first request time out, is not
  retried either: RFC 9309 reads a robots.txt that timed out as unreachable, and the retries would only wait
  ``RETRY_TIMES`` more timeouts for the same silence. Once a host has answered anything, its timeouts are retried
  as usual, and a slow host that answers within ``DOWNLOAD_TIMEOUT`` is never affected.

Placed after the page cache (a replayed page needs no host) and the proxy middleware: a request through a proxy is
not probed (the proxy, not the host, is what the crawl connects to). Counted in ``first_contact/*``.
"""

from __future__ import annotations

import copy
import functools
import logging
from typing import TYPE_CHECKING
from urllib.parse import SplitResult

from scrapy.exceptions import DownloadTimeoutError
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import HostnameEndpoint
from twisted.internet.error import TimeoutError as TwistedTimeoutError
from twisted.internet.protocol import Factory, Protocol
from twisted.python.failure import Failure

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response

logger = logging.getLogger(__name__)

PROBED_SCHEMES = {"http": 80, "https": 443}
"""The schemes whose host is probed, with their default ports."""
SILENCE_ERRORS: tuple[type[Exception], ...] = (DownloadTimeoutError, TwistedTimeoutError)
"""What a request to a host that took the connection and never answered fails with."""


class FirstContactMiddleware:
    """Probe each host before its first download; fail the requests of a host that is not there at once, and do
    not retry a silent host's first timeout (module docstring)."""

    def __init__(self, crawler: Crawler, timeout: float) -> None:
        self.crawler = crawler
        self.timeout = timeout
        self.probes: dict[tuple[str, int], Deferred[Exception | None]] = {}
        """Each host's probe, by (host, port), while it runs."""
        self.unreachable: dict[tuple[str, int], Exception] = {}
        """Why each host whose probe failed is not there."""
        self.connected: set[tuple[str, int]] = set()
        """The hosts that took the probe's connection."""
        self.answered: set[tuple[str, int]] = set()
        """The hosts that answered a request."""
        self.silent: set[tuple[str, int]] = set()
        """The hosts that took the connection and let their first request time out."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FirstContactMiddleware:
        """The middleware of a crawl, probing within ``FIRST_CONTACT_TIMEOUT`` seconds."""
        return cls(crawler, crawler.settings.getfloat("FIRST_CONTACT_TIMEOUT"))

    async def process_request(self, request: Request, spider: object = None) -> None:
        """Let the request go once its host is known to be there; raise the probe's error, unretried, when not."""
        host = _host(request)
        if host is None or host in self.connected or host in self.answered or request.meta.get("proxy"):
            return
        if host not in self.unreachable:
            probe = self.probes.get(host)
            if probe is None:
                probe = self.probes[host] = self._probe(host)
            waiting: Deferred[Exception | None] = Deferred()
            probe.addCallback(_relay, waiting)
            await maybe_deferred_to_future(waiting)
        error = self.unreachable.get(host)
        if error is not None:
            request.meta["dont_retry"] = True
            self.crawler.stats.inc_value("first_contact/refused_requests")
            raise copy.copy(error).with_traceback(None)

    def process_response(self, request: Request, response: Response, spider: object = None) -> Response:
        """A host that answered is there: its timeouts are retried as usual from now on."""
        if (host := _host(request)) is not None:
            self.answered.add(host)
        return response

    def process_exception(self, request: Request, exception: Exception, spider: object = None) -> None:
        """A host that never answered a request and lets one time out is not waited for again."""
        host = _host(request)
        if host is not None and host in self.unreachable:
            request.meta["dont_retry"] = True  # an earlier middleware raised the probe's error again
            return
        if host is None or not isinstance(exception, SILENCE_ERRORS):
            return
        if host in self.answered:
            return
        request.meta["dont_retry"] = True
        if host not in self.silent:
            self.silent.add(host)
            self.crawler.stats.inc_value("first_contact/silent_hosts")
            logger.warning(
                "%s:%d took the connection but did not answer (%s): not retried",
                *host,
                str(exception).splitlines()[0][:200],
                extra={"spider": self.crawler.spider},
            )

    def _probe(self, host: tuple[str, int]) -> Deferred[Exception | None]:
        """Connect to ``host`` and hang up at once; the Deferred fires with the error, or None."""
        endpoint = HostnameEndpoint(reactor, host[0].encode("idna"), host[1], timeout=self.timeout)
        connecting = endpoint.connect(Factory.forProtocol(Protocol))
        self.crawler.stats.inc_value("first_contact/probes")

        def connected(protocol: Protocol) -> None:
            del self.probes[host]
            self.connected.add(host)
            if protocol.transport is not None:
                protocol.transport.loseConnection()

        def failed(failure: Failure) -> Exception:
            del self.probes[host]
            error = failure.value
            self.unreachable[host] = error
            self.crawler.stats.inc_value("first_contact/unreachable_hosts")
            logger.warning(
                "%s:%d cannot be reached (%s): none of its pages is fetched",
                *host,
                str(error).splitlines()[0][:200],
                extra={"spider": self.crawler.spider},
            )
            return error

        return connecting.addCallbacks(connected, failed)


def _host(request: Request) -> tuple[str, int] | None:
    """(host, port) a request connects to; None for a scheme that is not probed."""
    parts = urlparse_cached(request)
    return _host_of(parts.scheme, parts.netloc)


@functools.lru_cache(maxsize=4096)
def _host_of(scheme: str, netloc: str) -> tuple[str, int] | None:
    """:func:`_host` of a URL's scheme and authority, remembered for the last few thousand: every response asks it,
    on a handful of hosts."""
    default_port = PROBED_SCHEMES.get(scheme)
    parts = SplitResult(scheme, netloc, "", "", "")
    if default_port is None or not parts.hostname:
        return None
    try:
        port = parts.port or default_port
    except ValueError:
        return None
    return parts.hostname, port


def _relay(result: Exception | None, waiting: Deferred[Exception | None]) -> Exception | None:
    """Hand a probe's result on to one request waiting for it, keeping it for the next."""
    waiting.callback(result)
    return result
