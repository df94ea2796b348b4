"""The one list of "no value" words: every word reads as no value, in any case and with its punctuation."""

from __future__ import annotations

import pytest

from journals.domain.no_value import NO_VALUE_START, NO_VALUE_WORDS, is_missing, is_no_value, is_null_text
from journals.extraction.values import parse_value


@pytest.mark.parametrize("word", NO_VALUE_WORDS)
def test_every_word_reads_as_no_value_in_extraction_and_integration(word: str) -> None:
    for written in (word, word.upper(), f" {word}: ", f"{word}."):
        assert is_no_value(written) and is_null_text(written) and is_missing(written), written


def test_values_and_blanks() -> None:
    assert not is_no_value("Nature") and not is_no_value("4.117") and not is_no_value("Nancy Smith")
    assert is_missing(None) and is_missing("  ") and not is_null_text("")


def test_a_leading_word_makes_the_shown_value_null() -> None:
    assert NO_VALUE_START.match("n.a. (2024)")[1] == "n.a."  # type: ignore[index]
    assert NO_VALUE_START.match("Not available – see the website")[1] == "Not available"  # type: ignore[index]
    assert NO_VALUE_START.match("Nature Physics") is None and NO_VALUE_START.match("- 4.1") is None
    assert parse_value("number", "TBA (2024)") == (None, "TBA")
    assert parse_value("number", "4.117 (2024)").value == 4.117  # type: ignore[union-attr]
