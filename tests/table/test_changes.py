"""Changes between two snapshots of the table, and a metric year by year."""

from __future__ import annotations

from journals.table.changes import (
    APPEARED,
    CHANGED,
    DISAPPEARED,
    JournalSpan,
    ValueSpan,
    changes,
    counts,
    value_at,
    yearly,
)

JOURNALS = [
    JournalSpan("A", "Stays", 1, 3),
    JournalSpan("B", "Goes", 1, 2),
    JournalSpan("C", "Comes", 3, 3),
]
VALUES = [
    ValueSpan("A", "impact_factor", "1.5", 2023, 1, 2, 1.5),
    ValueSpan("A", "impact_factor", "1.7", 2024, 3, 3, 1.7),
    ValueSpan("A", "publisher", "Wiley", None, 1, 3),
    ValueSpan("A", "sjr", "0.4", None, 1, 2, 0.4),
]


def test_appeared_disappeared_and_changed_between_two_snapshots():
    found = changes(JOURNALS, VALUES, 2, 3)
    assert [(c.change, c.key) for c in found if c.attribute is None] == [(APPEARED, "C"), (DISAPPEARED, "B")]
    changed = {c.attribute: c for c in found if c.change == CHANGED}
    assert set(changed) == {"impact_factor", "sjr"}
    assert (changed["impact_factor"].old_value, changed["impact_factor"].old_year) == ("1.5", 2023)
    assert (changed["impact_factor"].new_value, changed["impact_factor"].new_year) == ("1.7", 2024)
    assert changed["sjr"].new_value is None
    assert counts(found) == {APPEARED: 1, DISAPPEARED: 1, CHANGED: 2}


def test_nothing_changed_between_a_snapshot_and_itself():
    assert changes(JOURNALS, VALUES, 3, 3) == []


def test_from_an_empty_table_every_listed_journal_appeared():
    assert {c.key for c in changes(JOURNALS, VALUES, 0, 3)} == {"A", "C"}


def test_a_value_that_came_back_is_the_snapshots_own():
    spans = [ValueSpan("A", "x", "old", None, 1, 3), ValueSpan("A", "x", "new", None, 2, 2)]
    assert value_at(spans, 2).value == "new"
    assert value_at(spans, 3).value == "old"


def test_each_years_figure_is_kept_and_a_correction_replaces_its_own_year_only():
    spans = [*VALUES, ValueSpan("A", "impact_factor", "1.8", 2024, 4, 4, 1.8)]
    assert yearly(spans, "impact_factor") == {"A": {2023: 1.5, 2024: 1.8}}
