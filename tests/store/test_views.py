"""The browsing view ``journal_overview``: fused attribute rows pivoted into one row per journal."""

from __future__ import annotations

from sqlalchemy import insert, text

from journals.store import create_schema, engine_from_url
from journals.store.models import IntegratedJournal, IntegratedValue
from journals.store.views import OVERVIEW_VIEW, create_views


def _value(journal: int, attribute: str, value: str, number: float | None = None, conflicting: bool = False) -> dict:
    return {
        "integrated_journal_id": journal,
        "attribute": attribute,
        "value": value,
        "number": number,
        "conflicting": conflicting,
        "supporters": "[]",
        "provenance": "[]",
    }


def test_one_row_per_journal_with_metrics_as_numbers_and_open_access_as_yes_no(tmp_path):
    engine = engine_from_url(f"sqlite:///{tmp_path / 'views.db'}")
    create_schema(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(IntegratedJournal),
            [{"id": 1, "title": "A", "sources": "elsevier;scimago"}, {"id": 2, "title": None, "sources": "wiley"}],
        )
        conn.execute(
            insert(IntegratedValue),
            [
                _value(1, "impact_factor", "4.117", 4.117, conflicting=True),
                _value(1, "open_access", "false"),
                _value(1, "apc", "2990", 2990.0),
                _value(2, "title", "B"),
                _value(2, "subject", "Virology"),
            ],
        )
    assert create_views(engine) == [OVERVIEW_VIEW]
    assert create_views(engine) == [OVERVIEW_VIEW]  # re-created in place
    query = f"select title, impact_factor, apc, subject, open_access, listed_by, conflicts from {OVERVIEW_VIEW} order by id"
    with engine.connect() as conn:
        rows = [tuple(row) for row in conn.execute(text(query))]
    assert rows == [
        ("A", 4.117, 2990.0, None, "no", '["elsevier","scimago"]', 1),
        ("B", None, None, "Virology", None, '["wiley"]', 0),
    ]
    engine.dispose()
