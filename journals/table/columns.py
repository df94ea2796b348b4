"""The columns of the journals table, in their order, each with what it holds: the one list that the export, the
history, the documentation's check and the tests read.

The attributes come from the vocabulary (:mod:`journals.vocabulary`): a new attribute there is a new column here,
after the named ones.
"""

from __future__ import annotations

from functools import cache

from journals.vocabulary import attribute_names, metric_names

KEY = "key"
YEAR_SUFFIX = "_year"
"""A metric's year sits in the column beside it: ``impact_factor_year`` after ``impact_factor``."""
CURRENCY = "apc_currency"
"""The currency of the article processing charge, beside ``apc``."""

IDENTITY = ("title", "issn", "eissn")
DESCRIPTIVE = ("publisher", "subject", "open_access", "apc", "h_index")
"""The journal's description before its metrics, as DOAJ and SCImago give it."""
LISTING = ("sources", "first_seen", "last_seen")

COLUMN_MEANINGS: dict[str, str] = {
    KEY: "the journal's stable key: its ISSN-L when an ISSN is known (the print ISSN, else the electronic one), "
    "else an id `J` + 10 hex digits; kept from crawl to crawl",
    "title": "the journal's title, as most of its sources write it",
    "issn": "print ISSN, `NNNN-NNNC`",
    "eissn": "electronic ISSN, `NNNN-NNNC`",
    "publisher": "publisher, as a source names it",
    "subject": "subject area, as a source names it",
    "open_access": "`true` for a fully open-access journal, `false` for a subscription or hybrid one",
    "apc": "article processing charge, an amount",
    CURRENCY: "the charge's currency, ISO 4217 (`EUR`, `USD`…), as the page wrote it",
    "h_index": "h-index",
    "impact_factor": "two-year impact factor, the latest year a source shows",
    "five_year_impact_factor": "five-year impact factor",
    "citescore": "Scopus CiteScore",
    "sjr": "SCImago Journal Rank",
    "snip": "Source Normalized Impact per Paper",
    "editor_in_chief": "editor(s)-in-chief, as shown",
    "acceptance_rate": "acceptance rate, in percent",
    "time_to_first_decision": "days from submission to first decision",
    "sources": "the sources listing the journal on their latest crawl, `;`-separated",
    "first_seen": "when a crawl first found the journal (UTC, ISO 8601)",
    "last_seen": "when a crawl last found it (UTC, ISO 8601)",
}
"""What each column holds (a ``<metric>_year`` column: the year its metric is for, empty when no page said)."""


@cache
def value_attributes() -> tuple[str, ...]:
    """The vocabulary attributes with a column of their own, in the table's order: identity, description,
    metrics, then every other attribute of the vocabulary."""
    named = (*IDENTITY, *DESCRIPTIVE, *metric_names())
    return (*named, *(name for name in attribute_names() if name not in named))


@cache
def table_columns() -> tuple[str, ...]:
    """Every column of the journals table, in order: the key, the attributes (the APC's currency after the APC,
    each metric's year after the metric), then the sources and the times seen."""
    metrics = set(metric_names())
    columns: list[str] = [KEY]
    for name in value_attributes():
        columns.append(name)
        if name == "apc":
            columns.append(CURRENCY)
        if name in metrics:
            columns.append(f"{name}{YEAR_SUFFIX}")
    return (*columns, *LISTING)


def column_meaning(column: str) -> str:
    """What ``column`` holds, in a few words."""
    if column.endswith(YEAR_SUFFIX) and column.removesuffix(YEAR_SUFFIX) in metric_names():
        return "the year the metric before it is for, as the page wrote it"
    return COLUMN_MEANINGS.get(column, "as the page wrote it")
