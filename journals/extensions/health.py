"""Check a crawl's health as it closes, and fail it when a source came to nothing or did markedly worse than
its previous crawl.

Our own small extension rather than Spidermon (1.27.0, read from its wheel, not installed): what this check does
that matters is not in Spidermon, and what Spidermon would add costs more than it gives here.

- The comparison with the *previous crawl* of each source (coverage, completeness per field) reads our database
  (``journals.crawled_at``, ``crawl_runs``). Spidermon's only comparison with earlier jobs,
  ``ZyteJobsComparisonMonitor``, asks Zyte Scrapy Cloud's API for them (``scrapinghub`` client, ``SHUB_JOBKEY``);
  its ``FieldCoverageMonitor`` holds each field to a fixed threshold for the whole crawl, not per source against
  that source's last crawl.
- Per-source failures (a start page that could not be fetched, a source that came to nothing, a crawl bound hit by
  a spider trap) are stats our spider writes per source; Spidermon has no monitor for them, so they would be our own
  monitors anyway. Its error monitors count absolute numbers (``SPIDERMON_MAX_DOWNLOADER_EXCEPTIONS``); ours is a
  rate over responses, with failed start pages left out because each has a line of its own.
- Item validation: Spidermon's ``ItemValidationPipeline`` needs the item schema again as a JSON schema (beside
  :class:`~journals.items.JournalItem`, with ``jsonschema[format]`` and ``python-slugify`` as new dependencies) and
  must be ordered last; :func:`journals.crawl_health.item_problems` checks the dataclass in a few lines, ISSN check
  digit included.
- Exit status: a failing Spidermon monitor calls its actions (e-mail, Slack, Sentry); ``scrapy crawl`` would still
  need a stat to exit with status 3, which is what this extension sets.

So: one extension of a few hundred lines, no extra dependency, one error line per failure.

Checks, as the spider closes:

- per source, whether it came to nothing, on its first crawl too: a start page that could not be fetched after
  Scrapy's retries (DNS lookup failed, connection refused, timed out, HTTP 4xx or 5xx, refused by robots.txt),
  as the spider records it in ``journals/start_failed/SOURCE``, fails the crawl, and so does a source with no
  journal stored by this crawl. One line per source, instead of its comparison with the previous crawl. Only a
  failure this run saw is named: a resumed or distributed crawl whose start request was done by an earlier run or
  another worker (Scrapy's duplicate filter drops it) reports no failed start page, only missing journals;
- per source, whether it fell into a spider trap: a crawl bound it hit (requests per site, letter nesting,
  listing pages per letter), as the spider records it in ``journals/traps/SOURCE``, fails the crawl;
- every :class:`~journals.items.JournalItem` against the item schema (ISSN form and check digit, finite
  non-negative metrics): more than ``HEALTH_MAX_INVALID_ITEMS`` (a fraction, default 0) fails the crawl;
- per source, the journals stored by this crawl against those of the previous crawl (read when the spider
  opens): fewer by more than ``HEALTH_COVERAGE_MARGIN`` (default 0.1) fails it;
- per source and field, the share of journals with a value: a drop of more than ``HEALTH_COMPLETENESS_MARGIN``
  (default 0.1) fails it;
- failed pages (after retries) and spider errors over responses: above ``HEALTH_MAX_ERROR_RATE`` (default 0.2)
  fails it; retries are counted, never a failure by themselves, and failed start pages, named on their own line,
  are left out;
- reported, never failing: requests per journal stored (``journals/requests_per_journal``) and the share of pages
  linked as journals that nothing on them confirmed (``health/unconfirmed_share``, see
  :mod:`journals.extraction.confirmation`).

A failed crawl logs one error line per reason and sets the stats ``health/failed`` (True) and
``health/reasons``; ``scrapy crawl`` then exits with status 3 (see :mod:`journals.commands.crawl`), so a
scheduler or CI job sees it. The finish reason stays Scrapy's own: the crawl did finish, its result is suspect.
"This crawl" is every run since the first start under one ``JOBDIR``, so a resumed crawl is judged whole. The
previous crawl of a source is the journals written within ``HEALTH_PREVIOUS_CRAWL_HOURS`` (default 24) before
its latest write. ``HEALTH_ENABLED = False`` turns it off.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from journals.crawl_health import (
    START_FAILED_STATS,
    TRAPS_STATS,
    Margins,
    SourceSnapshot,
    came_to_nothing,
    item_problems,
    regressions,
    trapped,
)
from journals.extensions.database import crawl_database
from journals.extensions.interruption import INTERRUPTED_REASONS
from journals.items.adapted import journal_record
from journals.store import DatabaseError, database_url
from journals.store.crawl_history import crawl_since, previous_crawls
from journals.store.models import utcnow

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STARTED_AT_FILE = "health-started-at"
"""Under ``JOBDIR``: when the crawl first started (written at once, so a ``kill -9`` keeps it)."""
EXAMPLES_KEPT = 3


class HealthExtension:
    """Validate items as they are scraped; compare the crawl with the previous one as the spider closes."""

    def __init__(self, crawler: Crawler, margins: Margins, max_invalid: float, max_error_rate: float):
        """Hold the margins and bounds; the previous crawls are read when the spider opens."""
        self.crawler = crawler
        self.margins = margins
        self.max_invalid = max_invalid
        self.max_error_rate = max_error_rate
        self.previous_span = timedelta(hours=crawler.settings.getfloat("HEALTH_PREVIOUS_CRAWL_HOURS"))
        self.started_at = utcnow()
        self.previous: dict[str, SourceSnapshot] = {}
        self.sources: set[str] = set()
        self.start_urls: dict[str, str] = {}
        self.pages: Counter[str] = Counter()
        self.items = 0
        self.invalid: list[str] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HealthExtension:
        """Off when ``HEALTH_ENABLED`` is false or no database is configured."""
        settings = crawler.settings
        if not settings.getbool("HEALTH_ENABLED"):
            raise NotConfigured
        try:
            database_url(settings)
        except DatabaseError as error:
            raise NotConfigured(str(error)) from error
        margins = Margins(
            coverage=settings.getfloat("HEALTH_COVERAGE_MARGIN"),
            completeness=settings.getfloat("HEALTH_COMPLETENESS_MARGIN"),
        )
        extension = cls(
            crawler,
            margins,
            max_invalid=settings.getfloat("HEALTH_MAX_INVALID_ITEMS"),
            max_error_rate=settings.getfloat("HEALTH_MAX_ERROR_RATE"),
        )
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Any) -> None:
        """Note when the crawl (first) started and read the previous crawl of every source."""
        jobdir = self.crawler.settings.get("JOBDIR")
        if jobdir:
            marker = Path(jobdir) / STARTED_AT_FILE
            if marker.exists():
                self.started_at = datetime.fromisoformat(marker.read_text(encoding="utf-8").strip())
            else:
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text(self.started_at.isoformat(), encoding="utf-8")
        self.previous = self._read(lambda engine: previous_crawls(engine, self.started_at, self.previous_span)) or {}

    def request_scheduled(self, request: Any, spider: Any) -> None:
        """Remember which sources this crawl visits (a source that yields nothing is still checked) and the start
        URL of each (a start request is scheduled even when the duplicate filter then drops it)."""
        source = request.meta.get("source")
        if source:
            self.sources.add(source)
            if request.meta.get("is_start_request"):
                self.start_urls.setdefault(source, request.meta.get("redirect_urls", [request.url])[0])

    def response_received(self, response: Any, request: Any, spider: Any) -> None:
        """Count the pages this run fetched per source."""
        source = request.meta.get("source")
        if source:
            self.pages[source] += 1

    def item_scraped(self, item: Any, response: Any, spider: Any) -> None:
        """Check a journal record (any item kind, :func:`journals.items.adapted.journal_record`) against the
        item schema."""
        record = journal_record(item)
        if record is None:
            return
        self.items += 1
        problems = item_problems(record)
        if problems:
            self.invalid.append(f"{record.source} {record.url}: {'; '.join(problems)}")

    def spider_closed(self, spider: Any, reason: str) -> None:
        """Run the checks, set the ``health/*`` stats and log why a failed crawl failed. An interrupted crawl
        (:mod:`journals.extensions.interruption`) is not checked: a part of each site compared with the last whole
        crawl would read as losses; ``health/interrupted`` says so."""
        stats = self.crawler.stats
        if reason in INTERRUPTED_REASONS:
            stats.set_value("health/interrupted", reason)
            logger.warning("Crawl health check skipped: the crawl was interrupted (%s)", reason)
            return
        reasons = []
        if self.invalid:
            stats.set_value("health/invalid_items", len(self.invalid))
            if len(self.invalid) > self.max_invalid * self.items:
                reasons.append(
                    f"{len(self.invalid)} of {self.items} items break the item schema, e.g. "
                    + " | ".join(self.invalid[:EXAMPLES_KEPT])
                )
        failed_starts = {
            key.removeprefix(START_FAILED_STATS): value
            for key, value in stats.get_stats().items()
            if key.startswith(START_FAILED_STATS)
        }
        reasons.extend(self._error_rate(stats.get_stats(), sum(len(value) for value in failed_starts.values())))
        for key, bounds in sorted(stats.get_stats().items()):
            if key.startswith(TRAPS_STATS):
                reasons.extend(trapped(key.removeprefix(TRAPS_STATS), bounds))
        current = self._read(lambda engine: crawl_since(engine, self.started_at))
        for source in sorted(self.sources | set(current or {}) | set(failed_starts)):
            snapshot = current.get(source, SourceSnapshot()) if current is not None else None
            journals = snapshot.journals if snapshot is not None else None
            nothing = came_to_nothing(
                source, self.start_urls.get(source), failed_starts.get(source, []), journals, self.pages[source]
            )
            reasons.extend(nothing)
            if snapshot is not None:
                stats.set_value(f"health/journals/{source}", snapshot.journals)
                if not nothing:
                    previous = self.previous.get(source, SourceSnapshot())
                    reasons.extend(regressions(source, previous, snapshot, self.margins))
        self._report_costs(stats.get_stats())
        stats.set_value("health/failed", bool(reasons))
        if reasons:
            stats.set_value("health/reasons", reasons)
            for line in reasons:
                logger.error("Crawl health check failed: %s", line)
        else:
            unchanged = stats.get_value("extraction/unchanged_skipped", 0)
            logger.info(
                "Crawl health check passed (%d items%s, sources: %s)",
                self.items,
                f", {unchanged} journals unchanged since the last crawl" if unchanged else "",
                ", ".join(sorted(self.sources)),
            )

    def _report_costs(self, stats: dict[str, Any]) -> None:
        """Set ``journals/requests_per_journal`` (requests over journals stored) and report the share of pages
        linked as journals that were not stored, unconfirmed (``health/unconfirmed_share``)."""
        requests = stats.get("downloader/request_count", 0)
        if self.items:
            self.crawler.stats.set_value("journals/requests_per_journal", round(requests / self.items, 2))
        unconfirmed = stats.get("journals/unconfirmed", 0)
        if unconfirmed:
            share = unconfirmed / (unconfirmed + self.items)
            self.crawler.stats.set_value("health/unconfirmed_share", round(share, 4))
            logger.warning(
                "%d pages linked as journals were not stored, unconfirmed: %.1f%% of the journal pages "
                "(journals/unconfirmed_by_source/* per source)",
                unconfirmed,
                100 * share,
            )

    def _error_rate(self, stats: dict[str, Any], failed_starts: int) -> list[str]:
        """Failed pages and spider errors over responses, beyond ``HEALTH_MAX_ERROR_RATE``; the ``failed_starts``
        start pages among the failed pages are left out (each has a line of its own)."""
        failed = sum(value for key, value in stats.items() if key.startswith("journals/failed_pages/")) - failed_starts
        errors = (
            failed
            + stats.get("spider_exceptions", 0)
            + sum(value for key, value in stats.items() if key.startswith("spider_exceptions/"))
        )
        responses = stats.get("response_received_count", 0)
        self.crawler.stats.set_value("health/errors", errors)
        self.crawler.stats.set_value("health/retries", stats.get("retry/count", 0))
        if errors and errors > self.max_error_rate * max(responses, 1):
            return [
                f"{errors} failed pages and spider errors for {responses} responses "
                f"(above {self.max_error_rate:.0%}; {stats.get('retry/count', 0)} retries)"
            ]
        return []

    def _read(self, query: Callable[[Engine], dict[str, SourceSnapshot]]) -> dict[str, SourceSnapshot] | None:
        """Run ``query`` on the crawl's database; None (and a warning) when it cannot be read."""
        try:
            return query(crawl_database(self.crawler).engine)
        except (DatabaseError, SQLAlchemyError) as error:
            logger.warning("Crawl health check: cannot read the database (%s)", str(error).splitlines()[0])
            return None
