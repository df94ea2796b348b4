"""One journal found under several URLs is one row: within a batch, across batches and crawls, after an upgrade,
and between two writers on one PostgreSQL database."""

from __future__ import annotations

import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select, text
from sqlalchemy.exc import IntegrityError

from journals.items import JournalItem
from journals.journal_identity import KeyedRecord, identity_keys
from journals.store import Duplicate, create_schema, engine_from_url, write_journals
from journals.store.journal_keys import backfill_journal_keys, resolve_urls
from journals.store.models import AttributeValue, Journal, JournalKey
from journals.store.upserts import source_ids

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "operations"))
from server_fixtures import postgres_fixture  # noqa: F401  (pytest fixture)
from servers import PostgresServer

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
LANCET = "0140-6736"
LANCET_ONLINE = "1474-547X"
BMJ = "0959-8138"


def lancet(session="1", **changes):
    """The Lancet of source ``site`` as a link carrying session id ``session`` shows it."""
    fields = {
        "source": "site",
        "url": f"https://site.example/j/lancet?sid={session}",
        "title": "The Lancet",
        "issn": LANCET,
        "impact_factor": 98.4,
    }
    fields.update(changes)
    return JournalItem(**fields)


def journals(engine):
    """``(url, title, crawled_at)`` of every journal row."""
    with engine.connect() as conn:
        return conn.execute(select(Journal.url, Journal.title, Journal.crawled_at).order_by(Journal.id)).all()


def value(engine, attribute, url=None):
    """One attribute's value of the journal at ``url`` (the Lancet's first URL by default)."""
    url = url or lancet().url
    with engine.connect() as conn:
        return conn.execute(
            select(AttributeValue.value).join(Journal).where(Journal.url == url, AttributeValue.attribute == attribute)
        ).scalar_one_or_none()


def test_one_batch_stores_a_journal_of_many_urls_once_under_the_first(engine):
    items = [lancet(str(n), impact_factor=float(n)) for n in range(117)]
    items[5] = lancet("5", title="  THE   LANCET ", impact_factor=5.0)  # case and spacing
    items.insert(50, lancet("bmj", title="BMJ", issn=BMJ))
    result = write_journals(engine, items, T0)
    assert [row.url for row in journals(engine)] == [lancet("0").url, lancet("bmj").url]
    assert result.journals == 2
    assert len(result.duplicates) == 116
    assert result.duplicates[0] == Duplicate("site", lancet("1").url, lancet("0").url)
    assert value(engine, "impact_factor", lancet("0").url) == "116.0"  # the later item wins, as for one URL twice
    assert [item.url for item in items[:2]] == [lancet("0").url, lancet("1").url]  # the items are left as found


def test_later_batches_and_recrawls_update_the_journal_stored_first(engine):
    write_journals(engine, [lancet("1")], T0)
    later = T0 + timedelta(days=7)
    # The electronic ISSN of a later page links it too: an ISSN names one serial whatever its label.
    again = lancet("2", issn=None, eissn=LANCET, impact_factor=101.2, editor_in_chief="Richard Horton")
    result = write_journals(engine, [again], later)
    assert result.duplicates == (Duplicate("site", again.url, lancet("1").url),)
    assert journals(engine) == [(lancet("1").url, "The Lancet", later)]
    assert (value(engine, "impact_factor"), value(engine, "editor_in_chief")) == ("101.2", "Richard Horton")
    assert value(engine, "issn") == LANCET  # attributes the later item lacks keep their older row
    assert write_journals(engine, [lancet("1", impact_factor=1.0)], later).duplicates == ()
    assert value(engine, "impact_factor") == "1.0"


def test_a_url_seen_as_a_duplicate_leads_there_when_its_page_gives_no_identity(engine):
    write_journals(engine, [lancet("1"), lancet("2")], T0)
    later = T0 + timedelta(days=1)
    # A re-crawl whose page came from the cache unchanged, then one whose ISSN was not read this time.
    result = write_journals(engine, [JournalItem(source="site", url=lancet("2").url, unchanged=True)], later)
    assert len(result.duplicates) == 1
    assert journals(engine) == [(lancet("1").url, "The Lancet", later)]
    write_journals(engine, [lancet("2", issn=None, impact_factor=7.0)], later)
    assert (len(journals(engine)), value(engine, "impact_factor")) == (1, "7.0")


def test_a_url_reused_for_another_journal_is_that_journal(engine):
    write_journals(engine, [lancet("1"), lancet("2")], T0)
    write_journals(engine, [lancet("2", title="BMJ", issn=BMJ)], T0)
    write_journals(engine, [lancet("2", issn=None, title=None, unchanged=True)], T0 + timedelta(days=1))
    rows = journals(engine)
    assert [(row.url, row.title) for row in rows] == [(lancet("1").url, "The Lancet"), (lancet("2").url, "BMJ")]
    assert rows[1].crawled_at == T0 + timedelta(days=1)  # the alias to the Lancet went with the BMJ stored


def test_title_alone_issn_alone_or_another_source_are_other_journals(engine):
    items = [
        lancet("1", issn=None),
        lancet("2", issn=None),
        lancet("3", title="The Lancet Oncology"),
        lancet("4", source="other"),
        lancet("5", issn="0140-6737"),  # an invalid ISSN is no identity
    ]
    result = write_journals(engine, [lancet("0"), *items], T0)
    assert (result.journals, result.duplicates) == (6, ())


def test_a_record_naming_two_stored_journals_goes_to_the_oldest(engine):
    write_journals(engine, [lancet("1"), lancet("2", issn=LANCET_ONLINE)], T0)
    result = write_journals(engine, [lancet("3", issn=LANCET_ONLINE, eissn=LANCET)], T0)
    assert result.duplicates == (Duplicate("site", lancet("3").url, lancet("1").url),)
    assert len(journals(engine)) == 2  # the two stored before stay two: nothing is merged after the fact


def test_any_text_as_title_and_url_keys_and_round_trips(engine):
    hostile = "'); DROP TABLE journal_keys;--\x00\u202e" + "x" * 100_000
    items = [lancet("1", title=hostile, url="https://site.example/" + hostile), lancet("2", title=hostile.upper())]
    result = write_journals(engine, items, T0)
    assert [row.url for row in journals(engine)] == ["https://site.example/" + hostile]
    assert len(result.duplicates) == 1


def test_an_upgraded_database_gives_its_journals_keys_oldest_first(engine):
    write_journals(engine, [lancet("1"), lancet("2", title="BMJ", issn=BMJ)], T0)
    with engine.begin() as conn:
        conn.execute(delete(JournalKey))  # as a database written before journal_keys existed
        # A journal a site made stored twice back then, with the ISSN in its other role.
        conn.execute(
            text(
                "INSERT INTO journals (source_id, url, title, crawled_at) SELECT source_id, 'dup', title, crawled_at "
                "FROM journals WHERE title = 'The Lancet'"
            )
        )
        conn.execute(
            text(
                "INSERT INTO attribute_values (journal_id, attribute, value, crawled_at) "
                "SELECT id, 'eissn', :issn, crawled_at FROM journals WHERE url = 'dup'"
            ),
            {"issn": LANCET},
        )
    assert backfill_journal_keys(engine) == 2
    assert backfill_journal_keys(engine) == 0
    result = write_journals(engine, [lancet("3"), lancet("4", title="bmj", issn=BMJ)], T0)
    assert [duplicate.stored_url for duplicate in result.duplicates] == [lancet("1").url, lancet("2").url]
    assert len(journals(engine)) == 3


def test_a_failed_batch_leaves_no_claim(engine):
    refuse = "CREATE TRIGGER refuse BEFORE INSERT ON attribute_values BEGIN SELECT RAISE(ABORT, 'refused'); END"
    with engine.begin() as conn:
        conn.exec_driver_sql(refuse)
    with pytest.raises(IntegrityError, match="refused"):
        write_journals(engine, [lancet("1")], T0)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER refuse")
        assert conn.execute(select(func.count()).select_from(JournalKey)).scalar_one() == 0
    write_journals(engine, [lancet("2"), lancet("1")], T0)
    assert [row.url for row in journals(engine)] == [lancet("2").url]


def test_two_postgresql_writers_finding_one_journal_at_once_store_it_once(postgres: PostgresServer):
    """The race a look-then-insert would lose: the second writer's look sees nothing (the first has not
    committed), its claim waits for the first's commit, and it then writes to the first's URL."""
    engine = engine_from_url(postgres.create_database("journals_keys_race"))
    try:
        create_schema(engine)
        first = KeyedRecord("site", lancet("1").url, identity_keys("site", "The Lancet", [LANCET]))
        with engine.begin() as conn:
            site = source_ids(conn, ["site"])["site"]  # committed: the second writer must not wait on it
        holder = engine.connect()
        holder.begin()
        resolve_urls(holder, {"site": site}, [first])
        outcome = {}
        second = threading.Thread(target=lambda: outcome.update(result=write_journals(engine, [lancet("2")], T0)))
        second.start()
        _wait_for_a_lock_wait(engine)
        holder.commit()
        holder.close()
        second.join(timeout=10)
        assert outcome["result"].duplicates == (Duplicate("site", lancet("2").url, lancet("1").url),)
        assert [row.url for row in journals(engine)] == [lancet("1").url]
        write_journals(engine, [lancet("3")], T0)
        assert [row.url for row in journals(engine)] == [lancet("1").url]
    finally:
        engine.dispose()


def _wait_for_a_lock_wait(engine, timeout=5.0):
    """Until some session of the database waits on a lock while inserting a key (the second writer's claim)."""
    deadline = time.monotonic() + timeout
    query = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' "
        "AND query LIKE 'INSERT INTO journal_keys%'"
    )
    while time.monotonic() < deadline:
        with engine.connect() as conn:
            if conn.execute(query).scalar_one():
                return
        time.sleep(0.02)
    pytest.fail("the second writer never waited for the first one's claim")


def test_a_site_back_on_another_port_or_scheme_updates_the_same_rows_under_its_new_urls(engine):
    site_back_on_other_ports(engine)


def test_moving_rows_to_a_new_port_on_postgresql(postgres: PostgresServer):
    engine = engine_from_url(postgres.create_database("journals_keys_ports"))
    try:
        create_schema(engine)
        site_back_on_other_ports(engine)
    finally:
        engine.dispose()


def site_back_on_other_ports(engine):
    """Four journals stored from port 8000, then found on port 9000 and over https: same rows, new URLs."""

    def found(origin, n, **changes):
        fields = {"source": "site", "url": f"{origin}/site/journal/{n}", "title": f"Acta {n}", "impact_factor": 1.0}
        return JournalItem(**(fields | changes))

    first = [found("http://127.0.0.1:8000", n) for n in range(3)] + [found("http://127.0.0.1:8000", 3, issn=BMJ)]
    write_journals(engine, first, T0)
    with engine.connect() as conn:
        ids = conn.execute(select(Journal.id).order_by(Journal.id)).scalars().all()
    later = T0 + timedelta(days=1)
    # Another port, then https: no ISSN on three of them, the fourth's read only on the second run.
    for origin in ("http://127.0.0.1:9000", "https://127.0.0.1:9443"):
        again = [found(origin, n, impact_factor=2.0) for n in range(4)]
        again[0] = JournalItem(source="site", url=again[0].url, unchanged=True)
        again[2] = found(origin, 2, issn=LANCET)
        result = write_journals(engine, again, later)
        assert result.duplicates == ()
        with engine.connect() as conn:
            rows = conn.execute(select(Journal.id, Journal.url).order_by(Journal.id)).all()
            keys = set(conn.execute(select(JournalKey.url)).scalars())
        assert [row.id for row in rows] == ids
        assert [row.url for row in rows] == [item.url for item in again]
        assert keys == {item.url for item in again}  # every key moved with its row
        assert value(engine, "impact_factor", again[1].url) == "2.0"
