"""What the report says about a crawl, read from the database: sources, completeness, last run, metric values."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from journals.store.crawl_runs import last_run
from journals.store.models import CrawlRun
from journals.store.overview import integration_counts, stored_journals, stored_values
from journals.vocabulary import metric_names

METRICS = metric_names()
"""The journal metrics whose distributions the report draws."""


@dataclass
class CrawlSummary:
    """Everything the report shows that comes from the database."""

    journals_per_source: dict[str, int] = field(default_factory=dict)
    """Source name → journals stored for it."""
    completeness: dict[str, dict[str, float]] = field(default_factory=dict)
    """Source name → attribute → share of the source's journals with a value (0 to 1)."""
    metric_values: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    """Metric → source name → every value stored (for the distribution plots)."""
    items: list[dict[str, Any]] = field(default_factory=list)
    """One exported-item-like dict per journal (``source``, ``url``, ``title``, attributes) for the evaluation."""
    last_run: CrawlRun | None = None
    last_run_stats: dict[str, Any] = field(default_factory=dict)
    integrated_journals: int | None = None
    """Journals after integration, None when ``scrapy integrate`` has not run (or found nothing)."""
    conflicts: int = 0
    """Integrated values on which the sources disagreed."""

    @property
    def attributes(self) -> list[str]:
        """Every attribute any source has, most complete first."""
        totals: dict[str, float] = defaultdict(float)
        for shares in self.completeness.values():
            for name, share in shares.items():
                totals[name] += share
        return sorted(totals, key=lambda name: (-totals[name], name))


def stored_value(value: str) -> Any:
    """A stored text value as the crawl's item held it: booleans and JSON lists or objects decoded."""
    if value in ("true", "false"):
        return value == "true"
    if value[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def read_summary(engine: Engine) -> CrawlSummary:
    """Read the crawl's summary from the database of ``engine`` (the schema must exist)."""
    summary = CrawlSummary()
    items: dict[int, dict[str, Any]] = {}
    for journal in stored_journals(engine):
        items[journal.id] = {"source": journal.source, "url": journal.url, "title": journal.title}
        summary.journals_per_source[journal.source] = summary.journals_per_source.get(journal.source, 0) + 1
    filled: dict[tuple[str, str], int] = defaultdict(int)
    metric_values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in stored_values(engine):
        item = items.get(row.journal_id)
        if item is None or (row.value is None and row.number is None):
            continue
        item[row.attribute] = row.number if row.number is not None else stored_value(row.value or "")
        filled[(item["source"], row.attribute)] += 1
        if row.attribute in METRICS and row.number is not None:
            metric_values[row.attribute][item["source"]].append(row.number)
    integration = integration_counts(engine)
    summary.integrated_journals = integration.journals or None
    summary.conflicts = integration.conflicting_values
    for (source, attribute), count in filled.items():
        summary.completeness.setdefault(source, {})[attribute] = count / summary.journals_per_source[source]
    summary.metric_values = {metric: dict(by_source) for metric, by_source in metric_values.items()}
    summary.items = list(items.values())
    recorded = last_run(engine)
    if recorded is not None:
        summary.last_run, summary.last_run_stats = recorded
    return summary
