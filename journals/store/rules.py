"""Learned extraction rules: per source and page template, the XPath that holds each attribute."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import Engine, select

from journals.store.models import ExtractionRule, Source, utcnow
from journals.store.upserts import dialect_insert, source_ids


def load_rules(engine: Engine, source: str) -> dict[str, dict[str, str]]:
    """The rules learned for ``source``: template signature → attribute → XPath (``""`` is any template)."""
    query = (
        select(ExtractionRule.template, ExtractionRule.attribute, ExtractionRule.xpath)
        .join(Source, Source.id == ExtractionRule.source_id)
        .where(Source.name == source)
        .order_by(ExtractionRule.template, ExtractionRule.attribute)
    )
    learned_rules: dict[str, dict[str, str]] = {}
    with engine.connect() as conn:
        for template, attribute, xpath in conn.execute(query):
            learned_rules.setdefault(template, {})[attribute] = xpath
    return learned_rules


def save_rules(
    engine: Engine, source: str, template: str, rules: Mapping[str, str], now: datetime | None = None
) -> int:
    """Insert or replace the XPath of each attribute in ``rules`` for ``source`` and ``template``.

    Rules of other attributes are kept. ``created_at`` is set once, ``updated_at`` on every save.
    Returns the number of rules written.
    """
    if not rules:
        return 0
    when = now or utcnow()
    with engine.begin() as conn:
        source_id = source_ids(conn, [source])[source]
        insert = dialect_insert(conn)
        stmt = insert(ExtractionRule)
        stmt = stmt.on_conflict_do_update(
            index_elements=["source_id", "template", "attribute"],
            set_={"xpath": stmt.excluded.xpath, "updated_at": stmt.excluded.updated_at},
        )
        conn.execute(
            stmt,
            [
                {
                    "source_id": source_id,
                    "template": template,
                    "attribute": attribute,
                    "xpath": xpath,
                    "created_at": when,
                    "updated_at": when,
                }
                for attribute, xpath in rules.items()
            ],
        )
    return len(rules)
