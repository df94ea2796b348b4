"""robots.txt read as RFC 9309 says, on Scrapy's own :class:`RobotsTxtMiddleware` and Protego.

Scrapy treats a robots.txt it could not read as no robots.txt at all: a site whose robots.txt answers 503, never
answers, or is larger than ``DOWNLOAD_MAXSIZE`` (even one whose first rule is ``Disallow: /``) is crawled whole.
RFC 9309 reads it the other way round, and so does this module:

- a robots.txt that answers 2xx is obeyed; past ``ROBOTSTXT_MAX_BYTES`` (as much as Google reads) only its first
  ``ROBOTSTXT_MAX_BYTES`` are read, up to the last full line, whatever the download cap, and a gzipped one is
  decompressed only that far (``robotstxt/truncated``);
- 4xx (but 429) means there is no robots.txt: everything may be crawled (``robotstxt/unavailable``);
- 429, 5xx, a network error or a timeout means the host is unreachable: nothing of it may be crawled
  (``robotstxt/unreachable``).

Each case is logged once per host, in one line (no traceback). A robots.txt the crawl refused to fetch (the scope
middleware refusing a redirect to another site) is the one unread robots.txt still taken as allowing all: RFC
9309 leaves a crawler that cannot follow a robots.txt's redirects to treat it as unavailable.
"""

from __future__ import annotations

import copy
import logging
import zlib
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest, StopDownload
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)

ROBOTS_META = "journals_robots_txt"
"""Meta key marking the robots.txt requests of :class:`RobotsRulesMiddleware`."""
TRUNCATED_FLAG = "robots.txt truncated"
"""Response flag of a robots.txt cut at ``ROBOTSTXT_MAX_BYTES``."""
DEFAULT_MAX_BYTES = 500 * 1024
DISALLOW_ALL = b"User-agent: *\nDisallow: /\n"


def robots_verdict(status: int) -> str:
    """What an HTTP status of robots.txt means under RFC 9309: ``read``, ``unavailable`` (allow all) or
    ``unreachable`` (disallow all). A 3xx left after the redirects were followed counts as unavailable."""
    if status == 429 or status >= 500:
        return "unreachable"
    if status >= 300:
        return "unavailable"
    return "read"


def first_lines(body: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes of a robots.txt, cut after its last full line; the body itself when shorter."""
    if len(body) <= limit:
        return body
    head = body[:limit]
    end = head.rfind(b"\n")
    return head[: end + 1] if end >= 0 else head


def decompressed_prefix(body: bytes, encoding: bytes, limit: int) -> bytes | None:
    """The first ``limit`` bytes of a gzip or deflate body (a bomb is never decompressed further, a truncated one
    gives what it holds); None for another encoding."""
    if encoding in (b"gzip", b"x-gzip"):
        decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == b"deflate":
        decompressor = zlib.decompressobj(zlib.MAX_WBITS if body[:1] == b"\x78" else -zlib.MAX_WBITS)
    else:
        return None
    try:
        return decompressor.decompress(body, limit + 1)
    except zlib.error:
        return b""


class RobotsRulesMiddleware(RobotsTxtMiddleware):
    """Scrapy's robots.txt middleware with RFC 9309's reading of a robots.txt that cannot be read (module
    docstring). Its robots.txt requests download at most ``ROBOTSTXT_MAX_BYTES`` (a stop, not a failure);
    :class:`RobotsBodyMiddleware` cuts and decompresses their bodies to that size."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._max_bytes = crawler.settings.getint("ROBOTSTXT_MAX_BYTES")
        self._received: WeakKeyDictionary[Request, int] = WeakKeyDictionary()
        self._fetch_errors: dict[str, Exception] = {}
        """Why each host whose robots.txt could not be fetched is unreachable, by ``host:port``."""
        crawler.signals.connect(self._bytes_received, signal=signals.bytes_received)

    def _bytes_received(self, data: bytes, request: Request, **kwargs: Any) -> None:
        """Stop a robots.txt download once ``ROBOTSTXT_MAX_BYTES`` have arrived, keeping what arrived."""
        if not request.meta.get(ROBOTS_META):
            return
        received = self._received.get(request, 0) + len(data)
        self._received[request] = received
        if received > self._max_bytes:
            raise StopDownload(fail=False)

    async def robot_parser(self, request: Request) -> RobotParser | None:
        """The parser of the request's host, fetching its robots.txt first (once per host)."""
        url = urlparse_cached(request)
        netloc = url.netloc.rpartition("@")[2]  # never a user name or password in the robots.txt URL
        if netloc not in self._parsers:
            self._parsers[netloc] = Deferred()
            robots_request = Request(
                f"{url.scheme}://{netloc}/robots.txt",
                priority=self.DOWNLOAD_PRIORITY,
                # No download cap: the download stops at ROBOTSTXT_MAX_BYTES (_bytes_received) and keeps them.
                meta={"dont_obey_robotstxt": True, ROBOTS_META: True, "download_maxsize": 0, "download_warnsize": 0},
                headers={"Accept-Encoding": "gzip, deflate"},
                callback=NO_CALLBACK,
            )
            try:
                response = await self.crawler.engine.download_async(robots_request)
            except Exception as exc:
                self._robots_error(exc, netloc)
            else:
                await self._parse_robots(response, netloc, request)
            self._stats.inc_value("robotstxt/request_count")
        parser = self._parsers[netloc]
        if isinstance(parser, Deferred):
            return await maybe_deferred_to_future(parser)
        return parser

    def process_request_2(self, rp: RobotParser | None, request: Request) -> None:
        """Refuse a request that robots.txt disallows; on a host whose robots.txt could not be fetched, fail it
        with the error the robots.txt request met (the crawl's health check then says "connection refused" or
        "DNS lookup failed" of a dead start page, not "forbidden by robots.txt")."""
        error = self._fetch_errors.get(urlparse_cached(request).netloc.rpartition("@")[2])
        if error is not None:
            self._stats.inc_value("robotstxt/forbidden")
            raise copy.copy(error).with_traceback(None)
        super().process_request_2(rp, request)

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        verdict = robots_verdict(response.status)
        if verdict == "unreachable":
            body = DISALLOW_ALL
            self._note(netloc, "unreachable", f"robots.txt answered {response.status}: nothing of it is crawled")
        elif verdict == "unavailable":
            body = b""
            self._stats.inc_value("robotstxt/unavailable")
        else:
            body = response.body
            if TRUNCATED_FLAG in response.flags:
                self._note(netloc, "truncated", f"robots.txt read on its first {self._max_bytes} bytes only")
        await super()._parse_robots(response.replace(body=body), netloc, request)

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        if isinstance(exc, IgnoreRequest):
            logger.info("robots.txt of %s not fetched (%s): taken as allowing all", netloc, exc)
            super()._robots_error(exc, netloc)
            return
        self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        self._note(netloc, "unreachable", f"robots.txt could not be fetched ({reason}): nothing of it is crawled")
        self._fetch_errors[netloc] = exc
        parser = build_from_crawler(self._parserimpl, self.crawler, DISALLOW_ALL)
        waiting = self._parsers[netloc]
        self._parsers[netloc] = parser
        if isinstance(waiting, Deferred):
            waiting.callback(parser)

    def _note(self, netloc: str, kind: str, message: str) -> None:
        """Count and log, in one line, what was made of a host's robots.txt."""
        self._stats.inc_value(f"robotstxt/{kind}")
        logger.warning("%s: %s", netloc, message, extra={"spider": self.crawler.spider})


class RobotsBodyMiddleware:
    """The body of a robots.txt request of :class:`RobotsRulesMiddleware`, cut to its first ``ROBOTSTXT_MAX_BYTES``
    (after its last full line) and decompressed no further, before Scrapy's ``HttpCompressionMiddleware`` would
    decompress a gzip bomb to the download cap and drop it. Placed after it in the chain (a higher number), so
    responses reach it first."""

    def __init__(self, max_bytes: int, max_size: int) -> None:
        self.max_bytes = max_bytes
        self.max_size = max_size

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsBodyMiddleware:
        """The middleware with the crawl's ``ROBOTSTXT_MAX_BYTES`` and ``DOWNLOAD_MAXSIZE``."""
        settings = crawler.settings
        return cls(settings.getint("ROBOTSTXT_MAX_BYTES"), settings.getint("DOWNLOAD_MAXSIZE"))

    def process_response(self, request: Request, response: Response, spider: object = None) -> Response:
        """Cut (and decompress) a robots.txt body; other responses pass untouched."""
        if not request.meta.get(ROBOTS_META):
            return response
        # Any other encoding is Scrapy's to decompress, within the usual cap.
        request.meta["download_maxsize"] = self.max_size
        body = response.body
        encodings = [e.strip().lower() for e in b",".join(response.headers.getlist("Content-Encoding")).split(b",")]
        encodings = [e for e in encodings if e and e != b"identity"]
        if len(encodings) == 1:
            decompressed = decompressed_prefix(body, encodings[0], self.max_bytes)
            if decompressed is not None:
                body = decompressed
                response.headers.pop(b"Content-Encoding", None)
        elif encodings:
            return response
        cut = first_lines(body, self.max_bytes)
        flags = (
            [*response.flags, TRUNCATED_FLAG] if len(cut) < len(body) or "download_stopped" in response.flags else None
        )
        return response.replace(body=cut, flags=flags) if flags or cut is not response.body else response
