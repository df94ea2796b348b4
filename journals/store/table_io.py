"""The queries of the journals table: the integrated journals with their source records read, the stable keys
and the history (snapshots, journals, values) read and written.

What the rows mean (keys, cells, changes) is worked out in :mod:`journals.table`, which needs no database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection

from journals.store.models import (
    AttributeValue,
    CrawlRun,
    IntegratedJournal,
    IntegratedMember,
    IntegratedValue,
    Journal,
    Source,
    TableJournalRow,
    TableSnapshot,
    ValueHistory,
    utcnow,
)
from journals.table.changes import JournalSpan, ValueSpan
from journals.table.keys import KnownKey
from journals.table.rows import FusedCell, timestamp

RESUMED_STAT = "resume/stored_journals"
"""The crawl stat of a resumed ``JOBDIR`` job: the journals it had stored before the run, which the run skips."""


@dataclass
class Member:
    """One source record linked into an integrated journal."""

    source: str
    crawled_at: datetime
    issns: set[str] = field(default_factory=set)
    apc_raw: str | None = None
    """The charge as its page wrote it, currency and all."""


@dataclass
class IntegratedRow:
    """One integrated journal as the database holds it: its fused values and its source records."""

    id: int
    title: str | None
    values: dict[str, FusedCell] = field(default_factory=dict)
    supporters: dict[str, list[str]] = field(default_factory=dict)
    """Attribute → the sources whose value agrees with the fused one."""
    members: list[Member] = field(default_factory=list)


@dataclass(frozen=True)
class Snapshot:
    """A recorded snapshot of the table (a row of ``table_snapshots``)."""

    id: int
    crawled_at: datetime
    crawl_run_id: int | None
    journals: int


@dataclass(frozen=True)
class History:
    """Everything the history holds: the snapshots, oldest first, and the journals' and values' spans."""

    snapshots: list[Snapshot]
    journals: list[JournalSpan]
    values: list[ValueSpan]


def latest_crawl(engine: Engine) -> datetime | None:
    """When the latest crawl last wrote a journal (``journals.crawled_at``); None in an empty database."""
    with engine.connect() as conn:
        return conn.scalar(select(func.max(Journal.crawled_at)))


def integration_is_stale(engine: Engine) -> bool:
    """Whether ``scrapy integrate`` has not run since the latest crawl wrote a journal (or has never run)."""
    with engine.connect() as conn:
        integrated = conn.scalar(select(func.max(IntegratedJournal.integrated_at)))
        crawled = conn.scalar(select(func.max(Journal.crawled_at)))
    return integrated is None or (crawled is not None and integrated < crawled)


def current_since(engine: Engine) -> dict[str, datetime]:
    """Per source, when its latest crawl began: its records written since are listed by it now, older ones were
    not found again. A source whose latest crawl was not recorded (``CRAWL_RUNS_ENABLED`` off), or resumed a
    ``JOBDIR`` job (which skips the journals stored before), keeps every record: it maps to no time."""
    with engine.connect() as conn:
        latest = dict(
            conn.execute(select(Source.name, func.max(Journal.crawled_at)).join(Journal).group_by(Source.name)).all()
        )
        runs = conn.execute(select(CrawlRun.started_at, CrawlRun.finished_at, CrawlRun.stats)).all()
    since: dict[str, datetime] = {}
    for source, when in latest.items():
        covering = [(started, stats) for started, finished, stats in runs if started and started <= when <= finished]
        if not covering:
            continue
        started, stats = max(covering, key=lambda run: run[0])
        if not json.loads(stats or "{}").get(RESUMED_STAT):
            since[source] = started
    return since


def integrated_rows(engine: Engine) -> list[IntegratedRow]:
    """Every integrated journal with its fused values, their supporters and its source records (with the ISSNs
    and the charge each record showed), in ``integrated_journals`` order."""
    with engine.connect() as conn:
        journals = {
            jid: IntegratedRow(jid, title)
            for jid, title in conn.execute(
                select(IntegratedJournal.id, IntegratedJournal.title).order_by(IntegratedJournal.id)
            )
        }
        fused = select(
            IntegratedValue.integrated_journal_id,
            IntegratedValue.attribute,
            IntegratedValue.value,
            IntegratedValue.number,
            IntegratedValue.year,
            IntegratedValue.supporters,
        )
        for jid, attribute, value, number, year, supporters in conn.execute(fused):
            journals[jid].values[attribute] = FusedCell(value, number, year)
            journals[jid].supporters[attribute] = list(json.loads(supporters or "[]"))
        members: dict[int, Member] = {}
        member_rows = (
            select(IntegratedMember.integrated_journal_id, Journal.id, Source.name, Journal.crawled_at)
            .join(Journal, Journal.id == IntegratedMember.journal_id)
            .join(Source, Source.id == Journal.source_id)
        )
        for jid, journal_id, source, crawled_at in conn.execute(member_rows):
            members[journal_id] = Member(source, crawled_at)
            journals[jid].members.append(members[journal_id])
        shown = select(
            AttributeValue.journal_id, AttributeValue.attribute, AttributeValue.value, AttributeValue.raw_value
        )
        for journal_id, name, text, raw in conn.execute(
            shown.where(AttributeValue.attribute.in_(("issn", "eissn", "apc")))
        ):
            member = members.get(journal_id)
            if member is None:
                continue
            if name == "apc":
                member.apc_raw = raw
            elif text:
                member.issns.add(text)
    return list(journals.values())


def known_keys(engine: Engine) -> tuple[list[KnownKey], dict[str, datetime]]:
    """The keys given before, and when each journal was first seen."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(TableJournalRow.key, TableJournalRow.issns, TableJournalRow.title_key, TableJournalRow.first_seen_at)
        ).all()
    known = [KnownKey(key, frozenset(filter(None, issns.split(";"))), title) for key, issns, title, _ in rows]
    return known, {key: first for key, _, _, first in rows}


def snapshot_at(engine: Engine, crawled_at: datetime) -> Snapshot | None:
    """The snapshot recorded for the crawl that wrote its latest journal at ``crawled_at``, if there is one."""
    with engine.connect() as conn:
        row = conn.execute(
            select(
                TableSnapshot.id, TableSnapshot.crawled_at, TableSnapshot.crawl_run_id, TableSnapshot.journals
            ).where(TableSnapshot.crawled_at == crawled_at)
        ).first()
    return None if row is None else Snapshot(*row)


@dataclass(frozen=True)
class ListedJournal:
    """A journal as a snapshot records it: its key and identity, and the values it showed."""

    key: KnownKey
    title: str | None
    first_seen: datetime
    """When a crawl first found it (its earliest record's time, for a journal new to the table)."""
    last_seen: datetime
    """When a crawl last found it."""
    values: dict[str, tuple[str, float | None, int | None, str]]
    """Attribute → the cell as text, its number, its year and the sources that gave it (``;``-separated)."""


def record_snapshot(engine: Engine, crawled_at: datetime, listed: Sequence[ListedJournal]) -> Snapshot:
    """Record the table of the crawl whose latest journal was written at ``crawled_at``: a snapshot, each listed
    journal's span and each of its values' spans carried to it (a value not seen before starts a span of its
    own). In one transaction."""
    with engine.begin() as conn:
        run_id = conn.scalar(
            select(CrawlRun.id)
            .where(CrawlRun.started_at <= crawled_at, CrawlRun.finished_at >= crawled_at)
            .order_by(CrawlRun.id.desc())
        )
        snapshot_id = conn.execute(
            insert(TableSnapshot).returning(TableSnapshot.id),
            [{"crawled_at": crawled_at, "crawl_run_id": run_id, "recorded_at": utcnow(), "journals": len(listed)}],
        ).scalar_one()
        _carry_journals(conn, snapshot_id, listed)
        _carry_values(conn, snapshot_id, crawled_at, listed)
    return Snapshot(snapshot_id, crawled_at, run_id, len(listed))


def _carry_journals(conn: Connection, snapshot_id: int, listed: Sequence[ListedJournal]) -> None:
    """Extend the span of each listed journal to the snapshot, its ISSNs and title brought up to date."""
    stored = dict(conn.execute(select(TableJournalRow.key, TableJournalRow.id)).all())
    updates, inserts = [], []
    for journal in listed:
        row = {
            "key": journal.key.key,
            "title": journal.title,
            "title_key": journal.key.title,
            "issns": ";".join(sorted(journal.key.issns)),
            "last_snapshot_id": snapshot_id,
            "last_seen_at": journal.last_seen,
        }
        if journal.key.key in stored:
            updates.append({"row_id": stored[journal.key.key], **row})
        else:
            inserts.append({**row, "first_snapshot_id": snapshot_id, "first_seen_at": journal.first_seen})
    _update_by_id(conn, TableJournalRow, updates)
    if inserts:
        conn.execute(insert(TableJournalRow), inserts)


def _carry_values(conn: Connection, snapshot_id: int, when: datetime, listed: Sequence[ListedJournal]) -> None:
    """Extend the span of each value shown to the snapshot; start one for each value not seen before."""
    keys = [journal.key.key for journal in listed]
    stored: dict[tuple[str, str, str, int | None], int] = {}
    for chunk in _chunks(keys, 500):
        query = select(
            ValueHistory.id, ValueHistory.journal_key, ValueHistory.attribute, ValueHistory.value, ValueHistory.year
        ).where(ValueHistory.journal_key.in_(chunk))
        for row_id, key, attribute, value, year in conn.execute(query):
            stored[key, attribute, value, year] = row_id
    updates, inserts = [], []
    for journal in listed:
        for attribute, (value, number, year, sources) in journal.values.items():
            found = stored.get((journal.key.key, attribute, value, year))
            row = {"number": number, "sources": sources, "last_snapshot_id": snapshot_id, "last_seen_at": when}
            if found is not None:
                updates.append({"row_id": found, **row})
            else:
                identity = {"journal_key": journal.key.key, "attribute": attribute, "value": value, "year": year}
                inserts.append({**identity, **row, "first_snapshot_id": snapshot_id, "first_seen_at": when})
    _update_by_id(conn, ValueHistory, updates)
    if inserts:
        conn.execute(insert(ValueHistory), inserts)


def _update_by_id(
    conn: Connection, model: type[TableJournalRow] | type[ValueHistory], rows: list[dict[str, Any]]
) -> None:
    """An executemany ``UPDATE`` of ``rows``, each naming its row by ``row_id``."""
    if not rows:
        return
    columns: dict[str, Any] = {name: bindparam(name) for name in rows[0] if name != "row_id"}
    conn.execute(update(model).where(model.id == bindparam("row_id")).values(columns), rows)


def _chunks(items: Sequence[str], size: int) -> Iterable[Sequence[str]]:
    """``items`` in slices of at most ``size`` (an ``IN`` list stays within every backend's bound)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def read_history(engine: Engine) -> History:
    """The whole history: snapshots oldest first, every journal's and every value's span."""
    with engine.connect() as conn:
        snapshots = [
            Snapshot(*row)
            for row in conn.execute(
                select(
                    TableSnapshot.id, TableSnapshot.crawled_at, TableSnapshot.crawl_run_id, TableSnapshot.journals
                ).order_by(TableSnapshot.id)
            )
        ]
        journals = [
            JournalSpan(*row)
            for row in conn.execute(
                select(
                    TableJournalRow.key,
                    TableJournalRow.title,
                    TableJournalRow.first_snapshot_id,
                    TableJournalRow.last_snapshot_id,
                )
            )
        ]
        values = [
            ValueSpan(*row)
            for row in conn.execute(
                select(
                    ValueHistory.journal_key,
                    ValueHistory.attribute,
                    ValueHistory.value,
                    ValueHistory.year,
                    ValueHistory.first_snapshot_id,
                    ValueHistory.last_snapshot_id,
                    ValueHistory.number,
                )
            )
        ]
    return History(snapshots, journals, values)


def history_rows(engine: Engine) -> list[dict[str, Any]]:
    """The value history as flat rows (key, title, attribute, value, year, sources, first and last seen), by key,
    attribute and year: the history feed."""
    query = (
        select(
            ValueHistory.journal_key.label("key"),
            TableJournalRow.title,
            ValueHistory.attribute,
            ValueHistory.value,
            ValueHistory.year,
            ValueHistory.sources,
            ValueHistory.first_seen_at,
            ValueHistory.last_seen_at,
        )
        .join(TableJournalRow, TableJournalRow.key == ValueHistory.journal_key)
        .order_by(ValueHistory.journal_key, ValueHistory.attribute, ValueHistory.year, ValueHistory.first_seen_at)
    )
    with engine.connect() as conn:
        rows = [dict(row._mapping) for row in conn.execute(query)]
    for row in rows:
        row["first_seen_at"], row["last_seen_at"] = timestamp(row["first_seen_at"]), timestamp(row["last_seen_at"])
    return rows
