"""The journals table made from a real SQLite database: integrated first when a crawl came after it, keys kept from
crawl to crawl, journals not found again dropped, and the history keeping last year's figure beside this year's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from journals.items import JournalItem
from journals.journal_table import latest_table
from journals.store import write_journals
from journals.store.crawl_runs import record_run
from journals.store.models import TableSnapshot, ValueHistory
from journals.store.table_io import read_history
from journals.table.changes import changes, yearly

T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
T1 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ISSNS = ("0140-6736", "0959-8138", "0028-0836", "1476-4687", "0036-8075")


def journal(n: int, impact_factor: float, year: int, **changes) -> JournalItem:
    """Journal ``n`` of the publisher: its own title, ISSN and impact factor of ``year``."""
    fields = {
        "source": "publisher",
        "url": f"https://example.org/journals/{n}",
        "title": f"Journal of Things {'ABCDE'[n]}",
        "issn": ISSNS[n],
        "impact_factor": impact_factor,
        "attributes": {"apc": 2990, "open_access": True},
        "provenance": {"impact_factor": {"raw": f"{impact_factor} ({year})", "year": year}, "apc": {"raw": "€2,990"}},
    }
    return JournalItem(**(fields | changes))


def crawl(engine, items, when):
    """One crawl: its items written at ``when``, its run recorded around it."""
    write_journals(engine, items, crawled_at=when)
    record_run(
        engine, "publisher", {"start_time": when - timedelta(minutes=1), "finish_time": when + timedelta(minutes=1)}
    )


def test_two_crawls_make_two_snapshots_with_stable_keys_and_the_history_of_each_year(engine):
    crawl(engine, [journal(n, 1.0 + n, 2024) for n in range(4)], T0)
    first = latest_table(engine)
    assert first.integrated and first.snapshot is not None
    assert sorted(row["key"] for row in first.rows) == sorted(ISSNS[:4])
    row = next(row for row in first.rows if row["key"] == ISSNS[0])
    assert (row["impact_factor"], row["impact_factor_year"]) == (1.0, 2024)
    assert (row["apc"], row["apc_currency"], row["open_access"]) == (2990, "EUR", True)
    assert row["sources"] == "publisher"

    again = latest_table(engine)  # the same crawl: nothing new recorded
    assert not again.integrated and again.snapshot == first.snapshot and again.rows == first.rows

    # A year later: journal 0 shows its 2025 figure, journal 3 is gone from the site, journal 4 is new.
    crawl(engine, [journal(0, 1.5, 2025), journal(1, 2.0, 2024), journal(2, 3.0, 2024), journal(4, 5.0, 2025)], T1)
    second = latest_table(engine)
    assert second.integrated and second.snapshot.id > first.snapshot.id
    assert sorted(row["key"] for row in second.rows) == sorted((*ISSNS[:3], ISSNS[4]))
    row = next(row for row in second.rows if row["key"] == ISSNS[0])
    assert (row["impact_factor"], row["impact_factor_year"]) == (1.5, 2025)
    assert row["first_seen"] == "2025-06-01T12:00:00Z" and row["last_seen"] == "2026-06-01T12:00:00Z"

    history = read_history(engine)
    assert yearly(history.values, "impact_factor")[ISSNS[0]] == {2024: 1.0, 2025: 1.5}
    found = {
        (c.change, c.key, c.attribute)
        for c in changes(history.journals, history.values, first.snapshot.id, second.snapshot.id)
    }
    assert ("appeared", ISSNS[4], None) in found
    assert ("disappeared", ISSNS[3], None) in found
    assert ("changed", ISSNS[0], "impact_factor") in found
    assert not {c for c in found if c[0] == "changed" and c[1] != ISSNS[0]}

    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(TableSnapshot)) == 2
        years = conn.execute(
            select(ValueHistory.year).where(
                ValueHistory.journal_key == ISSNS[0], ValueHistory.attribute == "impact_factor"
            )
        ).scalars()
        assert sorted(years) == [2024, 2025]


def test_an_empty_database_makes_an_empty_table(engine):
    table = latest_table(engine)
    assert table.rows == [] and table.snapshot is None
