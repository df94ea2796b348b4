"""The vocabulary: its attributes, its metrics, and the one rule by which labels are compared."""

from __future__ import annotations

from journals.vocabulary import attribute, core_attribute_names, label_key, metric_names, normalise_label


def test_normalise_drops_case_marks_punctuation_and_bracketed_years() -> None:
    assert normalise_label("Journal Impact Factor™:") == "journal impact factor"
    assert normalise_label("  5-Year   IF ") == "5 year if"
    assert normalise_label("Impact Factor (2024):") == "impact factor 2024"


def test_a_label_key_drops_the_year_in_brackets_or_at_either_end() -> None:
    assert label_key("Impact Factor (2024):") == "impact factor"
    assert label_key("CiteScore [2023]") == "citescore"
    assert label_key("Impact Factor 2024:") == "impact factor"
    assert label_key("2023 CiteScore") == "citescore"
    assert label_key("Founded in 2024 by") == "founded in 2024 by"  # a year inside a text is text


def test_metrics_are_core_numbers() -> None:
    assert set(metric_names()) <= set(core_attribute_names())
    assert all(attribute(name).type == "number" for name in metric_names())
