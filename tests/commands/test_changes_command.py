"""``scrapy changes``: the journals that appeared and disappeared and the values that changed, since the crawl
before or a date, printed and written as a feed."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

from conftest import run_scrapy

from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals
from journals.store.crawl_runs import record_run

T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
T1 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ISSNS = ("0140-6736", "0959-8138", "0028-0836")


def journal(n: int, impact_factor: float, year: int) -> JournalItem:
    return JournalItem(
        source="publisher",
        url=f"https://example.org/journals/{n}",
        title=f"Journal of Things {'ABC'[n]}",
        issn=ISSNS[n],
        impact_factor=impact_factor,
        provenance={"impact_factor": {"raw": f"{impact_factor} ({year})", "year": year}},
    )


def crawl(url: str, items: list[JournalItem], when: datetime) -> None:
    """One crawl of ``items`` into the database at ``url`` at ``when``, its run recorded around it."""
    engine = engine_from_url(url)
    try:
        create_schema(engine)
        write_journals(engine, items, crawled_at=when)
        record_run(
            engine, "publisher", {"start_time": when - timedelta(minutes=1), "finish_time": when + timedelta(minutes=1)}
        )
    finally:
        engine.dispose()


def test_changes_since_the_crawl_before_and_since_a_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'journals.db'}"
    database = f"DATABASE_URL={url}"
    crawl(url, [journal(0, 1.0, 2024), journal(1, 2.0, 2024)], T0)
    first = run_scrapy("changes", "-s", database)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "from an empty table" in first.stdout and "2 journals appeared" in first.stdout

    crawl(url, [journal(0, 1.5, 2025), journal(2, 3.0, 2025)], T1)
    out = tmp_path / "changes.csv"
    second = run_scrapy("changes", "-s", database, "-O", str(out))
    assert second.returncode == 0, second.stderr[-2000:]
    assert "1 journals appeared, 1 disappeared, 1 values changed" in second.stdout
    assert "impact_factor 1.0 (2024) -> 1.5 (2025)" in second.stdout
    with out.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [(row["change"], row["key"]) for row in rows] == [
        ("appeared", ISSNS[2]),
        ("disappeared", ISSNS[1]),
        ("changed", ISSNS[0]),
    ]
    assert (rows[2]["old_value"], rows[2]["old_year"], rows[2]["new_value"], rows[2]["new_year"]) == (
        "1.0",
        "2024",
        "1.5",
        "2025",
    )

    before_any = run_scrapy("changes", "-s", database, "--since", "2020-01-01")
    assert "from an empty table" in before_any.stdout and "2 journals appeared" in before_any.stdout
    since_first = run_scrapy("changes", "-s", database, "--since", "2025-12-31")
    assert "1 values changed" in since_first.stdout

    history = tmp_path / "history.csv"
    export = run_scrapy("export", "--history", str(history), "-s", database)
    assert export.returncode == 0, export.stderr[-2000:]
    with history.open(encoding="utf-8") as file:
        figures = [
            (row["key"], row["value"], row["year"])
            for row in csv.DictReader(file)
            if row["attribute"] == "impact_factor"
        ]
    assert (ISSNS[0], "1.0", "2024") in figures and (ISSNS[0], "1.5", "2025") in figures


def test_changes_refuses_a_bad_date(tmp_path: Path) -> None:
    result = run_scrapy("changes", "--since", "yesterday", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'j.db'}")
    assert result.returncode != 0 and "--since 'yesterday'" in result.stderr
