"""The queries of ``scrapy integrate``: the crawl's rows and cached pages read, the integration's tables replaced.

What the rows mean to the integration (records, physical attributes, candidate rules) is worked out in
:mod:`journals.integration.crawled`, which needs no database; this module only reads and writes.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Engine, Row, Table, delete, select

from journals.pages.decoding import decode_html
from journals.store.models import (
    AttributeMappingRow,
    AttributeValue,
    CachedPage,
    IntegratedJournal,
    IntegratedMember,
    IntegratedValue,
    Journal,
    Source,
)

AnyRow = Row[*tuple[Any, ...]]
"""A row of any columns."""

def crawled_rows(engine: Engine) -> tuple[list[AnyRow], list[AnyRow]]:
    """The crawled journals (``id``, ``url``, ``title``, source ``name``) and every attribute row."""
    with engine.connect() as conn:
        journals = conn.execute(
            select(Journal.id, Journal.url, Journal.title, Source.name).join(Source, Source.id == Journal.source_id)
        ).all()
        values = conn.execute(
            select(
                AttributeValue.journal_id,
                AttributeValue.attribute,
                AttributeValue.raw_value,
                AttributeValue.value,
                AttributeValue.number,
                AttributeValue.page_url,
                AttributeValue.xpath,
                AttributeValue.extractor,
                AttributeValue.year,
            )
        ).all()
    return list(journals), list(values)


def cached_pages(engine: Engine, wanted: Callable[[str], bool]) -> Iterator[tuple[str, str]]:
    """``(url, html)`` of every cached 200 page whose URL ``wanted`` accepts (only those are decompressed)."""
    with engine.connect() as conn:
        rows = conn.execute(select(CachedPage.url, CachedPage.status, CachedPage.headers, CachedPage.body))
        for url, status, headers, body in rows:
            if status == 200 and wanted(url):
                yield url, decode_html(zlib.decompress(body), _content_type(headers))[0]


def _content_type(headers: str) -> str | None:
    """The ``Content-Type`` of a cached page's stored headers (a JSON object of name → values), None if none."""
    for name, values in json.loads(headers or "{}").items():
        if name.lower() == "content-type" and values:
            return cast("str", values[0])
    return None


def save_integration(
    engine: Engine,
    journals: Sequence[Mapping[str, Any]],
    members: Sequence[Mapping[str, Any]],
    values: Sequence[Mapping[str, Any]],
    mappings: Sequence[Mapping[str, Any]],
) -> None:
    """Replace the integration tables' contents with these rows, in one transaction."""
    with engine.begin() as conn:
        for model in (IntegratedValue, IntegratedMember, AttributeMappingRow, IntegratedJournal):
            conn.execute(delete(model))
        for model, rows in (
            (IntegratedJournal, journals),
            (IntegratedMember, members),
            (IntegratedValue, values),
            (AttributeMappingRow, mappings),
        ):
            if rows:  # an empty list would insert one row of defaults
                conn.execute(cast(Table, model.__table__).insert(), rows)
