"""Finished crawls: one ``crawl_runs`` row (:class:`~journals.store.models.CrawlRun`) per crawl with its Scrapy
stats, written by :class:`journals.extensions.crawl_runs.CrawlRunsExtension`, read by ``scrapy report`` and the
health check."""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, insert, select

from journals.store.models import CrawlRun, utcnow


def record_run(engine: Engine, spider: str, stats: dict[str, Any]) -> None:
    """Store one finished crawl's ``stats`` (a Scrapy stats dict) as a ``crawl_runs`` row."""
    started = stats.get("start_time")
    finished = stats.get("finish_time")
    row = {
        "spider": spider,
        "started_at": started if isinstance(started, datetime) else None,
        "finished_at": finished if isinstance(finished, datetime) else utcnow(),
        "finish_reason": stats.get("finish_reason"),
        "stats": json.dumps(stats, default=_json_value, sort_keys=True),
    }
    with engine.begin() as conn:
        conn.execute(insert(CrawlRun), [row])


def last_run(engine: Engine) -> tuple[CrawlRun, dict[str, Any]] | None:
    """The latest finished crawl and its stats, or None when no crawl was recorded."""
    with engine.connect() as conn:
        row = conn.execute(select(CrawlRun).order_by(CrawlRun.finished_at.desc(), CrawlRun.id.desc())).first()
    if row is None:
        return None
    run = CrawlRun(**row._mapping)
    return run, json.loads(run.stats)


def runs_by_stat(
    engine: Engine, stat: str, values: Collection[str], *, recent: int = 1000
) -> dict[str, dict[str, Any]]:
    """Among the ``recent`` latest crawls, the stats of the last one whose ``stat`` holds each of ``values``
    (a scrapyd job id, say), by that value; a value no recorded crawl holds is left out."""
    wanted = set(values)
    found: dict[str, dict[str, Any]] = {}
    with engine.connect() as conn:
        rows = conn.execute(
            select(CrawlRun.stats).order_by(CrawlRun.finished_at.desc(), CrawlRun.id.desc()).limit(recent)
        )
        for (text,) in rows:
            stats = json.loads(text)
            value = stats.get(stat)
            if value in wanted and value not in found:
                found[value] = stats
    return found


def _json_value(value: Any) -> Any:
    """Timestamps as ISO 8601 text, anything else JSON does not know as its text."""
    return value.isoformat() if isinstance(value, datetime) else str(value)
