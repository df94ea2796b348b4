"""What the database holds, read whole: every stored journal, every attribute value, and the integration's counts
(for ``scrapy report`` and ``scrapy browse``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, func, select

from journals.store.models import AttributeValue, IntegratedJournal, IntegratedValue, Journal, Source


@dataclass(frozen=True)
class StoredJournal:
    """One row of ``journals`` with its source's name."""

    id: int
    source: str
    url: str
    title: str | None


@dataclass(frozen=True)
class StoredValue:
    """One row of ``attribute_values``: the value as text and as a number (either may be None)."""

    journal_id: int
    attribute: str
    value: str | None
    number: float | None


@dataclass(frozen=True)
class IntegrationCounts:
    """How many journals ``scrapy integrate`` made, and how many of their values the sources disagreed on."""

    journals: int
    conflicting_values: int


def stored_journals(engine: Engine) -> list[StoredJournal]:
    """Every stored journal, with its source's name."""
    query = select(Journal.id, Source.name, Journal.url, Journal.title).join(Source)
    with engine.connect() as conn:
        return [StoredJournal(*row) for row in conn.execute(query)]


def stored_values(engine: Engine) -> list[StoredValue]:
    """Every stored attribute value."""
    query = select(AttributeValue.journal_id, AttributeValue.attribute, AttributeValue.value, AttributeValue.number)
    with engine.connect() as conn:
        return [StoredValue(*row) for row in conn.execute(query)]


def integration_counts(engine: Engine) -> IntegrationCounts:
    """The integrated journals and their conflicting values (both 0 before ``scrapy integrate`` ran)."""
    with engine.connect() as conn:
        journals = conn.scalar(select(func.count()).select_from(IntegratedJournal)) or 0
        conflicting = conn.scalar(select(func.count()).select_from(IntegratedValue).where(IntegratedValue.conflicting))
    return IntegrationCounts(journals=journals, conflicting_values=conflicting or 0)
