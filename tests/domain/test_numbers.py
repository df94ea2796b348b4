from hypothesis import given, settings
from hypothesis import strategies as st

from journals.domain.numbers import (
    PLAIN_NUMBER,
    SEARCHED_YEARS_LENGTH,
    YEAR_BESIDE_LABEL,
    decimals_of,
    drop_years_beside_label,
    find_year,
    is_year,
    number_tokens,
    parse_numbers,
    to_float,
)


def test_numbers_decimal_commas_decided_per_vector():
    assert parse_numbers(["4.117", "3,250", None, "n/a"]) == [(4.117, 3), (3.25, 3), None, None]
    assert parse_numbers(["€2,290", "€1,500"]) == [(2290.0, 0), (1500.0, 0)]
    assert parse_numbers(["12,5"]) == [(12.5, 1)]
    assert parse_numbers(["Journal of X"]) == [None]


def test_years_and_decimals():
    assert find_year(" (2024)") == 2024
    assert find_year("no year 1234") is None
    assert decimals_of(4.1) == 1 and decimals_of(3.0) == 0


def test_a_value_alone_is_read_with_its_locale_and_years_beside_it_are_skipped():
    assert to_float("1.234,5", decimal_comma=True) == 1234.5 and to_float("4,117", decimal_comma=True) == 4.117
    assert to_float("2,290", decimal_comma=False) == 2290.0 and to_float("−1 630", decimal_comma=False) == -1630.0
    assert [m[0].strip() for m in number_tokens("Impact factor (2024): 4.117, 5-year 1,630")] == ["4.117", "5", "1,630"]
    assert is_year("2024") and not is_year("4117")
    plain = PLAIN_NUMBER.fullmatch(" (2024): 1,630")
    assert plain is not None and plain[1] == "1,630"


_YEAR_PIECES = st.sampled_from(["2024", "1999", "2100", "20", "0", "a", "Factor", " ", ".", ":", "(", "\n", "_", "é",
                                "٢٠٢٤", "²", "x" * 70, " " * 70, "-" * 70, "a" * 30 + "2023"])  # fmt: skip


@settings(max_examples=2000, deadline=None, database=None)
@given(st.lists(_YEAR_PIECES, max_size=10).map("".join))
def test_years_beside_a_label_are_dropped_as_the_expression_drops_them(text: str) -> None:
    """Short or long (where only the places a year may be dropped are tried), the text is the expression's."""
    assert drop_years_beside_label(text) == YEAR_BESIDE_LABEL.sub(" ", text)


def test_years_beside_a_long_label_are_dropped_at_its_start_and_end() -> None:
    padding = "Journal Impact Factor " * 4
    assert len(padding) > SEARCHED_YEARS_LENGTH
    assert drop_years_beside_label(f"2023 {padding}2024:\n") == f"  {padding} "
    for text in (f"{padding}12024", f"(2023) {padding}", f"{padding}2024", "2024" + "." * 80, f"{padding}_2024"):
        assert drop_years_beside_label(text) == YEAR_BESIDE_LABEL.sub(" ", text)
