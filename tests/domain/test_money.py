"""Currencies read off an amount as a page writes it."""

from __future__ import annotations

import pytest

from journals.domain.money import currency_of


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("€1,500", "EUR"),
        ("USD 2,290", "USD"),
        ("$2990.00", "USD"),
        ("2.990 CHF", "CHF"),
        ("£ 1 800", "GBP"),
        ("US$ 3,000", "USD"),
        ("chf 900", "CHF"),
        ("R$ 2.000", "BRL"),
    ],
)
def test_the_currency_is_read_from_its_code_or_sign(text, currency):
    assert currency_of(text) == currency


@pytest.mark.parametrize("text", [None, "", "1500", "free of charge", "EURASIA 12", "NEURO 500"])
def test_no_currency_when_none_is_written(text):
    assert currency_of(text) is None
