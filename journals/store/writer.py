"""Writing journal items as rows: one transaction per batch, upserts so that a re-crawl never duplicates."""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.engine import Connection

from journals.items import JournalItem
from journals.journal_identity import KeyedRecord, identity_keys
from journals.store.journal_keys import resolve_urls
from journals.store.models import AttributeHistory, AttributeValue, Journal, Page, utcnow
from journals.store.upserts import dialect_insert, source_ids, storable
from journals.vocabulary import core_attribute_names


@dataclass(frozen=True)
class Duplicate:
    """A journal item stored under another URL than its own: a journal of its source stored already."""

    source: str
    url: str
    """The URL the item was found under."""
    stored_url: str
    """The URL of the journal row it updated."""


@dataclass(frozen=True)
class WriteResult:
    """What one call of :func:`write_journals` wrote."""

    journals: int
    """Journal rows inserted or updated (items of one journal in the batch count once)."""
    attribute_rows: int
    """Attribute-value rows inserted or updated."""
    duplicates: tuple[Duplicate, ...] = ()
    """Items stored under another URL than their own, in the order of the batch."""


def write_journals(engine: Engine, items: Sequence[JournalItem], crawled_at: datetime | None = None) -> WriteResult:
    """Upsert ``items`` in one transaction: sources, journals, and one attribute row per non-null value.

    A journal is keyed by (source, url) and an attribute row by (journal, attribute), so writing the same
    items again updates rows in place. One journal found under several URLs is one row, under the first URL
    stored: an item with the title and an ISSN of a journal of its source stored already updates that journal,
    and so does an item found at a place (a URL whatever its scheme and port) where an item of that journal was
    found before (see :mod:`journals.journal_identity` and :mod:`journals.store.journal_keys`). A journal found
    at its own place under a new scheme or port keeps its row, which takes the new URL. Attributes an item no longer has
    keep their older row and ``crawled_at``. When a batch holds the same journal twice, the later item wins.
    An ``unchanged`` item (a re-crawl found its pages unchanged) only moves its stored rows' ``crawled_at``.
    ``crawled_at`` defaults to now (UTC).
    """
    if not items:
        return WriteResult(journals=0, attribute_rows=0)
    when = crawled_at or utcnow()
    with engine.begin() as conn:
        ids_by_source = source_ids(conn, (item.source for item in items))
        stored, duplicates = _one_row_per_journal(conn, ids_by_source, items)
        by_key = {(item.source, item.url): item for item in stored}
        unchanged = [item for item in by_key.values() if item.unchanged]
        latest = [item for item in by_key.values() if not item.unchanged]
        if unchanged:
            _reconfirm(conn, ids_by_source, unchanged, when)
        if not latest:
            return WriteResult(journals=0, attribute_rows=0, duplicates=duplicates)
        journal_ids = _upsert_journals(conn, ids_by_source, latest, when)
        rows = [row for item in latest for row in attribute_rows(item, journal_ids[item.source, item.url], when)]
        _upsert_attribute_values(conn, storable(conn, rows))
        _upsert_pages(conn, ids_by_source, latest, when)
    return WriteResult(journals=len(latest), attribute_rows=len(rows), duplicates=duplicates)


def _one_row_per_journal(
    conn: Connection, ids_by_source: Mapping[str, int], items: Sequence[JournalItem]
) -> tuple[list[JournalItem], tuple[Duplicate, ...]]:
    """The items, each with the URL of the journal row it belongs to (a copy when that is not its own URL), and
    the duplicates among them. The items given are left as they are: feeds export the URL found."""
    urls = resolve_urls(conn, ids_by_source, [_keyed(item) for item in items]).urls
    pairs = list(zip(items, urls, strict=True))
    stored = [item if url == item.url else dataclasses.replace(item, url=url) for item, url in pairs]
    duplicates = tuple(Duplicate(item.source, item.url, url) for item, url in pairs if url != item.url)
    return stored, duplicates


def _keyed(item: JournalItem) -> KeyedRecord:
    """The item as :func:`journals.journal_identity.resolve` sees it (an unchanged item carries no values)."""
    identity = () if item.unchanged else identity_keys(item.source, item.title, (item.issn, item.eissn))
    return KeyedRecord(item.source, item.url, identity)


def _upsert_journals(
    conn: Connection, ids_by_source: Mapping[str, int], items: list[JournalItem], when: datetime
) -> dict[tuple[str, str], int]:
    """Insert or update one row per item; return the id of each by (source name, url)."""
    names_by_id = {source_id: name for name, source_id in ids_by_source.items()}
    insert = dialect_insert(conn)
    stmt = insert(Journal)
    stmt = stmt.on_conflict_do_update(
        index_elements=["source_id", "url"],
        # A re-crawl that missed the title keeps the one found before.
        set_={
            "title": func.coalesce(stmt.excluded.title, Journal.title),
            "crawled_at": stmt.excluded.crawled_at,
        },
    ).returning(Journal.id, Journal.source_id, Journal.url)
    params = [
        {"source_id": ids_by_source[item.source], "url": item.url, "title": item.title, "crawled_at": when}
        for item in items
    ]
    rows = conn.execute(stmt, storable(conn, params))
    return {(names_by_id[source_id], url): journal_id for journal_id, source_id, url in rows}


def _reconfirm(conn: Connection, ids_by_source: Mapping[str, int], items: list[JournalItem], when: datetime) -> None:
    """Mark the stored rows of journals a re-crawl found unchanged as confirmed at ``when``."""
    for source, source_id in ids_by_source.items():
        urls = [item.url for item in items if item.source == source]
        if not urls:  # a source of the batch with no unchanged item
            continue
        journal_ids = select(Journal.id).where(Journal.source_id == source_id, Journal.url.in_(urls))
        conn.execute(update(AttributeValue).where(AttributeValue.journal_id.in_(journal_ids)).values(crawled_at=when))
        conn.execute(update(Journal).where(Journal.id.in_(journal_ids)).values(crawled_at=when))


def _upsert_pages(conn: Connection, ids_by_source: Mapping[str, int], items: list[JournalItem], when: datetime) -> None:
    """Insert or update the pages the items were read from, keyed by URL (a listing page serves many items)."""
    rows = {
        page["url"]: {
            "url": page["url"],
            "source_id": ids_by_source[item.source],
            "role": page["role"],
            "template": page.get("template"),
            "fetched_at": when,
        }
        for item in items
        for page in item.pages
        if page.get("url") and page.get("role")
    }
    if not rows:
        return
    stmt = dialect_insert(conn)(Page)
    stmt = stmt.on_conflict_do_update(
        index_elements=["url"],
        set_={"role": stmt.excluded.role, "template": stmt.excluded.template, "fetched_at": stmt.excluded.fetched_at},
    )
    conn.execute(stmt, storable(conn, list(rows.values())))


def _upsert_attribute_values(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Insert or update attribute rows keyed by (journal, attribute); a stored value that a row replaces with
    another value or year is kept in ``attribute_history`` first.

    A row a re-crawl found exactly as stored (most of them, and all of an offline replay's) only has its
    ``crawled_at`` moved, in one statement per chunk of rows, rather than being written again: the upsert of every
    column of every row was most of a re-crawl's writing.
    """
    if not rows:
        return
    stored = _stored_values(conn, rows)
    changed, same = [], []
    for row in rows:
        found = stored.get(_row_key(row))
        if found is not None and found[1] == _compared(row):
            same.append(found[0])
        else:
            changed.append(row)
    _keep_superseded(conn, [row for row in changed if _row_key(row) in stored], stored)
    if same:
        when = rows[0]["crawled_at"]
        for start in range(0, len(same), CHUNK_ROWS):
            chunk = same[start : start + CHUNK_ROWS]
            conn.execute(update(AttributeValue).where(AttributeValue.id.in_(chunk)).values(crawled_at=when))
    if not changed:
        return
    insert = dialect_insert(conn)
    stmt = insert(AttributeValue)
    stmt = stmt.on_conflict_do_update(
        index_elements=["journal_id", "attribute"],
        set_={column: stmt.excluded[column] for column in (*COMPARED_COLUMNS, "crawled_at")},
    )
    conn.execute(stmt, changed)


CHUNK_ROWS = 500
"""Journals or (journal, attribute) pairs named in one statement's ``IN``: below every database's limit of bound
parameters."""
COMPARED_COLUMNS = ("raw_value", "value", "number", "page_url", "xpath", "extractor", "year")
"""The columns of an attribute row a crawl writes from what it read (``crawled_at`` aside): a row whose columns all
equal the stored row's is unchanged."""
HISTORY_COLUMNS = ("journal_id", "attribute", "raw_value", "value", "number", "year", "page_url", "crawled_at")
"""The columns of an attribute row that ``attribute_history`` keeps."""


def _row_key(row: Mapping[str, Any]) -> tuple[int, str]:
    return row["journal_id"], row["attribute"]


def _compared(row: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(row[column] for column in COMPARED_COLUMNS)


def _stored_values(conn: Connection, rows: list[dict[str, Any]]) -> dict[tuple[int, str], tuple[int, tuple[Any, ...]]]:
    """The id and compared columns of the stored attribute rows of the journals ``rows`` belong to, by (journal,
    attribute)."""
    journal_ids = sorted({row["journal_id"] for row in rows})
    columns: list[Any] = [AttributeValue.journal_id, AttributeValue.attribute, AttributeValue.id]
    columns += [getattr(AttributeValue, name) for name in COMPARED_COLUMNS]
    stored: dict[tuple[int, str], tuple[int, tuple[Any, ...]]] = {}
    for start in range(0, len(journal_ids), CHUNK_ROWS):
        chunk = journal_ids[start : start + CHUNK_ROWS]
        for row in conn.execute(select(*columns).where(AttributeValue.journal_id.in_(chunk))):
            stored[row[0], row[1]] = row[2], tuple(row[3:])
    return stored


def _keep_superseded(
    conn: Connection, rows: list[dict[str, Any]], stored: Mapping[tuple[int, str], tuple[int, tuple[Any, ...]]]
) -> None:
    """Copy to ``attribute_history`` each stored attribute row whose value or year ``rows`` change (``stored``:
    the id and compared columns of the stored rows)."""
    value_at, year_at = COMPARED_COLUMNS.index("value"), COMPARED_COLUMNS.index("year")
    replaced = {
        _row_key(row): row
        for row in rows
        if (stored[_row_key(row)][1][value_at], stored[_row_key(row)][1][year_at]) != (row["value"], row["year"])
    }
    if not replaced:
        return
    columns = [getattr(AttributeValue, name) for name in HISTORY_COLUMNS]
    ids = [stored[key][0] for key in replaced]
    superseded = []
    for start in range(0, len(ids), CHUNK_ROWS):
        for old in conn.execute(select(*columns).where(AttributeValue.id.in_(ids[start : start + CHUNK_ROWS]))):
            new = replaced[old.journal_id, old.attribute]
            superseded.append(dict(old._mapping) | {"superseded_at": new["crawled_at"]})
    if superseded:
        conn.execute(insert(AttributeHistory), superseded)


def attribute_rows(item: JournalItem, journal_id: int, crawled_at: datetime) -> list[dict[str, Any]]:
    """The attribute-value rows of one item: each non-null core field, then each entry of ``attributes``.

    Raw text, page URL, XPath, extractor and the metric's year come from ``item.provenance[attribute]`` and are
    null when absent.
    """
    values: dict[str, Any] = {}
    for name in core_attribute_names():
        value = getattr(item, name, None)
        if value is not None:
            values[name] = value
    for name, value in item.attributes.items():
        if value is not None and name not in values:
            values[name] = value
    rows = []
    for name, value in values.items():
        provenance = item.provenance.get(name) or {}
        rows.append(
            {
                "journal_id": journal_id,
                "attribute": name,
                "raw_value": _text_or_none(provenance.get("raw")),
                "value": value_as_text(value),
                "number": value_as_number(value),
                "page_url": _text_or_none(provenance.get("url")),
                "xpath": _text_or_none(provenance.get("xpath")),
                "extractor": _text_or_none(provenance.get("extractor")),
                "year": metric_year(provenance),
                "crawled_at": crawled_at,
            }
        )
    return rows


def value_as_text(value: Any) -> str:
    """A normalised value as stored text: strings verbatim, ``true``/``false``, numbers, else compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Real):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def value_as_number(value: Any) -> float | None:
    """The value as a float when it is a finite real number (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def metric_year(provenance: Mapping[str, Any]) -> int | None:
    """The year a provenance entry says its metric is for, when it is a plausible one (an ``int`` of 1900–2100)."""
    year = provenance.get("year")
    return year if isinstance(year, int) and not isinstance(year, bool) and 1900 <= year <= 2100 else None


def _text_or_none(value: Any) -> str | None:
    """``None`` stays ``None``; anything else becomes its text."""
    return None if value is None else str(value)
