"""Copy a database (PostgreSQL, say) into a fresh SQLite file, for tools that read SQLite only (Datasette).

Every table of the project's schema is copied except the page cache (large, and of no use to a reader), and the
browsing views (:mod:`journals.store.views`) are created on the copy. The copy is a snapshot: later crawls do not
reach it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sqlalchemy import Engine, insert, inspect, select

from journals.store.database import create_schema, engine_from_url
from journals.store.models import Base
from journals.store.views import create_views

SKIPPED_TABLES = ("cached_pages", "schema_version")
"""Not copied: the page cache, and the version row that :func:`create_schema` writes itself."""

BATCH_ROWS = 2000


def copy_to_sqlite(source: Engine, target: Path, skip: Iterable[str] = SKIPPED_TABLES) -> dict[str, int]:
    """Replace the SQLite file ``target`` with a copy of ``source``'s tables and the browsing views; returns rows
    copied per table.

    The tables of :mod:`journals.store.models` present in ``source`` are copied, parents before children.
    """
    skipped = set(skip)
    for leftover in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        leftover.unlink(missing_ok=True)
    copy = engine_from_url(f"sqlite:///{target}")
    copied: dict[str, int] = {}
    try:
        create_schema(copy)
        present = set(inspect(source).get_table_names())
        with source.connect() as reading, copy.begin() as writing:
            for table in Base.metadata.sorted_tables:
                if table.name in skipped or table.name not in present:
                    continue
                copied[table.name] = 0
                rows = reading.execution_options(yield_per=BATCH_ROWS).execute(select(table)).mappings()
                for batch in rows.partitions():
                    writing.execute(insert(table), [dict(row) for row in batch])
                    copied[table.name] += len(batch)
        create_views(copy)
    finally:
        copy.dispose()
    return copied
