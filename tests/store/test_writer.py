"""The batch writer: rows per item, idempotent re-writes, verbatim strings, and upgrades that keep data."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals
from journals.store.models import AttributeHistory, AttributeValue, Journal, Source

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def lancet(**changes):
    """A journal item with core fields, extra attributes and provenance."""
    fields = {
        "source": "elsevier",
        "url": "https://example.org/journal/lancet",
        "title": "The Lancet",
        "issn": "0140-6736",
        "impact_factor": 98.4,
        "editor_in_chief": "Richard Horton",
        "attributes": {"h_index": 800, "open_access": False, "subject": ["Medicine", "Health"]},
        "provenance": {
            "impact_factor": {
                "raw": "Impact Factor: 98.4",
                "url": "https://example.org/journal/lancet/about",
                "xpath": "//div[@class='metrics']/span[1]",
                "extractor": "keyword",
            },
            "issn": {"raw": "ISSN 0140-6736"},
        },
    }
    fields.update(changes)
    return JournalItem(**fields)


def bmj(**changes):
    """Another journal of the same source, with as many attribute rows as :func:`lancet`."""
    return lancet(url="https://example.org/j/bmj", title="BMJ", issn="0959-8138", **changes)


def attribute_rows(engine, url="https://example.org/journal/lancet"):
    """The attribute rows of the journal at ``url``, by attribute name."""
    query = select(AttributeValue).join(Journal).where(Journal.url == url)
    with Session(engine) as session:
        return {row.attribute: row for row in session.scalars(query)}


def count(engine, model):
    """How many rows ``model``'s table holds."""
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


def test_one_row_per_non_null_core_field_and_attribute(engine):
    result = write_journals(engine, [lancet()], crawled_at=T0)
    assert (result.journals, result.attribute_rows) == (1, 7)
    rows = attribute_rows(engine)
    assert set(rows) == {
        "title",
        "issn",
        "impact_factor",
        "editor_in_chief",
        "h_index",
        "open_access",
        "subject",
    }
    impact = rows["impact_factor"]
    assert (impact.value, impact.number, impact.raw_value) == ("98.4", 98.4, "Impact Factor: 98.4")
    assert impact.page_url == "https://example.org/journal/lancet/about"
    assert (impact.xpath, impact.extractor) == ("//div[@class='metrics']/span[1]", "keyword")
    assert impact.crawled_at == T0
    issn = rows["issn"]
    assert (issn.value, issn.number, issn.raw_value, issn.page_url, issn.xpath) == (
        "0140-6736",
        None,
        "ISSN 0140-6736",
        None,
        None,
    )
    assert (rows["h_index"].value, rows["h_index"].number) == ("800", 800.0)
    assert (rows["open_access"].value, rows["open_access"].number) == ("false", None)
    assert rows["subject"].value == '["Medicine","Health"]'
    assert rows["title"].raw_value is None


def test_rewrite_updates_and_never_duplicates(engine):
    write_journals(engine, [lancet()], crawled_at=T0)
    later = T0 + timedelta(days=7)
    result = write_journals(engine, [lancet(impact_factor=101.2, title=None), bmj()], later)
    assert result.journals == 2
    assert count(engine, Source) == 1
    assert count(engine, Journal) == 2
    with Session(engine) as session:
        lancet_row = session.scalars(select(Journal).where(Journal.url.endswith("lancet"))).one()
        # A re-crawl that missed the title keeps the one found before.
        assert (lancet_row.title, lancet_row.crawled_at) == ("The Lancet", later)
        impact = session.scalars(
            select(AttributeValue).where(
                AttributeValue.journal_id == lancet_row.id, AttributeValue.attribute == "impact_factor"
            )
        ).one()
        assert (impact.number, impact.crawled_at) == (101.2, later)
    write_journals(engine, [lancet(impact_factor=101.2, title=None)], later)
    assert count(engine, AttributeValue) == 14


def test_same_journal_twice_in_a_batch_keeps_the_later(engine):
    result = write_journals(engine, [lancet(impact_factor=1.0), lancet(impact_factor=2.0)], T0)
    assert result.journals == 1
    assert attribute_rows(engine)["impact_factor"].number == 2.0


def test_empty_batch_writes_nothing(engine):
    assert write_journals(engine, []).journals == 0
    assert count(engine, Journal) == 0


@pytest.mark.parametrize(
    "hostile",
    [
        "'); DROP TABLE journals; --",
        "Robert'); DELETE FROM attribute_values WHERE ('1'='1",
        "tab\there\nnew line\r\x00nul \x1b[31m escape \x7f",
        '=HYPERLINK("http://evil")',
        "Ünïcødé ™ – 日本語 \U0001f600",
    ],
)
def test_hostile_strings_are_stored_verbatim(engine, hostile):
    item = lancet(title=hostile, editor_in_chief=hostile, attributes={"publisher": hostile})
    item.provenance["publisher"] = {"raw": hostile, "xpath": hostile}
    write_journals(engine, [item], T0)
    rows = attribute_rows(engine)
    assert rows["editor_in_chief"].value == hostile
    assert (rows["publisher"].value, rows["publisher"].raw_value, rows["publisher"].xpath) == (
        hostile,
        hostile,
        hostile,
    )
    with Session(engine) as session:
        assert session.scalar(select(Journal.title)) == hostile
    assert count(engine, Journal) == 1


def test_upgrade_adds_a_missing_column_without_losing_rows(engine, db_path):
    write_journals(engine, [lancet(), bmj()], T0)
    engine.dispose()
    # An older schema: attribute_values without the extractor column, and no schema_version row.
    with sqlite3.connect(db_path) as old:
        old.execute("ALTER TABLE attribute_values DROP COLUMN extractor")
        old.execute("DELETE FROM schema_version")
    upgraded = engine_from_url(f"sqlite:///{db_path}")
    try:
        assert create_schema(upgraded) == ["attribute_values.extractor"]
        assert count(upgraded, Journal) == 2
        assert count(upgraded, AttributeValue) == 14
        assert attribute_rows(upgraded)["impact_factor"].extractor is None
        write_journals(upgraded, [lancet()], T0)
        assert attribute_rows(upgraded)["impact_factor"].extractor == "keyword"
        assert create_schema(upgraded) == []
    finally:
        upgraded.dispose()


def test_upgrade_restores_a_missing_unique_index(engine, db_path):
    engine.dispose()
    with sqlite3.connect(db_path) as old:
        old.execute("DROP INDEX ix_journals_source_url")
    upgraded = engine_from_url(f"sqlite:///{db_path}")
    try:
        create_schema(upgraded)
        write_journals(upgraded, [lancet()], T0)
        write_journals(upgraded, [lancet()], T0)
        assert count(upgraded, Journal) == 1
    finally:
        upgraded.dispose()


def test_pages_are_stored_once_per_url_with_role_and_template(tmp_path) -> None:
    from sqlalchemy import select

    from journals.items import JournalItem
    from journals.store.database import create_schema, engine_from_url
    from journals.store.models import Page
    from journals.store.writer import write_journals

    engine = engine_from_url(f"sqlite:///{tmp_path / 'pages.db'}")
    create_schema(engine)
    listing = {"url": "http://s/az/a", "role": "listing", "template": None}
    items = [
        JournalItem(
            source="s",
            url=f"http://s/j/{n}",
            title=f"J{n}",
            pages=[listing, {"url": f"http://s/j/{n}", "role": "home", "template": "t1"}],
        )
        for n in range(3)
    ]
    write_journals(engine, items)
    write_journals(engine, items)
    with engine.connect() as conn:
        pages = {row.url: (row.role, row.template) for row in conn.execute(select(Page))}
    assert pages == {"http://s/az/a": ("listing", None), **{f"http://s/j/{n}": ("home", "t1") for n in range(3)}}


EVERY_PLANE = "".join(chr(plane * 0x10000 + offset) for plane in range(17) for offset in (0x41, 0xFFFD, 0xFFFF))
"""Three code points of each of the 17 Unicode planes, non-characters included."""


@pytest.mark.parametrize(
    "hostile",
    [
        EVERY_PLANE,
        "".join(map(chr, range(32))) + "\x7f\x85\u2028\u2029\ufeff\u202e",
        "x" * 1_000_000,
        ("'); DROP TABLE journals;-- " + EVERY_PLANE) * 4_000,
    ],
    ids=["every-plane", "control-characters", "one-megabyte", "sql-and-planes-megabyte"],
)
def test_any_text_round_trips_in_every_column(engine, hostile):
    """Source name, URL, title, values, raw text and provenance come back verbatim, whatever their size."""
    url = "https://example.org/j/" + hostile
    item = lancet(source=hostile, url=url, title=hostile, editor_in_chief=hostile, attributes={"subject": hostile})
    item.provenance["subject"] = {"raw": hostile, "url": url, "xpath": hostile, "extractor": hostile}
    write_journals(engine, [item], T0)
    rows = attribute_rows(engine, url)
    subject = rows["subject"]
    assert (subject.value, subject.raw_value, subject.page_url, subject.xpath) == (hostile, hostile, url, hostile)
    assert rows["editor_in_chief"].value == hostile
    with Session(engine) as session:
        assert session.execute(select(Source.name, Journal.url, Journal.title).join(Journal)).one() == (
            hostile,
            url,
            hostile,
        )
    write_journals(engine, [item], T0)
    assert (count(engine, Journal), count(engine, AttributeValue)) == (1, 5)


def test_a_metrics_year_is_stored_with_its_value(engine):
    item = JournalItem(
        source="s",
        url="https://s.example/j/a",
        impact_factor=1.63,
        sjr=0.5,
        provenance={"impact_factor": {"raw": "1,630", "year": 2024}, "sjr": {"raw": "0.5", "year": "2023"}},
    )
    write_journals(engine, [item])
    with engine.connect() as conn:
        years = dict(conn.execute(select(AttributeValue.attribute, AttributeValue.year)).all())
    assert years == {"impact_factor": 2024, "sjr": None}  # a year that is no number is none


def test_a_new_years_figure_keeps_last_years_in_the_history(tmp_path):
    engine = engine_from_url(f"sqlite:///{tmp_path / 'j.db'}")
    create_schema(engine)
    provenance = {"impact_factor": {"raw": "98.4 (2024)", "year": 2024}}
    write_journals(engine, [lancet(provenance=provenance)], crawled_at=T0)
    write_journals(engine, [lancet(provenance=provenance)], crawled_at=T0 + timedelta(days=1))  # the same: kept once
    assert count(engine, AttributeHistory) == 0
    later = T0 + timedelta(days=365)
    next_year = lancet(impact_factor=101.2, provenance={"impact_factor": {"year": 2025}})
    write_journals(engine, [next_year], crawled_at=later)
    current = attribute_rows(engine)["impact_factor"]
    assert (current.value, current.year) == ("101.2", 2025)
    with Session(engine) as session:
        kept = session.scalars(select(AttributeHistory)).all()
    assert [(row.attribute, row.value, row.year, row.raw_value) for row in kept] == [
        ("impact_factor", "98.4", 2024, "98.4 (2024)")
    ]
    assert kept[0].crawled_at == T0 + timedelta(days=1) and kept[0].superseded_at == later
    engine.dispose()


def test_an_unchanged_rewrite_only_moves_crawled_at(engine):
    write_journals(engine, [lancet(), bmj()], crawled_at=T0)
    before = {name: (row.id, row.value, row.xpath) for name, row in attribute_rows(engine).items()}
    later = T0 + timedelta(days=3)
    write_journals(engine, [lancet(), bmj()], crawled_at=later)
    after = attribute_rows(engine)
    assert {name: (row.id, row.value, row.xpath) for name, row in after.items()} == before
    assert {row.crawled_at for row in after.values()} == {later}
    assert {row.crawled_at for row in attribute_rows(engine, "https://example.org/j/bmj").values()} == {later}
    assert count(engine, AttributeHistory) == 0


def test_a_new_place_for_the_same_value_is_written_without_history(engine):
    write_journals(engine, [lancet()], crawled_at=T0)
    moved = lancet().provenance | {"impact_factor": {"raw": "IF 98.4", "xpath": "//dl/dd[2]", "extractor": "mdr"}}
    later = T0 + timedelta(days=1)
    write_journals(engine, [lancet(provenance=moved)], crawled_at=later)
    impact = attribute_rows(engine)["impact_factor"]
    assert (impact.value, impact.raw_value, impact.xpath, impact.extractor) == ("98.4", "IF 98.4", "//dl/dd[2]", "mdr")
    assert impact.crawled_at == later and impact.page_url is None
    assert count(engine, AttributeHistory) == 0
