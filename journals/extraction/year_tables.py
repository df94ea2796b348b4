"""Metrics tables with a column per year: the value stored is the latest year's.

Publishers show a metric's history as a table whose header row names years ("Metric | 2022 | 2023 | 2024", or
newest first) and whose rows start with the metric's label. The label's nearest value is then the oldest (or
newest) year's depending on the page, and a rule learned on one order reads the wrong year on the other. So such
tables are read apart: per row, the cell under the header's latest year, with that year.

Pure code over an lxml tree: no Scrapy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from journals.domain.parsed import Parsed
from journals.extraction.labels import LabelMatcher, default_matcher
from journals.extraction.values import parse_value
from journals.pages.visibility import is_hidden
from journals.vocabulary import load_attributes

YEAR_CELL = re.compile(r"^\s*((?:19|20)\d\d)\s*$")
MAX_ROWS = 60
"""Rows of one table looked at: a metrics history is short; a long table is some other listing."""
_MAY_HAVE_YEAR_HEADER = etree.XPath(
    "//table[.//tr[count((td | th)[contains(., '19') or contains(., '20')]) >= 2]]"
)
"""The tables with a row of two cells that may hold a year (whose text has "19" or "20"), in document order: a
page's other tables (layout, listings) are not read cell by cell."""


@dataclass(frozen=True)
class YearValue:
    """A metric read under its table's latest year."""

    parsed: Parsed
    year: int


def latest_year_values(root: etree._Element, matcher: LabelMatcher | None = None) -> dict[str, YearValue]:
    """Per numeric attribute, its value under the latest year of every year-column table of the page (the first
    table naming it wins)."""
    matcher = matcher or default_matcher()
    numeric = {a.name: a.type for a in load_attributes() if a.type == "number"}
    found: dict[str, YearValue] = {}
    for table in _MAY_HAVE_YEAR_HEADER(root):
        if is_hidden(table):
            continue
        rows = [row for row in table.iter("tr")][:MAX_ROWS]
        header = next((row for row in rows if len(_years(row)) >= 2), None)
        if header is None:
            continue
        years = _years(header)
        column, year = max(years.items(), key=lambda item: item[1])
        for row in rows[rows.index(header) + 1 :]:
            cells = _cells(row)
            if len(cells) <= column:
                continue
            name = matcher.whole(_text(cells[0]))
            if name not in numeric or name in found:
                continue
            parsed = parse_value(numeric[name], _text(cells[column]))
            if parsed is not None and parsed.value is not None:
                found[name] = YearValue(parsed, year)
    return found


def _cells(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if isinstance(cell.tag, str) and cell.tag in ("td", "th")]


def _years(row: etree._Element) -> dict[int, int]:
    """Column index → year, for the row's cells that hold nothing but a year."""
    years = {}
    for index, cell in enumerate(_cells(row)):
        if match := YEAR_CELL.match(_text(cell)):
            years[index] = int(match[1])
    return years


def _text(cell: etree._Element) -> str:
    return " ".join("".join(cell.itertext()).split())
