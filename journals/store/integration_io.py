"""Reading the crawl's rows and cached pages as integration inputs; writing the integration back.

Sources whose rows hold nothing but titles (label-less pages such as ``metricsdb``'s) get candidate rules
generated from their cached pages instead, so no page is fetched twice.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Engine, delete, select

from journals.decoding import decode_html
from journals.integration.candidates import CachedJournalPage, candidate_attributes
from journals.integration.evaluation import record_key
from journals.integration.integrator import Integrated
from journals.integration.model import NUMBER, STRING, Observation, PhysicalAttribute, SourceRecord
from journals.integration.values import find_issns, find_year, parse_numbers
from journals.store.integrated import AttributeMappingRow, IntegratedJournal, IntegratedMember, IntegratedValue
from journals.store.models import AttributeValue, CachedPage, Journal, Source

NUMERIC_SHARE = 0.9
IDENTITY_ATTRIBUTES = frozenset({"title"})
"""Attributes that alone do not make a source labelled (every crawl reads titles off the listings)."""


@dataclass
class IntegrationInputs:
    """What the database holds for the integration."""

    records: list[SourceRecord]
    attributes: list[PhysicalAttribute]
    journal_ids: dict[str, int]
    """Record key → ``journals.id``."""
    candidate_sources: list[str]
    """Sources whose attributes are candidate rules from cached pages."""


def load_inputs(engine: Engine, label_vocabulary: Mapping[str, str]) -> IntegrationInputs:
    """Records, physical attributes from rows, and candidate rules for sources with title-only rows."""
    with engine.connect() as conn:
        journals = conn.execute(
            select(Journal.id, Journal.url, Journal.title, Source.name).join(Source, Source.id == Journal.source_id)
        ).all()
        rows = conn.execute(
            select(
                AttributeValue.journal_id,
                AttributeValue.attribute,
                AttributeValue.raw_value,
                AttributeValue.value,
                AttributeValue.number,
                AttributeValue.page_url,
                AttributeValue.xpath,
                AttributeValue.extractor,
            )
        ).all()
    key_of = {j.id: record_key(j.name, j.url) for j in journals}
    source_of = {j.id: j.name for j in journals}
    by_journal: dict[int, dict[str, str]] = defaultdict(dict)
    columns: dict[tuple[str, str], list] = defaultdict(list)
    for row in rows:
        if row.journal_id not in key_of or row.value is None:
            continue
        by_journal[row.journal_id][row.attribute] = row.value
        columns[source_of[row.journal_id], row.attribute].append(row)
    records = []
    titles: dict[str, str] = {}
    for j in journals:
        values = by_journal.get(j.id, {})
        title = values.get("title") or j.title
        issns = frozenset(find_issns(" ".join(values.get(n, "") for n in ("issn", "eissn"))))
        records.append(SourceRecord(key=key_of[j.id], source=j.name, title=title, issns=issns))
        if title:
            titles[key_of[j.id]] = title
    labelled = {source for source, attribute in columns if attribute not in IDENTITY_ATTRIBUTES}
    attributes = [
        _row_attribute(source, attribute, column, key_of)
        for (source, attribute), column in sorted(columns.items())
        if attribute not in IDENTITY_ATTRIBUTES
    ]
    candidate_sources = sorted({j.name for j in journals} - labelled)
    pages = _cached_pages(engine, [j for j in journals if j.name in candidate_sources])
    for source in candidate_sources:
        attributes.extend(candidate_attributes(pages.get(source, []), label_vocabulary, titles))
    return IntegrationInputs(
        records=records,
        attributes=attributes,
        journal_ids={key: jid for jid, key in key_of.items()},
        candidate_sources=candidate_sources,
    )


def _row_attribute(source: str, attribute: str, column: list, key_of: Mapping[int, str]) -> PhysicalAttribute:
    """One (source, attribute) of the crawled rows as a physical attribute labelled with its name."""
    raws = [row.raw_value or row.value for row in column]
    parsed = parse_numbers([str(raw) for raw in raws])
    numeric = sum(row.number is not None for row in column) >= NUMERIC_SHARE * len(column)
    values = {}
    for row, shown in zip(column, parsed, strict=True):
        if numeric and row.number is None:
            continue
        values[key_of[row.journal_id]] = Observation(
            text=str(row.value),
            number=row.number if numeric else None,
            decimals=shown[1] if numeric and shown else None,
            occurrence=f"{row.page_url}#{row.xpath}" if row.xpath else None,
            page_url=row.page_url,
            raw=row.raw_value,
        )
    years = Counter(find_year(raw) for raw in raws if raw)
    year, count = years.most_common(1)[0] if years else (None, 0)
    return PhysicalAttribute(
        name=f"{source}.{attribute}",
        source=source,
        unit=source,
        kind=NUMBER if numeric else STRING,
        values=values,
        label=attribute,
        year=year if year and count >= len(column) / 2 else None,
        extractor=Counter(row.extractor for row in column).most_common(1)[0][0],
    )


def _cached_pages(engine: Engine, journals: list) -> dict[str, list[CachedJournalPage]]:
    """Each journal's cached pages: its own URL and the pages under it (its metrics hop), by source."""
    by_url = {j.url.rstrip("/"): j for j in journals}
    pages: dict[str, list[CachedJournalPage]] = defaultdict(list)
    if not by_url:
        return pages
    with engine.connect() as conn:
        rows = conn.execute(select(CachedPage.url, CachedPage.status, CachedPage.headers, CachedPage.body))
        for url, status, headers, body in rows:
            if status != 200:
                continue
            base = url.rstrip("/")
            journal = by_url.get(base) or by_url.get(base.rsplit("/", 1)[0])
            if journal is None:
                continue
            html = decode_html(zlib.decompress(body), _content_type(headers))[0]
            shape = base[len(journal.url.rstrip("/")) :]
            pages[journal.name].append(
                CachedJournalPage(record_key(journal.name, journal.url), journal.name, url, html, shape)
            )
    return pages


def _content_type(headers: str) -> str | None:
    """The ``Content-Type`` of a cached page's stored headers (a JSON object of name → values), None if none."""
    for name, values in json.loads(headers or "{}").items():
        if name.lower() == "content-type" and values:
            return values[0]
    return None


def save_integration(engine: Engine, result: Integrated, journal_ids: Mapping[str, int]) -> None:
    """Replace the integration tables' contents with ``result``, in one transaction."""
    with engine.begin() as conn:
        for model in (IntegratedValue, IntegratedMember, AttributeMappingRow, IntegratedJournal):
            conn.execute(delete(model))
        journals = [
            {"id": n + 1, "title": result.titles.get(n), "sources": ";".join(result.sources[n])}
            for n in range(len(result.linkage.clusters))
        ]
        if journals:  # an empty list would insert one row of defaults
            conn.execute(IntegratedJournal.__table__.insert(), journals)
        members = [
            {"integrated_journal_id": n + 1, "journal_id": journal_ids[key]}
            for n, keys in enumerate(result.linkage.clusters)
            for key in keys
            if key in journal_ids
        ]
        if members:
            conn.execute(IntegratedMember.__table__.insert(), members)
        values = [
            {
                "integrated_journal_id": journal + 1,
                "attribute": attribute,
                "value": fused.text,
                "number": fused.number,
                "year": fused.year,
                "supporters": json.dumps(fused.supporters),
                "provenance": json.dumps(
                    [
                        {
                            "source": c.source,
                            "attribute": c.attribute,
                            "value": c.text,
                            "year": c.year,
                            "url": c.page_url,
                        }
                        for c in fused.claims
                    ],
                    ensure_ascii=False,
                ),
                "conflicting": fused.conflicting,
            }
            for (journal, attribute), fused in result.fusion.values.items()
        ]
        if values:
            conn.execute(IntegratedValue.__table__.insert(), values)
        mappings = [
            {
                "attribute": concept,
                "source": result.attributes[member].source,
                "physical_attribute": member,
                "xpath": result.attributes[member].rule,
                "template": result.attributes[member].unit,
                "extractor": result.attributes[member].extractor,
                "source_accuracy": result.fusion.accuracy.get(result.attributes[member].source),
            }
            for concept, members in result.conceptual.items()
            for member in members
        ]
        if mappings:
            conn.execute(AttributeMappingRow.__table__.insert(), mappings)
