"""A metric's year-column table is read under its latest year, among a page's other tables."""

from __future__ import annotations

from journals.extraction.year_tables import latest_year_values
from journals.pages.parsed import parse_html

LAYOUT = "<table><tr><td>Volume 12</td><td>Issue 3</td><td>Pages 2010-2019</td></tr></table>"
"""A table of numbers with "20" in its cells but no year alone in two of them: not a year table."""


def _values(body: str) -> dict[str, tuple[object, int]]:
    root = parse_html(f"<html><body>{body}</body></html>")
    assert root is not None
    return {name: (found.parsed.value, found.year) for name, found in latest_year_values(root).items()}


def test_the_latest_years_column_among_layout_tables() -> None:
    history = (
        "<table><tr><th>Metric</th><th>\xa02022</th><th>20<b>24</b></th><th> 2023 </th></tr>"
        "<tr><td>Impact Factor</td><td>3.1</td><td>4.2</td><td>3.7</td></tr>"
        "<tr><td>CiteScore</td><td>5.0</td><td>6.5</td><td>5.9</td></tr></table>"
    )
    assert _values(LAYOUT + history + LAYOUT) == {"impact_factor": (4.2, 2024), "citescore": (6.5, 2024)}


def test_a_year_table_nested_in_a_layout_cell_and_the_first_table_naming_a_metric_wins() -> None:
    first = "<table><tr><th></th><th>2020</th><th>2021</th></tr><tr><td>SJR</td><td>0.5</td><td>0.6</td></tr></table>"
    second = "<table><tr><th></th><th>2022</th><th>2023</th></tr><tr><td>SJR</td><td>0.7</td><td>0.8</td></tr></table>"
    assert _values(f"<table><tr><td>{first}</td></tr></table>{second}") == {"sjr": (0.6, 2021)}


def test_no_year_table() -> None:
    assert _values(LAYOUT + "<table><tr><td>2 020</td><td>Year 2021</td></tr></table>") == {}
