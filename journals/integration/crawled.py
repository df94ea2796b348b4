"""The crawl's stored rows as the integration's inputs, and the integration's result as rows to store.

Pure: the rows come from :mod:`journals.store.integration_io` (which runs the queries) as objects with named
attributes, and the result goes back to it as plain dicts. Sources whose rows hold nothing but titles (label-less
pages such as ``metricsdb``'s) get candidate rules generated from their cached pages instead, so no page is
fetched twice.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from journals.domain.issn import find_issns
from journals.domain.numbers import find_year, parse_numbers
from journals.integration.candidates import CachedJournalPage, candidate_attributes
from journals.integration.integrator import Integrated
from journals.integration.model import NUMBER, STRING, Observation, PhysicalAttribute, SourceRecord, record_key

NUMERIC_SHARE = 0.9
IDENTITY_ATTRIBUTES = frozenset({"title"})
"""Attributes that alone do not make a source labelled (every crawl reads titles off the listings)."""

PageReader = Callable[[Callable[[str], bool]], Iterable[tuple[str, str]]]
"""Reads the cached pages whose URL a predicate accepts, as ``(url, html)`` pairs."""


@dataclass
class IntegrationInputs:
    """What the database holds for the integration."""

    records: list[SourceRecord]
    attributes: list[PhysicalAttribute]
    journal_ids: dict[str, int]
    """Record key → ``journals.id``."""
    candidate_sources: list[str]
    """Sources whose attributes are candidate rules from cached pages."""


@dataclass
class IntegrationRows:
    """The integration's result as the rows of its four tables."""

    journals: list[dict[str, Any]]
    members: list[dict[str, Any]]
    values: list[dict[str, Any]]
    mappings: list[dict[str, Any]]


def integration_inputs(
    journals: Sequence[Any], values: Sequence[Any], label_vocabulary: Mapping[str, str], read_pages: PageReader
) -> IntegrationInputs:
    """Records, physical attributes from rows, and candidate rules for sources with title-only rows.

    ``journals`` are crawled journals (``id``, ``url``, ``title``, ``name`` of the source), ``values`` their
    attribute rows (``journal_id``, ``attribute``, ``raw_value``, ``value``, ``number``, ``page_url``, ``xpath``,
    ``extractor``); ``read_pages`` reads the cached pages of the label-less sources' journals.
    """
    key_of = {j.id: record_key(j.name, j.url) for j in journals}
    source_of = {j.id: j.name for j in journals}
    by_journal: dict[int, dict[str, str]] = defaultdict(dict)
    columns: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for row in values:
        if row.journal_id not in key_of or row.value is None:
            continue
        by_journal[row.journal_id][row.attribute] = row.value
        columns[source_of[row.journal_id], row.attribute].append(row)
    records = []
    titles: dict[str, str] = {}
    for j in journals:
        shown = by_journal.get(j.id, {})
        title = shown.get("title") or j.title
        issns = frozenset(find_issns(" ".join(shown.get(n, "") for n in ("issn", "eissn"))))
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
    pages = cached_journal_pages([j for j in journals if j.name in candidate_sources], read_pages)
    for source in candidate_sources:
        attributes.extend(candidate_attributes(pages.get(source, []), label_vocabulary, titles))
    return IntegrationInputs(
        records=records,
        attributes=attributes,
        journal_ids={key: jid for jid, key in key_of.items()},
        candidate_sources=candidate_sources,
    )


def _row_attribute(source: str, attribute: str, column: list[Any], key_of: Mapping[int, str]) -> PhysicalAttribute:
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
            year=getattr(row, "year", None),
        )
    years = Counter(
        year for row, raw in zip(column, raws, strict=True) if (year := getattr(row, "year", None) or find_year(raw))
    )
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


def cached_journal_pages(journals: Sequence[Any], read_pages: PageReader) -> dict[str, list[CachedJournalPage]]:
    """Each journal's cached pages: its own URL and the pages under it (its metrics hop), by source."""
    by_url = {j.url.rstrip("/"): j for j in journals}
    pages: dict[str, list[CachedJournalPage]] = defaultdict(list)
    if not by_url:
        return pages

    def journal_of(url: str) -> Any:
        base = url.rstrip("/")
        return by_url.get(base) or by_url.get(base.rsplit("/", 1)[0])

    for url, html in read_pages(lambda url: journal_of(url) is not None):
        journal = journal_of(url)
        shape = url.rstrip("/")[len(journal.url.rstrip("/")) :]
        key = record_key(journal.name, journal.url)
        pages[journal.name].append(CachedJournalPage(key, journal.name, url, html, shape))
    return pages


def integration_rows(result: Integrated, journal_ids: Mapping[str, int]) -> IntegrationRows:
    """The rows of the integrated journals, their members, their fused values and the attribute mappings."""
    journals = [
        {"id": n + 1, "title": result.titles.get(n), "sources": ";".join(result.sources[n])}
        for n in range(len(result.linkage.clusters))
    ]
    members = [
        {"integrated_journal_id": n + 1, "journal_id": journal_ids[key]}
        for n, keys in enumerate(result.linkage.clusters)
        for key in keys
        if key in journal_ids
    ]
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
                    {"source": c.source, "attribute": c.attribute, "value": c.text, "year": c.year, "url": c.page_url}
                    for c in fused.claims
                ],
                ensure_ascii=False,
            ),
            "conflicting": fused.conflicting,
        }
        for (journal, attribute), fused in result.fusion.values.items()
    ]
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
    return IntegrationRows(journals, members, values, mappings)
