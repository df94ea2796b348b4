"""Value parsers: ISSN check digits, decimal commas, years in brackets, nulls, names, booleans, money."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from journals.domain.issn import check_ok
from journals.domain.numbers import to_float
from journals.extraction.values import parse_number, parse_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0941-0325", "0941-0325"),
        ("ISSN: 0389-813x", "0389-813X"),
        ("15384357", "1538-4357"),
        ("Print ISSN: 3372-1653 | Online ISSN: 7877-9537", "3372-1653"),
    ],
)
def test_issn_is_normalised(text: str, expected: str) -> None:
    parsed = parse_value("issn", text)
    assert parsed is not None
    assert parsed.value == expected


def test_issn_with_a_wrong_check_digit_is_rejected() -> None:
    assert parse_value("issn", "1234-5678") is None


def test_last_issn_before_a_qualifier() -> None:
    parsed = parse_value("issn", "ISSN 3329-4593 (print); 6822-379X ", last=True)
    assert parsed is not None
    assert parsed.value == "6822-379X"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4.117", 4.117),
        ("4,117 (2024)", 4.117),
        (" (2024): 1.141", 1.141),
        (" is 4.117.", 4.117),
        ("IF 2024: 3.5", 3.5),
        ("1,234.5", 1234.5),
        ("1.234,5", 1234.5),
    ],
)
def test_numbers(text: str, expected: float) -> None:
    parsed = parse_value("number", text)
    assert parsed is not None
    assert parsed.value == pytest.approx(expected)


@pytest.mark.parametrize("text", ["n/a", "N/A", "—", "TBA", "not available"])
def test_shown_nulls_are_null_values(text: str) -> None:
    for value_type in ("number", "issn", "name", "boolean"):
        parsed = parse_value(value_type, text)
        assert parsed is not None
        assert parsed.value is None


def test_integers_percent_days_money() -> None:
    assert parse_value("integer", "1,204").value == 1204  # type: ignore[union-attr]
    assert parse_value("percent", "23 %").value == 23  # type: ignore[union-attr]
    assert parse_value("days", "4 weeks").value == 28  # type: ignore[union-attr]
    assert parse_value("money", "€1,500").value == 1500  # type: ignore[union-attr]
    assert parse_value("money", "USD 2,290.00").value == 2290  # type: ignore[union-attr]


def test_booleans() -> None:
    assert parse_value("boolean", "Open access").value is True  # type: ignore[union-attr]
    assert parse_value("boolean", "Subscription").value is False  # type: ignore[union-attr]
    assert parse_value("boolean", "Tomasz Petrov") is None


def test_names_accept_particles_and_reject_labels_and_numbers() -> None:
    assert parse_value("name", "Bernard Van den Berg").value == "Bernard Van den Berg"  # type: ignore[union-attr]
    assert parse_value("name", "Olga O'Brien").value == "Olga O'Brien"  # type: ignore[union-attr]
    assert parse_value("name", "Marcel·lí Domingo").value == "Marcel·lí Domingo"  # type: ignore[union-attr]
    assert parse_value("name", "4.117") is None
    assert parse_value("name", "Editor: x") is None


@given(st.integers(min_value=0, max_value=9_999_999))
def test_every_issn_with_its_check_digit_parses(number: int) -> None:
    digits = f"{number:07d}"
    total = sum(int(d) * w for d, w in zip(digits, range(8, 1, -1), strict=True))
    check = (11 - total % 11) % 11
    issn = f"{digits[:4]}-{digits[4:]}{'X' if check == 10 else check}"
    assert check_ok(issn.replace("-", ""))
    assert parse_value("issn", f"ISSN {issn}").value == issn  # type: ignore[union-attr]


@given(st.floats(min_value=0, max_value=999, allow_nan=False).map(lambda x: round(x, 3)))
def test_decimal_comma_round_trip(value: float) -> None:
    assert to_float(f"{value:.3f}".replace(".", ","), decimal_comma=True) == pytest.approx(value)


def test_superscript_digits_are_no_number() -> None:
    # Found by tests/properties: "¹".isdigit() is True, float("¹") raised ValueError out of the parser.
    for text in ("¹", "²", "²5"):
        for value_type in ("number", "integer"):
            assert parse_value(value_type, text) is None
            assert parse_value(value_type, text, last=True) is None


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Acta Seismologica Sinica, Volume 21, Number 6 - SpringerLink", "Acta Seismologica Sinica"),
        ("Nature 2020", "Nature"),
        ("Journal of Molecular Liquids | ScienceDirect.com", "Journal of Molecular Liquids"),
        ("Journal of Physics: Conference Series", "Journal of Physics: Conference Series"),
        ("Welcome to Journal of Tests", "Journal of Tests"),
        ("Volume 21", None),
        ("ScienceDirect", None),
    ],
)
def test_titles_lose_issue_date_and_site_words(text: str, title: str | None) -> None:
    parsed = parse_value("title", text)
    assert (parsed.value if parsed else None) == title


@pytest.mark.parametrize(
    ("text", "organisation"),
    [
        ("© 2020 Springer Nature Limited", "Springer Nature Limited"),
        ("Copyright © 2012 Elsevier B.V.  All rights reserved", "Elsevier B.V."),
        ("eLife Sciences Publications Ltd. Subject to a licence", "eLife Sciences Publications Ltd."),
        ("© Springer, Part of Springer Science+Business Media", "Springer"),
        ("Taylor & Francis, Inc.", "Taylor & Francis, Inc."),
        ("© 2019 Zhang et al. This is an open access article", None),
        ("© The Author(s) 2020", None),
    ],
)
def test_organisations_as_copyright_lines_and_rows_name_them(text: str, organisation: str | None) -> None:
    parsed = parse_value("organisation", text)
    assert (parsed.value if parsed else None) == organisation


def test_a_year_alone_is_no_metric() -> None:
    assert parse_number("Journal Citation Reports (Clarivate, 2024)") is None
    assert parse_number("2024") is None
    assert parse_number("4.117 (2024)").value == 4.117  # type: ignore[union-attr]
