"""One row of the journals table from what the integration made of a journal: its fused values, in typed cells.

Pure: the database's rows come in as :class:`TableJournal`, and a flat dict in the order of
:func:`~journals.table.columns.table_columns` comes out, ready for a CSV or JSON file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from journals.table.columns import CURRENCY, KEY, YEAR_SUFFIX, table_columns, value_attributes
from journals.vocabulary import attribute, metric_names

Cell = str | int | float | bool | None
"""What a cell of the table holds."""

WHOLE_NUMBER_TYPES = frozenset({"integer", "money", "days"})
"""Value types written as whole numbers when they are (an h-index of 101, not 101.0)."""


@dataclass(frozen=True)
class FusedCell:
    """One attribute of one journal as the integration fused it."""

    value: str
    """The value as stored text (``true``/``false`` for a boolean)."""
    number: float | None = None
    year: int | None = None
    """The year a metric is for, when a source wrote it."""


@dataclass(frozen=True)
class TableJournal:
    """One integrated journal with what the table shows of it."""

    key: str
    title: str | None
    values: Mapping[str, FusedCell]
    """Attribute → fused value."""
    sources: tuple[str, ...]
    """The sources listing it on their latest crawl, sorted."""
    first_seen: datetime
    last_seen: datetime
    currency: str | None = None
    """The currency its charge was shown in (:func:`journals.domain.money.currency_of`)."""


def cell(name: str, fused: FusedCell | None) -> Cell:
    """A fused value as its column shows it: numbers as numbers (whole ones as ``int`` for counts, amounts and
    days), booleans as booleans, text as text; None when the journal has none."""
    if fused is None:
        return None
    kind = attribute(name).type
    if kind == "boolean":
        return {"true": True, "false": False}.get(fused.value)
    if fused.number is not None and kind not in {"issn", "title", "name", "text", "organisation"}:
        if kind in WHOLE_NUMBER_TYPES and float(fused.number).is_integer():
            return int(fused.number)
        return fused.number
    return fused.value


def table_row(journal: TableJournal) -> dict[str, Cell]:
    """The journal's row: every column of the table, in order, empty ones as None."""
    metrics = set(metric_names())
    row: dict[str, Cell] = {KEY: journal.key}
    for name in value_attributes():
        fused = journal.values.get(name)
        row[name] = cell(name, fused)
        if name == "apc":
            row[CURRENCY] = journal.currency if fused is not None else None
        if name in metrics:
            row[f"{name}{YEAR_SUFFIX}"] = fused.year if fused is not None else None
    row["title"] = journal.title or row["title"]  # the title most of its records agree on, else a fused one
    row["sources"] = ";".join(journal.sources)
    row["first_seen"] = timestamp(journal.first_seen)
    row["last_seen"] = timestamp(journal.last_seen)
    return {column: row.get(column) for column in table_columns()}


def timestamp(when: datetime) -> str:
    """A UTC time as ISO 8601 to the second (``2026-12-05T00:17:10Z``)."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")
