"""``JournalItem``'s fields are the vocabulary's core attributes, each typed as its value type says."""

from __future__ import annotations

import typing
from dataclasses import fields

from journals.items import JournalItem
from journals.vocabulary import core_attribute_names, load_attributes, metric_names

FIELD_TYPES = {"title": str | None, "issn": str | None, "name": str | None, "number": float | None}
"""The Python type of a ``JournalItem`` field, per vocabulary value type."""
RECORD_FIELDS = ("source", "url")
BOOKKEEPING_FIELDS = ("attributes", "provenance", "pages", "unchanged")


def test_journal_item_fields_are_the_vocabularys_core_attributes_in_order() -> None:
    names = tuple(f.name for f in fields(JournalItem))
    assert names == (*RECORD_FIELDS, *core_attribute_names(), *BOOKKEEPING_FIELDS)


def test_each_core_field_has_its_value_types_python_type() -> None:
    hints = typing.get_type_hints(JournalItem)
    for attribute in load_attributes():
        if attribute.core:
            assert hints[attribute.name] == FIELD_TYPES[attribute.type], attribute.name


def test_the_metrics_are_the_core_number_fields() -> None:
    assert metric_names() == ("impact_factor", "five_year_impact_factor", "citescore", "sjr", "snip")
    hints = typing.get_type_hints(JournalItem)
    assert all(hints[name] == float | None for name in metric_names())
