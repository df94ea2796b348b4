"""A crawl's health, as plain data: items checked against the item schema, a source that came to nothing (its
start page not fetched, or no journal found from it), and a source's coverage and field completeness compared
with its previous crawl. Pure code; :mod:`journals.extensions.health` feeds it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields

from journals.domain import issn
from journals.items import JournalItem
from journals.vocabulary import metric_names

METRIC_FIELDS = metric_names()
"""The item's metrics: finite, non-negative numbers."""
TEXT_FIELDS = ("title", "editor_in_chief")
START_FAILED_STATS = "journals/start_failed/"
"""Prefix of the spider's record of start pages that could not be fetched, after retries: the stat
``journals/start_failed/SOURCE`` holds one ``{"url", "cause", "error"}`` per failed start page of the source
(``cause`` as in ``journals/failed_pages/CAUSE``: ``http_404``, or the error's class name)."""
TRAPS_STATS = "journals/traps/"
"""Prefix of the spider's record of crawl bounds a source hit: the stat ``journals/traps/SOURCE`` holds one
``{"kind", "url"}`` per bound (``pages_per_site``, ``index_depth``, ``listing_pages``), with the first URL it
refused. A generous bound is only hit by a site that makes up pages without end: a spider trap."""
_FETCH_FAILURES = {
    "CannotResolveHostError": "DNS lookup failed",
    "DNSLookupError": "DNS lookup failed",
    "DownloadConnectionRefusedError": "connection refused",
    "ConnectionRefusedError": "connection refused",
    "DownloadTimeoutError": "timed out",
    "TimeoutError": "timed out",
    "TCPTimedOutError": "timed out",
}


def item_problems(item: JournalItem) -> list[str]:
    """How ``item`` breaks the :class:`~journals.items.JournalItem` schema: empty when it does not."""
    problems = []
    if not isinstance(item.source, str) or not item.source:
        problems.append("source is empty")
    if not isinstance(item.url, str) or not item.url.startswith(("http://", "https://")):
        problems.append(f"url {item.url!r} is not an http(s) URL")
    for name in ("issn", "eissn"):
        value = getattr(item, name)
        if value is not None and not (
            isinstance(value, str) and issn.NORMALISED.fullmatch(value) and issn.is_valid(value)
        ):
            problems.append(f"{name} {value!r} is not NNNN-NNNC with a valid check digit")
    for name in METRIC_FIELDS:
        value = getattr(item, name)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0
        ):
            problems.append(f"{name} {value!r} is not a non-negative number")
    for name in TEXT_FIELDS:
        value = getattr(item, name)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            problems.append(f"{name} {value!r} is not a text")
    if not isinstance(item.attributes, dict):
        problems.append("attributes is not a mapping")
    return problems


def fetch_failure(cause: str, error: str = "") -> str:
    """Why a page could not be fetched, in words: ``http_404`` → ``HTTP 404``, ``CannotResolveHostError`` →
    ``DNS lookup failed``; an ignored request (robots.txt, not in an offline cache) says what its error says."""
    if cause.startswith("http_"):
        return f"HTTP {cause.removeprefix('http_')}"
    if cause in _FETCH_FAILURES:
        return _FETCH_FAILURES[cause]
    if cause == "IgnoreRequest" and error:
        return error[:1].lower() + error[1:]
    return f"{cause}: {error}" if error else cause


def came_to_nothing(
    source: str, start_url: str | None, failed_starts: Sequence[Mapping[str, str]], journals: int | None, pages: int
) -> list[str]:
    """Why a source's crawl failed whatever its previous crawl: a line per start page that could not be fetched
    (``failed_starts``, records as in :data:`START_FAILED_STATS`), else one line when it has no journal.

    ``journals`` is None when unknown (the database cannot be read): then only failed start pages are named.
    """
    found = [
        f"{source}: start page {failed.get('url')} could not be fetched: "
        + fetch_failure(str(failed.get("cause", "")), str(failed.get("error", "")))
        for failed in failed_starts
    ]
    if not found and journals == 0:
        where = f" from start page {start_url}" if start_url else ""
        found.append(f"{source}: no journals found{where} ({pages} page{'' if pages == 1 else 's'} fetched)")
    return found


def trapped(source: str, bounds: Sequence[Mapping[str, str]]) -> list[str]:
    """A line per crawl bound the source hit (records as in :data:`TRAPS_STATS`): the crawl fails on each."""
    return [
        f"{source}: crawl bound {bound.get('kind')} hit at {bound.get('url')} (a spider trap: the site makes up pages)"
        for bound in bounds
    ]


CHECKED_FIELDS = tuple(
    f.name for f in fields(JournalItem) if f.name not in ("source", "url", "attributes", "provenance")
)
"""The fields whose completeness per source is compared between crawls."""


@dataclass
class SourceSnapshot:
    """What one crawl stored of one source: its journals, and per field how many of them have a value."""

    journals: int = 0
    filled: dict[str, int] = field(default_factory=dict)

    def completeness(self, name: str) -> float:
        """The fraction of the journals with a value of ``name``."""
        return self.filled.get(name, 0) / self.journals if self.journals else 0.0


@dataclass(frozen=True)
class Margins:
    """How much worse than the previous crawl a crawl may do before it is failed."""

    coverage: float = 0.1
    """Largest fraction of a source's journals that may go missing."""
    completeness: float = 0.1
    """Largest drop of a field's completeness in a source (0.1: from 95% of the journals to 85%)."""


def regressions(source: str, previous: SourceSnapshot, current: SourceSnapshot, margins: Margins) -> list[str]:
    """Why ``current`` is a failed crawl of ``source`` next to ``previous``: one line per drop beyond its margin."""
    if not previous.journals:
        return []
    found = []
    if current.journals < previous.journals * (1 - margins.coverage):
        drop = 1 - current.journals / previous.journals
        found.append(
            f"{source}: {current.journals} journals, {previous.journals} in the previous crawl "
            f"(-{drop:.0%}, margin {margins.coverage:.0%})"
        )
    if not current.journals:
        return found
    for name in sorted(previous.filled):
        before, now = previous.completeness(name), current.completeness(name)
        if now < before - margins.completeness:
            found.append(
                f"{source}: {name} in {now:.0%} of the journals, {before:.0%} in the previous crawl "
                f"(margin {margins.completeness:.0%})"
            )
    return found
