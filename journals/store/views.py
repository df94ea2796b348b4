"""SQL views for browsing: one row per integrated journal (``journal_overview``), for Datasette and for SQL users.

The integration stores attribute-value rows (``integrated_values``); a researcher asks about columns ("subject",
"impact factor", "open access"). The view pivots the fused values into those columns. Its SQL is portable between
SQLite and PostgreSQL, and it is created anew on every call, so it follows the attribute list below.
"""

from __future__ import annotations

from sqlalchemy import Engine, text

from journals.vocabulary import metric_names

OVERVIEW_VIEW = "journal_overview"
"""Name of the view with one row per integrated journal."""

TEXT_COLUMNS = ("issn", "eissn", "subject", "publisher", "editor_in_chief")
"""Fused attributes shown as their text value."""

NUMBER_COLUMNS = (*metric_names(), "h_index", "apc")
"""Fused metrics shown as numbers."""


def overview_sql() -> str:
    """The ``SELECT`` behind :data:`OVERVIEW_VIEW`.

    Columns: ``id``, ``title``, the text and number columns above, ``open_access`` (``yes``/``no``), ``listed_by``
    (JSON array of the sources listing the journal) and ``conflicts`` (attributes on which the sources disagreed).
    """
    pivots = [f"max(CASE WHEN v.attribute = '{name}' THEN v.value END) AS {name}" for name in TEXT_COLUMNS[:2]]
    pivots += [f"max(CASE WHEN v.attribute = '{name}' THEN v.number END) AS {name}" for name in NUMBER_COLUMNS]
    pivots += [f"max(CASE WHEN v.attribute = '{name}' THEN v.value END) AS {name}" for name in TEXT_COLUMNS[2:]]
    pivots.append(
        "max(CASE WHEN v.attribute = 'open_access' THEN "
        "CASE v.value WHEN 'true' THEN 'yes' WHEN 'false' THEN 'no' END END) AS open_access"
    )
    columns = ",\n       ".join(
        [
            "j.id AS id",
            "coalesce(j.title, max(CASE WHEN v.attribute = 'title' THEN v.value END)) AS title",
            *pivots,
            "'[\"' || replace(j.sources, ';', '\",\"') || '\"]' AS listed_by",
            "sum(CASE WHEN v.conflicting THEN 1 ELSE 0 END) AS conflicts",
        ]
    )
    return (
        f"SELECT {columns}\n"
        "FROM integrated_journals j LEFT JOIN integrated_values v ON v.integrated_journal_id = j.id\n"
        "GROUP BY j.id, j.title, j.sources"
    )


def create_views(engine: Engine) -> list[str]:
    """Create (or re-create) the browsing views in the database of ``engine``; returns their names.

    The integration tables must exist (``scrapy integrate`` or :func:`journals.store.create_schema` made them).
    """
    with engine.begin() as conn:
        conn.execute(text(f"DROP VIEW IF EXISTS {OVERVIEW_VIEW}"))
        conn.execute(text(f"CREATE VIEW {OVERVIEW_VIEW} AS\n{overview_sql()}"))
    return [OVERVIEW_VIEW]
