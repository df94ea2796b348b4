"""The vocabulary: its attributes, its metrics, and the one rule by which labels are compared."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from journals.vocabulary import (
    LABEL_MARKS,
    attribute,
    core_attribute_names,
    label_key,
    metric_names,
    normalise_label,
)


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


def _normalise_label_plainly(text: str) -> str:
    """The plain rule :func:`normalise_label` must agree with: marks translated away, punctuation runs made
    spaces, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text.translate(LABEL_MARKS)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", folded).split())


_LABEL_PIECES = st.sampled_from(
    ["Impact", "Factor", "™", "®", "©", "℠", "*", " ", "\u3000", "\xa0", "\n", "-", "_", "(2024)", ":", "ﬁ", "Ｉｆ",
     "ſ", "\u212a", "\u0130", "ß", "Σ", "é", "e\u0301", "²", "½", "\u200b", "\x1c", "\u2028", "٣"]
)  # fmt: skip


@settings(max_examples=1000, deadline=None, database=None)
@given(st.lists(st.one_of(_LABEL_PIECES, st.text(max_size=5)), max_size=12).map("".join))
def test_a_label_is_normalised_as_by_the_plain_rule(text: str) -> None:
    assert normalise_label(text) == _normalise_label_plainly(text)


def test_every_character_is_normalised_as_by_the_plain_rule() -> None:
    """Every code point, alone between words and marks and in runs, is normalised as by the plain rule: no word
    character is a space, every mark is deleted."""
    for start in range(0, 0x110000, 0x400):
        characters = [chr(c) for c in range(start, start + 0x400) if not 0xD800 <= c < 0xE000]
        for text in ("".join(characters), " a™".join(characters), "*".join(characters) + "x y"):
            assert normalise_label(text) == _normalise_label_plainly(text)
