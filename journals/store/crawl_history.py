"""What earlier crawls stored, per source: the journals of a crawl and how many have a value in each checked field
(read by the crawl's health check, :mod:`journals.extensions.health`), and the journals stored since a moment (read
by a resumed crawl, :mod:`journals.spidermiddlewares.resume`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select

from journals.crawl_health import CHECKED_FIELDS, SourceSnapshot
from journals.store.models import AttributeValue, CrawlRun, Journal, Source


def journal_urls_stored_since(engine: Engine, since: datetime) -> frozenset[str]:
    """URLs of the journals written at or after ``since`` (``journals.crawled_at``)."""
    with engine.connect() as conn:
        return frozenset(conn.execute(select(Journal.url).where(Journal.crawled_at >= since)).scalars())


def previous_crawls(engine: Engine, before: datetime, span: timedelta) -> dict[str, SourceSnapshot]:
    """Per source, its last crawl before ``before``: the journals written since the start of the crawl run that
    wrote its latest one (``crawl_runs``), and never more than ``span`` before that latest one.

    Two crawls of one day are two crawls: on the sandbox, whose port and so whose journal URLs change from run
    to run, a window of ``span`` alone would add them up.
    """
    journals = _journal_times(engine, Journal.crawled_at < before)
    latest = {source: max(times.values()) for source, times in journals.items()}
    with engine.connect() as conn:
        runs = conn.execute(
            select(CrawlRun.started_at, CrawlRun.finished_at).where(
                CrawlRun.started_at.is_not(None), CrawlRun.finished_at < before
            )
        ).all()
    since: dict[str, datetime] = {}
    for source, when in latest.items():
        # started_at is never None here (the query's condition); the test tells the type checker so.
        starts = [started for started, finished in runs if started is not None and started <= when <= finished]
        since[source] = max([when - span, *starts])
    kept = {
        source: {journal for journal, when in times.items() if when >= since[source]}
        for source, times in journals.items()
    }
    return _snapshots(engine, kept, lambda source, when: since[source] <= when < before)


def crawl_since(engine: Engine, since: datetime) -> dict[str, SourceSnapshot]:
    """Per source, the journals this crawl wrote (``crawled_at`` at or after ``since``)."""
    journals = _journal_times(engine, Journal.crawled_at >= since)
    return _snapshots(engine, {s: set(times) for s, times in journals.items()}, lambda _source, when: when >= since)


def _journal_times(engine: Engine, condition: Any) -> dict[str, dict[int, datetime]]:
    """Per source name, journal id → ``crawled_at`` of the journals matching ``condition``."""
    query = select(Source.name, Journal.id, Journal.crawled_at).join(Journal).where(condition)
    found: dict[str, dict[int, datetime]] = {}
    with engine.connect() as conn:
        for source, journal_id, crawled_at in conn.execute(query):
            found.setdefault(source, {})[journal_id] = crawled_at
    return found


def _snapshots(
    engine: Engine, journals: dict[str, set[int]], fresh: Callable[[str, datetime], bool]
) -> dict[str, SourceSnapshot]:
    """Per source, its journals and per checked field how many have a value row that ``fresh`` accepts."""
    source_of = {journal: source for source, ids in journals.items() for journal in ids}
    filled: dict[str, Counter[str]] = {source: Counter() for source in journals}
    query = select(AttributeValue.journal_id, AttributeValue.attribute, AttributeValue.crawled_at).where(
        AttributeValue.attribute.in_(CHECKED_FIELDS)
    )
    with engine.connect() as conn:
        for journal_id, attribute, crawled_at in conn.execute(query):
            source = source_of.get(journal_id)
            if source is not None and fresh(source, crawled_at):
                filled[source][attribute] += 1
    return {source: SourceSnapshot(len(ids), dict(filled[source])) for source, ids in journals.items()}
