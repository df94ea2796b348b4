"""A host that says "too many requests" is slowed down, and the page it refused is fetched later, not lost.

Scrapy 2.19 has nothing for this. Its ``RetryMiddleware`` retries a 429 at once, ignoring ``Retry-After``, so a
rate-limited page spends its ``RETRY_TIMES`` within milliseconds and is lost; ``AutoThrottle`` adjusts a host's
delay from the latency of its answers only, never raises it for a 429 or a 503 (error pages are small and fast,
which it reads as a fast server), and lowers it again at the next quick 200. So a site limited to a few requests a
second loses most of its journals, with or without AutoThrottle.

:class:`RateLimitMiddleware` replaces ``RetryMiddleware`` (same settings, same retries for every other case) and,
for a 429, or a 503 with a ``Retry-After`` header:

- raises the delay of the request's download slot (one per host: ``crawler.engine.downloader.slots``, the delay
  AutoThrottle adjusts too) to the ``Retry-After`` seconds (a number or an HTTP date, at most
  ``RATE_LIMIT_MAX_DELAY``), or, without the header, doubles it from ``RATE_LIMIT_START_DELAY``; the slot's next
  request then leaves no sooner than that delay after the refusal;
- retries the request through the scheduler, on a budget of its own (``RATE_LIMIT_RETRY_TIMES``), so waiting for a
  busy host does not use up the retries kept for broken pages;
- lowers the host's delay again gradually, by ``RATE_LIMIT_DECAY`` at each answer that is not a refusal, down to
  the slot's own delay (``DOWNLOAD_DELAY``, or AutoThrottle's), which it never holds under the raised floor.

Counted in ``ratelimit/*`` stats; each host slowed down is logged in one line the first time.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.utils.response import response_status_message

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response

logger = logging.getLogger(__name__)

RETRIES_META = "rate_limit_retry_times"
"""Meta key: how many times a request was refused for its rate and retried."""


def retry_after_seconds(value: str | bytes | None, now: datetime | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait (delay-seconds or an HTTP date), None when absent or
    unreadable; never negative."""
    if value is None:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class RateLimitMiddleware(RetryMiddleware):
    """``RetryMiddleware`` that backs off a host refusing requests for their rate (module docstring)."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler.settings)
        self.crawler = crawler
        settings = crawler.settings
        self.max_delay = settings.getfloat("RATE_LIMIT_MAX_DELAY")
        self.start_delay = settings.getfloat("RATE_LIMIT_START_DELAY")
        self.decay = settings.getfloat("RATE_LIMIT_DECAY")
        self.rate_retry_times = settings.getint("RATE_LIMIT_RETRY_TIMES")
        self.base_delay = settings.getfloat("DOWNLOAD_DELAY")
        self.floors: dict[str, float] = {}
        """The raised delay of each slot being backed off, by slot key."""
        self._backed_off_at: dict[str, float] = {}
        self._hosts_logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RateLimitMiddleware:
        """The middleware of a crawl."""
        return cls(crawler)

    def process_response(self, request: Request, response: Response, spider: object = None) -> Request | Response:
        """Back off and retry a rate-limited answer; ease the slot's delay after any other."""
        key = request.meta.get("download_slot")
        wait = retry_after_seconds(response.headers.get(b"Retry-After"))
        if response.status == 429 or (response.status == 503 and wait is not None):
            self.crawler.stats.inc_value(f"ratelimit/responses/{response.status}")
            if key is not None:
                self._back_off(key, wait)
            if request.meta.get("dont_retry", False):
                return response
            return self._retry_later(request, response_status_message(response.status)) or response
        if key is not None:
            self._ease(key, request)
        return super().process_response(request, response)

    def _back_off(self, key: str, wait: float | None) -> None:
        """Raise the slot's delay to ``wait`` (capped), or double it; its next request waits that long from now."""
        floor = self.floors.get(key, 0.0)
        now = time.monotonic()
        if wait is not None:
            floor = max(floor, wait)
        elif now - self._backed_off_at.get(key, -floor) >= floor:
            # Doubled once per delay: the refusals of requests sent together before the last raise do not count.
            floor = max(self.start_delay, 2 * floor)
        floor = min(floor, self.max_delay)
        self.floors[key] = floor
        self._backed_off_at[key] = now
        slot = self.crawler.engine.downloader.slots.get(key)
        if slot is not None:
            slot.delay = max(slot.delay, floor)
            # The next request leaves ``floor`` seconds after the refusal at the earliest: Scrapy draws each wait
            # as delay × (1 ± jitter), so the last request's time is pushed forward by the jitter's share.
            slot.lastseen = now + floor * min(slot.jitter, 1.0)
        self.crawler.stats.max_value("ratelimit/max_delay", floor)
        if key not in self._hosts_logged:
            self._hosts_logged.add(key)
            logger.warning(
                "%s refuses requests for their rate: slowing down to one request every %.1f s, retrying later",
                key,
                floor,
                extra={"spider": self.crawler.spider},
            )

    def _ease(self, key: str, request: Request) -> None:
        """Lower a backed-off slot's delay one step; keep any higher delay set by others (AutoThrottle)."""
        floor = self.floors.get(key)
        if floor is None:
            return
        sent = time.monotonic() - request.meta.get("download_latency", 0.0)
        if sent < self._backed_off_at.get(key, 0.0):
            return  # sent before the last refusal: says nothing of the raised delay
        slot = self.crawler.engine.downloader.slots.get(key)
        eased = floor * self.decay
        if eased <= self.base_delay or eased < 0.01:
            del self.floors[key]
            eased = self.base_delay
        else:
            self.floors[key] = eased
        if slot is not None:
            # A delay other than our floor was set since (AutoThrottle): it stands, above the eased floor.
            others = slot.delay if slot.delay != floor else self.base_delay
            slot.delay = max(others, eased)

    def _retry_later(self, request: Request, reason: str) -> Request | None:
        """A copy of ``request`` for the scheduler, on the rate-limit retry budget; None once it is spent."""
        retries = request.meta.get(RETRIES_META, 0) + 1
        stats = self.crawler.stats
        if retries > self.rate_retry_times:
            stats.inc_value("ratelimit/gave_up")
            logger.error(
                "Gave up on %(request)s: refused %(retries)d times for its rate (%(reason)s)",
                {"request": request, "retries": retries, "reason": reason},
                extra={"spider": self.crawler.spider},
            )
            return None
        retry = request.copy()
        retry.meta[RETRIES_META] = retries
        retry.dont_filter = True
        retry.priority = request.priority + self.priority_adjust
        stats.inc_value("ratelimit/retries")
        return retry
