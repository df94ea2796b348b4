"""The database schema, every table of the project: sources, pages, journals, their attribute values and identity
keys, extraction rules, cached pages, finished crawls, the integration's tables and the journals table's history.

Plain SQLAlchemy 2.x declarative models, portable between SQLite and PostgreSQL. Uniqueness is declared with
unique *indexes* rather than table constraints so that :func:`journals.store.database.create_schema` can add a
new one to an existing database (SQLite cannot ``ALTER TABLE ... ADD CONSTRAINT``); upserts target them.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from journals.journal_identity import KEY_HEX_DIGITS

SCHEMA_VERSION = 4
"""Version of the schema these models describe; raise it when adding a table or a column."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert an aware timestamp to UTC; take a naive one as already UTC."""
        if value is None:
            return None
        in_utc = (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
        return in_utc.replace(tzinfo=None) if dialect.name == "sqlite" else in_utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Attach UTC to what the database gives back."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table of the project."""


class SchemaVersion(Base):
    """One row: the schema version the database was last created or upgraded to."""

    __tablename__ = "schema_version"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    upgraded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Source(Base):
    """A site journals are crawled from: a publisher's A–Z listing or an aggregator."""

    __tablename__ = "sources"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text, unique=True, index=True)
    start_url: Mapped[str | None] = mapped_column(Text)


class Page(Base):
    """A fetched page of a source that mattered: a listing, a journal's home page or its metrics page."""

    __tablename__ = "pages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(Text, unique=True, index=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("sources.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    """``listing``, ``home`` or ``metrics`` (see :class:`journals.items.FetchedPage`)."""
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    template: Mapped[str | None] = mapped_column(String(64))
    """Signature of the page's HTML template, when one was computed."""


class Journal(Base):
    """One journal as one source publishes it: the record reached from the source's A–Z listing."""

    __tablename__ = "journals"
    __table_args__ = (Index("ix_journals_source_url", "source_id", "url", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("sources.id"))
    url: Mapped[str] = mapped_column(Text)
    """The journal page linked from the listing."""
    title: Mapped[str | None] = mapped_column(Text)
    crawled_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    """When a crawl last wrote this journal."""


class AttributeValue(Base):
    """One attribute of one journal: its raw text, its normalised value and where it was read.

    A row whose ``crawled_at`` is older than its journal's was not found by the latest crawl.
    """

    __tablename__ = "attribute_values"
    __table_args__ = (Index("ix_attribute_values_journal_attribute", "journal_id", "attribute", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    journal_id: Mapped[int] = mapped_column(ForeignKey("journals.id", ondelete="CASCADE"))
    attribute: Mapped[str] = mapped_column(Text, index=True)
    """An attribute name of the vocabulary (``settings/vocabulary.json``)."""
    raw_value: Mapped[str | None] = mapped_column(Text)
    """The text as the page shows it, before normalisation."""
    value: Mapped[str | None] = mapped_column(Text)
    """The normalised value as text (JSON for lists and dicts, ``true``/``false`` for booleans)."""
    number: Mapped[float | None] = mapped_column(Float)
    """The value as a number, when it is one."""
    page_url: Mapped[str | None] = mapped_column(Text)
    xpath: Mapped[str | None] = mapped_column(Text)
    extractor: Mapped[str | None] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    """The year a metric is for, when the page writes one with it ("Impact factor 1.630 (2024)"); null otherwise."""
    crawled_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AttributeHistory(Base):
    """A value a source showed for one attribute of one journal before a later crawl found another there (a new
    year's figure, a corrected one): moved here when ``attribute_values`` takes the new value, so that no crawl
    erases what an earlier one read."""

    __tablename__ = "attribute_history"
    __table_args__ = (Index("ix_attribute_history_journal_attribute", "journal_id", "attribute"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    journal_id: Mapped[int] = mapped_column(ForeignKey("journals.id", ondelete="CASCADE"))
    attribute: Mapped[str] = mapped_column(Text)
    raw_value: Mapped[str | None] = mapped_column(Text)
    value: Mapped[str | None] = mapped_column(Text)
    number: Mapped[float | None] = mapped_column(Float)
    year: Mapped[int | None] = mapped_column(Integer)
    page_url: Mapped[str | None] = mapped_column(Text)
    crawled_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """When a crawl last read this value."""
    superseded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """When a crawl read another value in its place."""


class ExtractionRule(Base):
    """A learned XPath for one attribute on one template of one source (written by the heuristics)."""

    __tablename__ = "extraction_rules"
    __table_args__ = (
        Index("ix_extraction_rules_source_template_attribute", "source_id", "template", "attribute", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("sources.id"))
    template: Mapped[str] = mapped_column(String(64), default="")
    """Template signature; the empty string for a rule that holds for every page of the source."""
    attribute: Mapped[str] = mapped_column(Text)
    xpath: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CachedPage(Base):
    """An HTTP response kept by the page cache (:class:`journals.downloadermiddlewares.httpcache.SQLCacheStorage`)."""

    __tablename__ = "cached_pages"

    fingerprint: Mapped[str] = mapped_column(String(64), primary_key=True)
    """Hex digest of the request fingerprint."""
    url: Mapped[str] = mapped_column(Text)
    """The response URL (after redirects handled below the cache, if any)."""
    status: Mapped[int] = mapped_column(Integer)
    headers: Mapped[str] = mapped_column(Text)
    """JSON object: header name → list of values, bytes decoded as Latin-1 so they round-trip exactly."""
    body: Mapped[bytes] = mapped_column(LargeBinary)
    """The body, zlib-compressed."""
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class JournalKey(Base):
    """A key under which a source's journal is known, and the URL of the journal row it leads to.

    Two kinds: an *identity* (title and one ISSN, one row per ISSN of the journal), claimed by the first URL
    stored; an *alias*, a place (:func:`journals.journal_identity.locator`: a URL without scheme or port) the
    journal was found at, its own or another.
    """

    __tablename__ = "journal_keys"
    __table_args__ = (Index("ix_journal_keys_key", "key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("sources.id"))
    key: Mapped[str] = mapped_column(String(KEY_HEX_DIGITS))
    """The key's digest, source included (:func:`journals.journal_identity.identity_keys`,
    :func:`~journals.journal_identity.url_key`): unique by itself, so one batch of several sources is one query."""
    kind: Mapped[str] = mapped_column(String(8))
    """``identity`` or ``alias``."""
    url: Mapped[str] = mapped_column(Text)
    """The URL of the journal row (``journals.url`` of the same source)."""


class CrawlRun(Base):
    """One finished crawl: its spider, when it ran, why it stopped and every stat Scrapy collected."""

    __tablename__ = "crawl_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    spider: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finish_reason: Mapped[str | None] = mapped_column(Text)
    stats: Mapped[str] = mapped_column(Text)
    """JSON object of the crawl's stats (timestamps as ISO 8601 text)."""


class IntegratedJournal(Base):
    """One real-world journal: the source records linked together."""

    __tablename__ = "integrated_journals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str | None] = mapped_column(Text)
    sources: Mapped[str] = mapped_column(Text)
    """Names of the sources that list the journal, ``;``-separated, sorted."""
    integrated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class IntegratedMember(Base):
    """One source record (a row of ``journals``) linked into an integrated journal."""

    __tablename__ = "integrated_members"
    __table_args__ = (Index("ix_integrated_members_journal", "journal_id", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    integrated_journal_id: Mapped[int] = mapped_column(ForeignKey("integrated_journals.id", ondelete="CASCADE"))
    journal_id: Mapped[int] = mapped_column(ForeignKey("journals.id", ondelete="CASCADE"))


class IntegratedValue(Base):
    """The fused value of one attribute of one integrated journal, with who said what."""

    __tablename__ = "integrated_values"
    __table_args__ = (
        Index("ix_integrated_values_journal_attribute", "integrated_journal_id", "attribute", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    integrated_journal_id: Mapped[int] = mapped_column(ForeignKey("integrated_journals.id", ondelete="CASCADE"))
    attribute: Mapped[str] = mapped_column(String(100))
    """The conceptual attribute (a vocabulary name, or ``unlabelled_N``)."""
    value: Mapped[str] = mapped_column(Text)
    number: Mapped[float | None] = mapped_column(Float)
    year: Mapped[int | None] = mapped_column(Integer)
    """The metric year, when a supporting source shows one."""
    supporters: Mapped[str] = mapped_column(Text)
    """JSON list of the sources whose value agrees with this one."""
    provenance: Mapped[str] = mapped_column(Text)
    """JSON list of every claim: source, physical attribute, value, metric year, page URL."""
    conflicting: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the sources disagreed."""


class AttributeMappingRow(Base):
    """One physical attribute of one source in the mapping of a conceptual attribute."""

    __tablename__ = "mappings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    attribute: Mapped[str] = mapped_column(String(100), index=True)
    """The conceptual attribute."""
    source: Mapped[str] = mapped_column(String(200))
    physical_attribute: Mapped[str] = mapped_column(Text)
    """The crawled attribute name (``elsevier.impact_factor``) or the candidate rule (``unit:xpath``)."""
    xpath: Mapped[str | None] = mapped_column(Text)
    """A candidate rule's XPath, relative to its page template."""
    template: Mapped[str | None] = mapped_column(String(200))
    extractor: Mapped[str | None] = mapped_column(String(100))
    source_accuracy: Mapped[float | None] = mapped_column(Float)
    """The source's accuracy measured by the fusion on agreed items."""


class TableSnapshot(Base):
    """The journals table as one crawl left it: recorded once per crawl, when the table is first made after it
    (``scrapy export``, ``scrapy changes``, ``make crawl``)."""

    __tablename__ = "table_snapshots"
    __table_args__ = (Index("ix_table_snapshots_crawled_at", "crawled_at", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    crawled_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """The latest ``journals.crawled_at`` the table was made from: what tells one crawl's table from the next."""
    crawl_run_id: Mapped[int | None] = mapped_column(Integer)
    """The ``crawl_runs`` row of the crawl that wrote it, when one was recorded."""
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    journals: Mapped[int] = mapped_column(Integer, default=0)
    """How many journals the table listed."""


class TableJournalRow(Base):
    """A journal of the journals table under its stable key, with the ISSNs and title that key was given for and
    the snapshots that listed it (:mod:`journals.table.keys`, :mod:`journals.table.changes`)."""

    __tablename__ = "table_journals"
    __table_args__ = (Index("ix_table_journals_key", "key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(32))
    """ISSN-L (``NNNN-NNNC``) or ``J`` and ten hex digits."""
    title: Mapped[str | None] = mapped_column(Text)
    """The title the table shows."""
    title_key: Mapped[str | None] = mapped_column(Text)
    """The title as compared (:func:`journals.journal_identity.title_key`)."""
    issns: Mapped[str] = mapped_column(Text, default="")
    """Every ISSN the journal was known by, ``;``-separated, sorted."""
    first_snapshot_id: Mapped[int] = mapped_column(Integer)
    last_snapshot_id: Mapped[int] = mapped_column(Integer)
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ValueHistory(Base):
    """One value one attribute of a table journal took, and the snapshots that showed it: a new year's figure, or
    a corrected one, is a row of its own beside the earlier ones, which keep theirs."""

    __tablename__ = "value_history"
    __table_args__ = (Index("ix_value_history_key_attribute", "journal_key", "attribute"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    journal_key: Mapped[str] = mapped_column(String(32))
    attribute: Mapped[str] = mapped_column(String(100))
    value: Mapped[str] = mapped_column(Text)
    """The value as the table's cell writes it."""
    number: Mapped[float | None] = mapped_column(Float)
    year: Mapped[int | None] = mapped_column(Integer)
    """The year a metric is for, when a source wrote it."""
    sources: Mapped[str] = mapped_column(Text, default="")
    """The sources that gave this value when it was last seen, ``;``-separated."""
    first_snapshot_id: Mapped[int] = mapped_column(Integer)
    """The snapshot (so the crawl, ``table_snapshots.crawl_run_id``) that first showed it."""
    last_snapshot_id: Mapped[int] = mapped_column(Integer)
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
