"""Reading and writing the ``journal_keys`` table (:class:`~journals.store.models.JournalKey`): the keys under which a
source's journal is known, so that one journal found under several URLs is stored once
(:mod:`journals.journal_identity` says when two records are one journal).

A key is claimed by inserting it under a unique index, never by looking first: two writers (two workers on one
PostgreSQL, two crawls on one SQLite file) that find one journal under two URLs at once both insert the key and
the index lets one win; the other reads the winner's URL back in the same transaction and writes there. On
PostgreSQL a writer that inserts a key another one holds uncommitted waits for its commit, and keys are inserted
in sorted order so that two writers do not wait for each other in a cycle (a deadlock left is an
``OperationalError``, which the store pipeline retries). On SQLite writers take turns on the database's one write
lock, and the same check holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import TypeVar

from sqlalchemy import Engine, and_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from journals.journal_identity import Claim, KeyedRecord, Resolution, identity_keys, resolve
from journals.store.models import AttributeValue, Journal, JournalKey, Source
from journals.store.upserts import dialect_insert, storable

QUERY_CHUNK = 500
"""Keys per ``IN (...)`` list: well under SQLite's and PostgreSQL's limits on bound parameters."""
ISSN_ATTRIBUTES = ("issn", "eissn")
UNWRITTEN = 1 << 62
"""Age of a claim whose journal row is not written yet: after any journal id."""
_T = TypeVar("_T")


def resolve_urls(conn: Connection, ids_by_source: Mapping[str, int], records: Sequence[KeyedRecord]) -> Resolution:
    """The URL each record is stored under, with the new claims taken and the aliases written.

    Runs in the caller's transaction, so a batch that fails leaves no claim behind. When another writer took
    one of the keys between our look and our insert, the records are resolved again on what the database now
    holds: every key is then claimed, and everyone agrees on the oldest. ``ids_by_source`` maps each record's
    source to its id.
    """
    keys = sorted({key for record in records for key in (*record.identity, record.alias)})
    resolution = resolve(records, _claims(conn, keys))
    source_of = {key: ids_by_source[record.source] for record in records for key in (*record.identity, record.alias)}
    if resolution.new_claims:
        wanted = sorted(resolution.new_claims.items())
        taken = _insert(conn, source_of, "identity", wanted, on_conflict="nothing")
        if len(taken) < len(wanted):
            resolution = resolve(records, _claims(conn, keys))
    if resolution.aliases:
        _insert(conn, source_of, "alias", sorted(resolution.aliases.items()), on_conflict="update")
    for (source, old), new in sorted(resolution.moves.items()):
        _move_journal(conn, ids_by_source[source], old, new)
    return resolution


def _move_journal(conn: Connection, source_id: int, old: str, new: str) -> None:
    """Store the journal of ``source_id`` at ``old`` under ``new`` from now on, its id and keys kept.

    Left where it is when ``new`` is a journal row already (two rows of one place, written before places were
    keys): the later write then updates that row, and nothing is merged or deleted.
    """
    target = aliased(Journal)
    taken = select(target.id).where(target.source_id == source_id, target.url == new).exists()
    moved = conn.execute(
        update(Journal).where(Journal.source_id == source_id, Journal.url == old, ~taken).values(url=new)
    )
    if moved.rowcount or not conn.execute(select(taken)).scalar():
        conn.execute(update(JournalKey).where(JournalKey.source_id == source_id, JournalKey.url == old).values(url=new))


def _claims(conn: Connection, keys: Sequence[str]) -> dict[str, Claim]:
    """What the database holds of ``keys``, each aged by the id of the journal row it leads to (a claim whose
    journal is not written yet, taken earlier in this transaction, after every stored one)."""
    claims = {}
    stored = and_(Journal.source_id == JournalKey.source_id, Journal.url == JournalKey.url)
    for chunk in _chunks(keys):
        rows = conn.execute(
            select(JournalKey.key, JournalKey.url, JournalKey.id, Journal.id)
            .outerjoin(Journal, stored)
            .where(JournalKey.key.in_(chunk))
        )
        claims.update(
            {
                key: Claim(url, journal_id if journal_id is not None else UNWRITTEN + key_id)
                for key, url, key_id, journal_id in rows
            }
        )
    return claims


def _insert(
    conn: Connection, source_of: Mapping[str, int], kind: str, keys: Sequence[tuple[str, str]], *, on_conflict: str
) -> set[str]:
    """Insert ``(key, url)`` rows of one kind, sorted by key; a key held already is kept (``nothing``) or
    repointed (``update``). Returns the keys this statement inserted or repointed."""
    rows = [{"source_id": source_of[key], "key": key, "kind": kind, "url": url} for key, url in keys]
    stmt = dialect_insert(conn)(JournalKey)
    if on_conflict == "update":
        stmt = stmt.on_conflict_do_update(
            index_elements=["key"], set_={"url": stmt.excluded.url, "kind": stmt.excluded.kind}
        )
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=["key"])
    return set(conn.execute(stmt.returning(JournalKey.key), storable(conn, rows)).scalars())


def backfill_journal_keys(engine: Engine) -> int:
    """Give the journals stored before ``journal_keys`` existed their identity keys; return the keys written.

    Runs only while the table is empty (a database written by this code has them all already), oldest journal
    first, so that among journals a site stored twice the first URL stored keeps the identity. Journals stored
    twice before stay two rows (nothing is merged or deleted): later items of either URL update the oldest.
    """
    with engine.begin() as conn:
        # One row is enough to know (a count would read every key of a big database on every crawl's start).
        if conn.execute(select(JournalKey.id).limit(1)).first() is not None:
            return 0
        rows = conn.execute(
            select(Journal.id, Journal.source_id, Journal.url, Journal.title, AttributeValue.value)
            .join(AttributeValue, AttributeValue.journal_id == Journal.id)
            .where(AttributeValue.attribute.in_(ISSN_ATTRIBUTES), Journal.title.is_not(None))
            .order_by(Journal.id)
        ).all()
        journals: dict[int, tuple[int, str, str | None, list[str | None]]] = {}
        for journal_id, source_id, url, title, issn in rows:
            journals.setdefault(journal_id, (source_id, url, title, []))[3].append(issn)
        names = dict(conn.execute(select(Source.id, Source.name)).all())
        claimed: dict[str, str] = {}
        source_of: dict[str, int] = {}
        for source_id, url, title, issns in journals.values():
            for key in identity_keys(names[source_id], title, issns):
                claimed.setdefault(key, url)
                source_of[key] = source_id
        for chunk in _chunks(sorted(claimed.items())):
            _insert(conn, source_of, "identity", chunk, on_conflict="nothing")
    return len(claimed)


def _chunks(values: Iterable[_T]) -> Iterator[list[_T]]:
    """``values`` in lists of at most :data:`QUERY_CHUNK`."""
    iterator = iter(values)
    while chunk := list(islice(iterator, QUERY_CHUNK)):
        yield chunk
