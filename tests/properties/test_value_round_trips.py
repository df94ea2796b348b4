"""Round trips of the value parsers: a value written the ways sites write it parses back to itself."""

from __future__ import annotations

import math

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from journals.domain.issn import check_ok, parse_issn
from journals.domain.no_value import is_no_value
from journals.domain.text import clean
from journals.extraction.values import (
    _has_phrase,
    count_issns,
    parse_integer,
    parse_name,
    parse_number,
)

QUICK = settings(max_examples=200, deadline=500, database=None)


def check_digit(digits: str) -> str:
    """The ISSN check character of seven digits."""
    check = (11 - sum(int(d) * w for d, w in zip(digits, range(8, 1, -1), strict=True)) % 11) % 11
    return "X" if check == 10 else str(check)


ISSNS = st.text("0123456789", min_size=7, max_size=7).map(lambda d: f"{d[:4]}-{d[4:]}{check_digit(d)}")
"""Valid ISSNs as ``NNNN-NNNC``."""


@QUICK
@given(ISSNS, st.sampled_from(("{}", "ISSN {}", "ISSN: {} (print)", "e-ISSN {};", "({})", "{}\u00a0")))
def test_a_valid_issn_parses_to_itself(issn, context):
    assert check_ok(issn.replace("-", ""))
    assert parse_issn(context.format(issn)).value == issn
    assert parse_issn(context.format(issn), last=True).value == issn
    assert count_issns(context.format(issn)) == 1


@QUICK
@given(ISSNS, st.sampled_from(("", " ", "–", "‑")))
def test_an_issn_written_compact_or_with_another_dash_parses_to_itself(issn, separator):
    written = issn.replace("-", separator).lower()
    assert parse_issn(written).value == issn


@QUICK
@given(ISSNS, ISSNS)
def test_two_issns_in_one_text_are_first_and_last(first, second):
    text = f"ISSN {first}, eISSN {second}"
    assert (parse_issn(text).value, parse_issn(text, last=True).value) == (first, second)


@QUICK
@given(ISSNS, st.integers(0, 8), st.sampled_from("0123456789X"))
def test_a_wrong_check_digit_is_refused(issn, _, wrong):
    assume(wrong != issn[-1])
    assert parse_issn(issn[:-1] + wrong) is None


def group_thousands(integer: int, separator: str) -> str:
    """``integer`` with ``separator`` between groups of three digits."""
    return f"{integer:,}".replace(",", separator)


METRICS = st.tuples(st.integers(0, 10**9), st.integers(1, 3), st.integers(0, 999))
"""(whole part, decimals shown, fraction): a metric as sites print it, with at least one decimal."""


def metric(whole: int, decimals: int, fraction: int) -> tuple[str, str, float]:
    """The whole and fraction digits of a metric and its value."""
    digits = str(fraction % 10**decimals).zfill(decimals)
    return str(whole), digits, float(f"{whole}.{digits}")


@QUICK
@given(METRICS, st.sampled_from(((",", "."), (".", ","), ("\u00a0", ","), ("\u202f", "."), (" ", ","))))
@example((1234, 3, 117), (",", "."))
@example((4, 3, 117), (".", ","))
def test_a_number_with_thousands_separators_and_a_decimal_mark_parses_back(parts, marks):
    thousands, decimal = marks
    whole, digits, value = metric(*parts)
    written = f"{group_thousands(int(whole), thousands)}{decimal}{digits}"
    for text in (written, f"Impact Factor (2024): {written}", f"{written} (2024)"):
        parsed = parse_number(text)
        assert parsed is not None and math.isclose(parsed.value, value), (text, parsed)


@QUICK
@given(st.integers(0, 10**12), st.sampled_from((",", "\u00a0", "\u202f", " ", "")))
def test_a_whole_number_with_thousands_separators_parses_back(integer, separator):
    written = group_thousands(integer, separator)
    assert parse_integer(written).value == integer
    assert parse_integer(f"h-index: {written}").value == integer


WORDS = st.text(st.characters(categories=("Lu", "Ll")), min_size=1, max_size=12)


@QUICK
@given(st.lists(WORDS, min_size=1, max_size=5).map(" ".join))
def test_a_name_of_letters_parses_to_itself(name):
    expected = clean(name).strip(" :;,")
    assume(not is_no_value(expected) and len(expected) <= 120)
    assume(expected[:1].isalpha())
    assume(not _has_phrase(expected, "not_names"))  # "Home", "Contact": the vocabulary says these are no name
    assert parse_name(name).value == expected
