"""The report's history section: the changes since the crawl before, and the impact factor by year as a picture."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime

from journals.report.history import history_section
from journals.store.table_io import History, Snapshot
from journals.table.changes import JournalSpan, ValueSpan

SNAPSHOTS = [
    Snapshot(1, datetime(2025, 6, 1, tzinfo=UTC), 1, 2),
    Snapshot(2, datetime(2026, 6, 1, tzinfo=UTC), 2, 2),
]
JOURNALS = [JournalSpan("0140-6736", "The Lancet", 1, 2), JournalSpan("0959-8138", "BMJ", 1, 1)]
VALUES = [
    ValueSpan("0140-6736", "impact_factor", "88.5", 2024, 1, 1, 88.5),
    ValueSpan("0140-6736", "impact_factor", "98.4", 2025, 2, 2, 98.4),
]


def test_the_section_lists_the_changes_and_draws_the_years():
    html = history_section(History(SNAPSHOTS, JOURNALS, VALUES))
    assert "0 journals appeared, 1 disappeared, 1 values changed" in html
    assert "<td>disappeared</td><td>0959-8138</td><td>BMJ</td>" in html
    assert "<td>88.5</td><td>2024</td><td>98.4</td><td>2025</td>" in html
    image = re.search(r'id="impact-factor-years"[^>]*src="data:image/png;base64,([^"]+)"', html)
    assert image is not None and base64.b64decode(image[1]).startswith(b"\x89PNG")


def test_one_year_per_journal_is_said_not_drawn():
    html = history_section(History(SNAPSHOTS[:1], JOURNALS, VALUES[:1]))
    assert "from an empty table" in html.lower() or "the first crawl" in html
    assert "impact-factor-years" not in html and "more than one year yet" in html


def test_no_history_says_how_to_record_one():
    assert "No history recorded yet" in history_section(History([], [], []))
