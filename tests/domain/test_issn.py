"""The ISSN rule: the standard's examples, every form a page writes, and the one normalised form."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from journals.domain.issn import ISSN, check_character, check_ok, find_issns, holds_issn, is_valid, make_issn, normalise
from tests.pages.test_visibility import corpus_pages


def test_check_character_of_the_standards_examples() -> None:
    assert check_character("0317847") == "1"  # ISSN 0317-8471, the standard's example
    assert check_character("2434561") == "X"  # ISSN 2434-561X
    assert make_issn(317847) == "0317-8471"


def test_valid_and_invalid_forms() -> None:
    assert is_valid("0028-0836") and is_valid("1050-124X") and is_valid("1050124x")
    assert not is_valid("0028-0837") and not is_valid("1050-1240")
    assert not is_valid("0028-083") and not is_valid("ABCD-0836") and not is_valid("0028-08¹6")


def test_find_issns_skips_bad_check_characters_and_repeats() -> None:
    text = "Print ISSN: 0028-0836 | Online 14764687, phone 1234-5678, again 0028 0836, 1050–124x"
    assert find_issns(text) == ["0028-0836", "1476-4687", "1050-124X"]
    assert find_issns(None) == [] and find_issns("no12345678") == []


@given(st.integers(min_value=0, max_value=9_999_999), st.sampled_from(("-", "", " ", "–")))
def test_every_made_issn_is_found_in_any_written_form(number: int, dash: str) -> None:
    issn = make_issn(number)
    written = issn.replace("-", dash).lower()
    match = ISSN.search(f"ISSN {written}.")
    assert match is not None and normalise(match) == issn
    assert check_ok(match[1] + match[2]) and is_valid(issn.lower())


def test_other_scripts_digits_make_no_issn() -> None:
    arabic = "00280836".translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert ISSN.search(arabic) is not None  # \d matches them
    assert not check_ok(arabic) and not is_valid(arabic) and find_issns(arabic) == []


def test_holds_issn_answers_as_find_issns_does() -> None:
    for text in ("ISSN 0140-6736", "ISSN 0140-6737", "no number", "1234 5679 and 0140-6736", ""):
        assert holds_issn(text) is bool(find_issns(text))


PLAIN_ISSN = re.compile(r"(?<![\dA-Za-z])(\d{4})[-‐‑–\s]?(\d{3}[\dXx])(?![\dA-Za-z])")
"""The plain expression :data:`ISSN` must agree with: what is around an ISSN looked at before it."""
_ISSN_PIECES = st.sampled_from(
    ["0028", "0836", "2049", "3630", "1", "x", "X", "a", "-", "–", " ", "\n", "é", "٠١٢٣", "_"]
)


@settings(max_examples=2000, deadline=None, database=None)
@given(st.lists(_ISSN_PIECES, max_size=12).map("".join), st.integers(0, 12))
def test_issns_are_found_where_the_plain_expression_finds_them(text: str, start: int) -> None:
    """The same matches, groups and spans from any start, and the same whole matches."""
    found = [(m.span(), m.groups()) for m in ISSN.finditer(text, start)]
    assert found == [(m.span(), m.groups()) for m in PLAIN_ISSN.finditer(text, start)]
    assert bool(ISSN.fullmatch(text)) == bool(PLAIN_ISSN.fullmatch(text))
    assert bool(ISSN.match(text, start)) == bool(PLAIN_ISSN.match(text, start))


def test_the_issns_of_every_saved_and_sandbox_page_are_the_plain_expressions() -> None:
    found = 0
    for page in corpus_pages():
        matches = [(m.span(), m.groups()) for m in ISSN.finditer(page.text)]
        assert matches == [(m.span(), m.groups()) for m in PLAIN_ISSN.finditer(page.text)], page.url
        found += len(matches)
    assert found >= 100
