"""The report's page says what it counts: source records, not journals; which sources the last crawl visited."""

from __future__ import annotations

import base64
import struct
from datetime import UTC, datetime

from journals.report.page import render_report
from journals.report.plots import distribution_png
from journals.report.stats import CrawlSummary
from journals.store.models import CrawlRun


def _summary(stats: dict[str, object]) -> CrawlSummary:
    run = CrawlRun(
        spider="publisher", finished_at=datetime(2026, 1, 2, tzinfo=UTC), finish_reason="finished", stats="{}"
    )
    return CrawlSummary(journals_per_source={"wiley": 3, "scimago": 2}, last_run=run, last_run_stats=stats)


def test_the_sources_table_counts_records_and_the_last_crawl_names_its_sources() -> None:
    page = render_report(_summary({"health/journals/wiley": 3, "item_scraped_count": 3}))
    assert "<th>journal records</th>" in page and "a journal listed by two sources is two records" in page
    assert "It visited 1 sources: wiley. The records of scimago come from earlier crawls." in page


def test_a_run_that_visited_no_source_says_so() -> None:
    page = render_report(_summary({"item_scraped_count": 0}))
    assert "It visited no source" in page


def _png_width(encoded: str) -> int:
    return int(struct.unpack(">I", base64.b64decode(encoded)[16:20])[0])


def test_the_box_plot_widens_with_its_sources() -> None:
    few = distribution_png("impact_factor", {f"source{i}": [1.0, 2.0] for i in range(3)})
    many = distribution_png("impact_factor", {f"a-long-source-name-{i}": [1.0, 2.0] for i in range(14)})
    assert _png_width(many) > _png_width(few)
