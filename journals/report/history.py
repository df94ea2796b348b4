"""The report's history section: what changed since the crawl before, and the impact factor year by year of the
journals whose history holds more than one year (:mod:`journals.table.changes`)."""

from __future__ import annotations

from html import escape

from journals.report.plots import yearly_png
from journals.store.table_io import History
from journals.table.changes import changes, counts, yearly

SHOWN_CHANGES = 50
"""How many changes the page lists (``scrapy changes -O`` writes them all)."""
PLOTTED_JOURNALS = 12
"""How many journals' impact factor the plot draws: those with the most years."""


def history_section(history: History) -> str:
    """The section's HTML: the changes from the crawl before to the latest, and the yearly plot."""
    if not history.snapshots:
        return (
            "<h2>Changes since the crawl before</h2>\n<p>No history recorded yet: <code>make crawl</code> or "
            "<code>scrapy export FILE</code> records each crawl's table.</p>"
        )
    after = history.snapshots[-1]
    before = history.snapshots[-2] if len(history.snapshots) > 1 else None
    found = changes(history.journals, history.values, before.id if before else 0, after.id)
    tally = counts(found)
    since = f"the crawl of {before.crawled_at:%Y-%m-%d %H:%M}" if before else "an empty table (the first crawl)"
    lines = [
        f"<h2>Changes since the crawl before</h2>\n<p>From {since} to the crawl of {after.crawled_at:%Y-%m-%d %H:%M} "
        f"UTC: {tally['appeared']} journals appeared, {tally['disappeared']} disappeared, {tally['changed']} values "
        "changed.</p>"
    ]
    if found:
        rows = "".join(
            "<tr>"
            + "".join(
                f"<td>{escape('' if value is None else str(value))}</td>"
                for value in (c.change, c.key, c.title, c.attribute, c.old_value, c.old_year, c.new_value, c.new_year)
            )
            + "</tr>"
            for c in found[:SHOWN_CHANGES]
        )
        head = "".join(
            f"<th>{name}</th>" for name in ("change", "key", "title", "attribute", "old", "year", "new", "year")
        )
        lines.append(f'<table id="changes"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>')
        if len(found) > SHOWN_CHANGES:
            lines.append(f"<p>… and {len(found) - SHOWN_CHANGES} more: <code>scrapy changes -O changes.csv</code>.</p>")
    lines.append(_yearly(history))
    return "\n".join(lines)


def _yearly(history: History) -> str:
    """The impact factor by year of the journals with the most years, or why there is no plot yet."""
    series = {key: years for key, years in yearly(history.values, "impact_factor").items() if len(years) > 1}
    if not series:
        return (
            "<h3>Impact factor by year</h3>\n<p>No journal has an impact factor for more than one year yet: each "
            "crawl after a publisher shows a new year's figure adds a point, and keeps the earlier ones.</p>"
        )
    titles = {span.key: span.title or span.key for span in history.journals}
    chosen = sorted(series, key=lambda key: (-len(series[key]), key))[:PLOTTED_JOURNALS]
    plotted = {f"{titles.get(key, key)} ({key})": series[key] for key in chosen}
    return (
        f"<h3>Impact factor by year</h3>\n<p>{len(series)} journals have more than one year; the "
        f"{len(chosen)} with the most are drawn.</p>\n"
        f'<img id="impact-factor-years" alt="impact factor by year per journal" '
        f'src="data:image/png;base64,{yearly_png("impact factor", plotted)}">'
    )
