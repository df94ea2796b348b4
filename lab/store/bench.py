"""How fast the store writes rows, against SQLAlchemy Core ``executemany`` of the same rows into the same schema.

The store's path (:func:`~journals.store.writer.write_journals`) upserts sources, journals (with ``RETURNING``)
and attribute rows in one transaction per batch; the reference inserts exactly the same journal and attribute
rows with plain ``insert`` executemany, one transaction per batch of the same size, into a fresh file each run.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from journals.items import JournalItem
from journals.sandbox.relation import JournalRelation
from journals.store.database import create_schema, engine_from_url
from journals.store.models import AttributeValue, Journal, Source, utcnow
from journals.store.writer import attribute_rows, write_journals

BATCH_SIZE = 200
"""As ``DATABASE_BATCH_SIZE`` in settings/default.py."""


def sample_items(count: int, seed: int = 1) -> list[JournalItem]:
    """``count`` journal items with the values a publisher site shows, as the extraction makes them."""
    relation = JournalRelation(seed, count)
    items = []
    for journal in relation:
        item = JournalItem(
            source=journal.publisher,
            url=f"http://127.0.0.1/{journal.publisher}/journal/{journal.index}",
            title=journal.title,
            issn=journal.issn,
            eissn=journal.eissn,
            impact_factor=journal.impact_factor,
            five_year_impact_factor=journal.five_year_impact_factor,
            citescore=journal.citescore,
            editor_in_chief=journal.editor_in_chief,
            attributes={"open_access": journal.open_access},
        )
        item.provenance = {
            name: {"raw": str(getattr(item, name)), "url": item.url, "xpath": "//dd[1]", "extractor": "label"}
            for name in ("issn", "impact_factor", "citescore")
        }
        items.append(item)
    return items


def _batches(items: list[JournalItem]) -> list[list[JournalItem]]:
    return [items[i : i + BATCH_SIZE] for i in range(0, len(items), BATCH_SIZE)]


def _time_store(items: list[JournalItem], folder: Path) -> float:
    engine = engine_from_url(f"sqlite:///{folder / 'store.db'}")
    create_schema(engine)
    started = time.perf_counter()
    for batch in _batches(items):
        write_journals(engine, batch)
    elapsed = time.perf_counter() - started
    engine.dispose()
    return elapsed


def _time_executemany(items: list[JournalItem], folder: Path) -> float:
    engine = engine_from_url(f"sqlite:///{folder / 'reference.db'}")
    create_schema(engine)
    when = utcnow()
    sources = sorted({item.source for item in items})
    with engine.begin() as conn:
        conn.execute(insert(Source), [{"id": i + 1, "name": name} for i, name in enumerate(sources)])
    source_id = {name: i + 1 for i, name in enumerate(sources)}
    ids = {(item.source, item.url): n + 1 for n, item in enumerate(items)}
    started = time.perf_counter()
    for batch in _batches(items):
        journal_rows = [
            {
                "id": ids[item.source, item.url],
                "source_id": source_id[item.source],
                "url": item.url,
                "title": item.title,
                "crawled_at": when,
            }
            for item in batch
        ]
        value_rows = [row for item in batch for row in attribute_rows(item, ids[item.source, item.url], when)]
        with engine.begin() as conn:
            conn.execute(insert(Journal), journal_rows)
            conn.execute(insert(AttributeValue), value_rows)
    elapsed = time.perf_counter() - started
    engine.dispose()
    return elapsed


def bench_store(journals: int = 5000, repeats: int = 3) -> dict[str, float]:
    """Rows per second of the store and of plain executemany (medians over ``repeats``), and their ratio."""
    items = sample_items(journals)
    when = utcnow()
    rows = len(items) + sum(len(attribute_rows(item, 0, when)) for item in items)
    store_times, reference_times = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            store_times.append(_time_store(items, Path(folder)))
            reference_times.append(_time_executemany(items, Path(folder)))
    store_rate = rows / statistics.median(store_times)
    reference_rate = rows / statistics.median(reference_times)
    return {
        "rows": float(rows),
        "store_rows_per_second": store_rate,
        "executemany_rows_per_second": reference_rate,
        "ratio": store_rate / reference_rate,
    }


if __name__ == "__main__":
    print(bench_store())
