"""The hostile sandbox (``scrapy sandbox --faults``): a seeded share of pages misbehave as the web does.

:class:`FaultPlan` decides, from the seed and the path alone, which fault a page has; the server carries it out.
Faults are *transient* (the page works when asked again, or only reads oddly) or *permanent* (the page never
yields its content); :meth:`FaultPlan.reachable` tells which journals a faultless crawler must still store.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from urllib.parse import urlsplit

TRANSIENT = ("burst_5xx", "truncated", "trickle", "latin1", "cp1252_as_utf8", "bom", "malformed", "deep", "wide")
PERMANENT = ("timeout", "redirect_loop", "binary", "huge")
FAULT_WEIGHTS = {
    "burst_5xx": 3,
    "truncated": 2,
    "trickle": 1,
    "latin1": 2,
    "cp1252_as_utf8": 2,
    "bom": 2,
    "malformed": 3,
    "deep": 1,
    "wide": 1,
    "timeout": 1,
    "redirect_loop": 1,
    "binary": 1,
    "huge": 0.2,
}
BURST_LENGTH = 2
"""A ``burst_5xx`` page fails this many times, then works (Scrapy's retries recover it)."""
DEEP_LEVELS = 10_000
WIDE_SIBLINGS = 50_000
HUGE_BYTES = 20 * 1024 * 1024
ROBOTS_EXTRA = "Disallow: /springer/journals/q\n"
"""With faults, robots.txt also shuts out part of a site: Springer's Q listing."""


@dataclass(frozen=True)
class FaultPlan:
    """Which pages misbehave and how: a share ``rate`` of listing and journal pages, drawn from ``seed``."""

    seed: int = 1
    rate: float = 0.08
    timeout_seconds: float = 35.0
    """How long a ``timeout`` page stalls before answering (longer than the crawler's DOWNLOAD_TIMEOUT)."""

    def fault_for(self, path: str, query: str = "") -> str | None:
        """The fault of the page at ``path?query``, or None. Start and browse pages and robots.txt always work."""
        if len([part for part in path.split("/") if part]) < 3 and not query:
            return None
        rng = random.Random(f"fault:{self.seed}:{path}?{query}")
        if rng.random() >= self.rate:
            return None
        kinds = list(FAULT_WEIGHTS)
        return rng.choices(kinds, [FAULT_WEIGHTS[k] for k in kinds])[0]

    def missing(self, path: str, query: str = "") -> bool:
        """Whether this page answers 404 although the site links it (a letter or a journal gone missing)."""
        if len([part for part in path.split("/") if part]) < 3 and not query:
            return False
        return random.Random(f"missing:{self.seed}:{path}?{query}").random() < self.rate / 4

    def page_works(self, url: str) -> bool:
        """Whether a crawler eventually gets this page's content: not missing, no permanent fault, not robots-barred."""
        parts = urlsplit(url)
        if self.missing(parts.path, parts.query) or parts.path.startswith("/springer/journals/q"):
            return False
        return self.fault_for(parts.path, parts.query) not in PERMANENT

    def reachable(self, page_urls: list[str]) -> bool:
        """Whether a journal can be crawled whole: every listing page on its way, its page and metrics page work."""
        return all(self.page_works(url) for url in page_urls)
