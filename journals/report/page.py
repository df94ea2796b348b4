"""The report's HTML: one self-contained page (inline CSS, images as data URIs), nothing fetched from elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import Any

from journals.extraction.evaluation import Report
from journals.report.history import history_section
from journals.report.plots import distribution_png, quality_png
from journals.report.stats import METRICS, CrawlSummary
from journals.store.table_io import History

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
img { display: block; margin: 0.5em 0 1.5em; max-width: 100%; }
.low { background: #fde0dc; }
"""


CRAWLED_SOURCE_STAT = "health/journals/"
"""Prefix of the stats that the health check sets per source a crawl visited (its journals)."""


def render_report(
    summary: CrawlSummary, quality: Report | None = None, title: str = "Crawl report", history: History | None = None
) -> str:
    """The whole page: crawl stats, sources and completeness, quality (when scored), the changes since the crawl
    before (when the history is given), metric distributions."""
    sections = [
        f"<h1>{escape(title)}</h1>",
        f"<p>Written {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.</p>",
        _overview(summary),
        _last_run(summary),
        _completeness(summary),
        _quality(quality) if quality is not None else "",
        history_section(history) if history is not None else "",
        _distributions(summary),
    ]
    body = "\n".join(section for section in sections if section)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def _table(table_id: str, header: list[str], rows: list[list[Any]], cell_class: Any = None) -> str:
    """An HTML table; ``cell_class(value)`` may name a CSS class for a cell."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    lines = []
    for row in rows:
        cells = []
        for value in row:
            css = cell_class(value) if cell_class else None
            attribute = f' class="{css}"' if css else ""
            cells.append(f"<td{attribute}>{escape(_shown(value))}</td>")
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(lines)}</tbody></table>'


def _shown(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _overview(summary: CrawlSummary) -> str:
    rows: list[list[Any]] = [[name, count] for name, count in sorted(summary.journals_per_source.items())]
    rows.append(["all sources", sum(summary.journals_per_source.values())])
    # A journal two sources list is two records here: the journals themselves are counted after integration.
    integrated = (
        f"<p>After integration: {summary.integrated_journals} journals, {summary.conflicts} values on which the "
        "sources disagreed.</p>"
        if summary.integrated_journals is not None
        else "<p>Not integrated yet (<code>scrapy integrate</code>).</p>"
    )
    note = "<p>One record per journal a source lists: a journal listed by two sources is two records.</p>"
    return "<h2>Sources</h2>\n" + note + _table("sources", ["source", "journal records"], rows) + integrated


def _last_run(summary: CrawlSummary) -> str:
    if summary.last_run is None:
        return "<h2>Last crawl</h2>\n<p>No crawl recorded in <code>crawl_runs</code>.</p>"
    run = summary.last_run
    heading = (
        f"<p>Spider <code>{escape(run.spider)}</code>, finished {run.finished_at:%Y-%m-%d %H:%M:%S} UTC, "
        f"reason <code>{escape(str(run.finish_reason))}</code>.</p>"
    )
    rows = [[name, value] for name, value in sorted(summary.last_run_stats.items())]
    return (
        "<h2>Last crawl</h2>\n"
        + heading
        + _crawled_sources(summary)
        + _table("crawl-stats", ["Scrapy stat", "value"], rows)
    )


def _crawled_sources(summary: CrawlSummary) -> str:
    """Which sources the last crawl visited, and which records come from earlier crawls: the database holds every
    crawl's records, the last crawl may have been of one site."""
    crawled = sorted(
        key.removeprefix(CRAWLED_SOURCE_STAT) for key in summary.last_run_stats if key.startswith(CRAWLED_SOURCE_STAT)
    )
    if not crawled:
        return "<p>It visited no source (a <code>scrapy parse</code> or a crawl with its health check off).</p>"
    earlier = sorted(set(summary.journals_per_source) - set(crawled))
    text = f"<p>It visited {len(crawled)} sources: {escape(', '.join(crawled))}."
    if earlier:
        text += f" The records of {escape(', '.join(earlier))} come from earlier crawls."
    return text + "</p>"


def _completeness(summary: CrawlSummary) -> str:
    attributes = summary.attributes
    rows = [
        [source, *(f"{summary.completeness[source].get(name, 0.0):.0%}" for name in attributes)]
        for source in sorted(summary.completeness)
    ]
    note = "<p>Share of each source's journals with a value for the attribute.</p>"
    return (
        "<h2>Attribute completeness</h2>\n"
        + note
        + _table("completeness", ["source", *attributes], rows, lambda v: "low" if v == "0%" else None)
    )


def _quality(report: Report) -> str:
    rows = [list(row) for row in report.rows()]
    coverage = [[site, score.matched, score.journals, score.coverage] for site, score in report.sites.items()]
    return (
        "<h2>Extraction quality</h2>\n"
        f"<p>Against the truth: macro F1 {report.macro_f1:.4f}, coverage {report.coverage:.4f}.</p>\n"
        + _table("quality", ["site", "attribute", "precision", "recall", "F1", "support"], rows)
        + _table("coverage", ["site", "journals found", "journals published", "coverage"], coverage)
        + f'<img id="quality-plot" alt="precision, recall and F1 per site and attribute" '
        f'src="data:image/png;base64,{quality_png(report)}">'
    )


def _distributions(summary: CrawlSummary) -> str:
    images = [
        f'<h3>{escape(metric)}</h3>\n<img class="distribution" alt="{escape(metric)} per source" '
        f'src="data:image/png;base64,{distribution_png(metric, summary.metric_values[metric])}">'
        for metric in METRICS
        if summary.metric_values.get(metric)
    ]
    if not images:
        return "<h2>Metric distributions</h2>\n<p>No metric values stored.</p>"
    return "<h2>Metric distributions per source</h2>\n" + "\n".join(images)
