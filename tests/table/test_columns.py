"""The journals table's columns: every attribute of the vocabulary, a year beside each metric, the currency beside
the charge, and documented in docs/RESULTS.md in the same order."""

from __future__ import annotations

import re

from conftest import PROJECT_ROOT

from journals.table.columns import column_meaning, table_columns
from journals.vocabulary import attribute_names, metric_names


def test_every_attribute_has_a_column_once_and_the_key_comes_first():
    columns = table_columns()
    assert columns[0] == "key"
    assert len(set(columns)) == len(columns)
    assert set(attribute_names()) <= set(columns)
    assert columns[-3:] == ("sources", "first_seen", "last_seen")


def test_each_metric_is_followed_by_its_year_and_the_charge_by_its_currency():
    columns = table_columns()
    for metric in metric_names():
        assert columns[columns.index(metric) + 1] == f"{metric}_year"
    assert columns[columns.index("apc") + 1] == "apc_currency"


def test_every_column_says_what_it_holds():
    assert all(column_meaning(column) != "as the page wrote it" for column in table_columns())


def test_the_results_document_lists_the_columns_in_their_order():
    text = (PROJECT_ROOT / "docs" / "RESULTS.md").read_text(encoding="utf-8")
    section = text.split("## The journals table", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
    assert tuple(documented) == table_columns()
