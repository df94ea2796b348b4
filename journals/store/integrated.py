"""Tables of the integration (``scrapy integrate``): linked journals, fused values with provenance, mappings.

Registered on the project's :class:`~journals.store.models.Base`, so :func:`journals.store.create_schema`
creates them once this module is imported. Each integration run replaces their contents.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from journals.store.models import Base, UTCDateTime, utcnow


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
