"""The journals table made from the database: one row per real-world journal under its stable key, the latest
value of each attribute, the sources listing it and when it was seen; and the table's history recorded once per
crawl.

This is what a user of the crawl reads (``journals.csv``, ``scrapy export``): the sources' records linked and
their values fused by the integration (:mod:`journals.integration`, run first when a crawl came after it), keys
kept from crawl to crawl (:mod:`journals.table.keys`), cells typed (:mod:`journals.table.rows`). A journal none of
whose sources found it again on their latest crawl is no longer listed: the history says when it disappeared
(:mod:`journals.table.changes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from sqlalchemy import Engine

from journals.domain.money import currency_of
from journals.integration.crawled import integration_inputs, integration_rows
from journals.integration.evaluation import label_vocabulary
from journals.integration.integrator import Integrated, integrate
from journals.store.integration_io import cached_pages, crawled_rows, save_integration
from journals.store.table_io import (
    IntegratedRow,
    ListedJournal,
    Member,
    Snapshot,
    current_since,
    integrated_rows,
    integration_is_stale,
    known_keys,
    latest_crawl,
    record_snapshot,
    snapshot_at,
)
from journals.table.columns import value_attributes
from journals.table.keys import KeyClaim, KnownKey, assign_keys
from journals.table.rows import Cell, TableJournal, cell, table_row


@dataclass(frozen=True)
class JournalTable:
    """The journals table of the latest crawl."""

    rows: list[dict[str, Cell]]
    """One row per journal, by title."""
    snapshot: Snapshot | None
    """The crawl's snapshot in the history; None in a database no crawl wrote to."""
    integrated: bool
    """Whether the integration ran to make it (it had not run since the latest crawl)."""


def integrate_database(engine: Engine) -> tuple[Integrated, list[str]]:
    """Integrate the crawled sources in the database (as ``scrapy integrate`` does) and store the result; returns
    it with the sources whose attributes are candidate rules read off their cached pages."""
    journals, values = crawled_rows(engine)
    inputs = integration_inputs(journals, values, label_vocabulary(), partial(cached_pages, engine))
    result = integrate(inputs.records, inputs.attributes)
    rows = integration_rows(result, inputs.journal_ids)
    save_integration(engine, rows.journals, rows.members, rows.values, rows.mappings)
    return result, inputs.candidate_sources


def latest_table(engine: Engine, *, record: bool = True, integrate: bool = True) -> JournalTable:
    """The journals table of the latest crawl, the integration run first (with ``integrate``) when it is older than
    the crawl or the crawl's table was not recorded yet; with ``record``, the crawl's snapshot is added to the
    history when it is not there yet (a second call after the same crawl records nothing). Without either, the
    database is only read: the table of the integration as it stands."""
    crawled_at = latest_crawl(engine)
    # A crawl whose table is not recorded yet is integrated anew, whatever the clocks say: a crawl may write rows
    # with its own time (another machine's, or one given), older than an integration made before it.
    recorded = snapshot_at(engine, crawled_at) if crawled_at is not None else None
    integrated = integrate and (integration_is_stale(engine) or (crawled_at is not None and recorded is None))
    if integrated:
        integrate_database(engine)
    if crawled_at is None:
        return JournalTable([], None, integrated)
    since = current_since(engine)
    listed: list[tuple[IntegratedRow, list[Member]]] = []
    for journal in integrated_rows(engine):
        current = [m for m in journal.members if m.source not in since or m.crawled_at >= since[m.source]]
        if current:
            listed.append((journal, current))
    known, first_seen = known_keys(engine)
    keys = assign_keys([_claim(journal, current) for journal, current in listed], known)
    journals = [
        TableJournal(
            key=key.key,
            title=journal.title,
            values=journal.values,
            sources=tuple(sorted({member.source for member in current})),
            first_seen=first_seen.get(key.key, min(member.crawled_at for member in current)),
            last_seen=max(member.crawled_at for member in current),
            currency=_currency(journal, current),
        )
        for (journal, current), key in zip(listed, keys, strict=True)
    ]
    snapshot = recorded
    if snapshot is None and record:
        snapshot = record_snapshot(
            engine,
            crawled_at,
            [_listed(table, key, journal) for table, key, (journal, _) in zip(journals, keys, listed, strict=True)],
        )
    rows = sorted(
        (table_row(journal) for journal in journals),
        key=lambda row: (str(row["title"] or "").casefold(), str(row["key"])),
    )
    return JournalTable(rows, snapshot, integrated)


def _claim(journal: IntegratedRow, current: list[Member]) -> KeyClaim:
    """What the journal offers to be known by: its fused ISSNs, every ISSN its records show, its title."""
    issn, eissn = journal.values.get("issn"), journal.values.get("eissn")
    return KeyClaim(
        issn=issn.value if issn else None,
        eissn=eissn.value if eissn else None,
        issns=frozenset(issn for member in current for issn in member.issns),
        title=journal.title,
    )


def _currency(journal: IntegratedRow, current: list[Member]) -> str | None:
    """The currency of the journal's charge: as a source that gave the fused amount wrote it, else any source."""
    supporters = set(journal.supporters.get("apc", ()))
    ranked = sorted(current, key=lambda member: member.source not in supporters)
    return next((found for member in ranked if (found := currency_of(member.apc_raw)) is not None), None)


def _listed(table: TableJournal, key: KnownKey, journal: IntegratedRow) -> ListedJournal:
    """The journal as its snapshot records it: each attribute's cell as text, with its number, year and sources."""
    values = {}
    for name in value_attributes():
        fused = journal.values.get(name)
        shown = cell(name, fused)
        if fused is None or shown is None:
            continue
        text = ("true" if shown else "false") if isinstance(shown, bool) else str(shown)
        values[name] = (text, fused.number, fused.year, ";".join(sorted(journal.supporters.get(name, ()))))
    return ListedJournal(key, table.title, table.first_seen, table.last_seen, values)
