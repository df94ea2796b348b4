"""Currencies: which one an amount of money is written in ("€1,500", "USD 2,290", "2.990 CHF").

The value parser keeps an article processing charge as a bare number (:func:`journals.extraction.values.parse_money`);
the currency stays in the text the page showed, and is read back from it here, so that a table can give the amount
and its currency in two columns, as DOAJ's does.
"""

from __future__ import annotations

import re

SYMBOLS = {"€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "R$": "BRL", "US$": "USD", "$": "USD"}
"""Currency signs and the ISO 4217 code each stands for where it stands alone ("$" read as US dollars)."""

CODES = frozenset(
    {"USD", "EUR", "GBP", "CHF", "JPY", "CNY", "CAD", "AUD", "INR", "BRL", "KRW", "SEK", "NOK", "DKK", "PLN", "ZAR"}
)
"""ISO 4217 codes an amount may be written with."""

_CODE = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(CODES)) + r")(?![A-Za-z])")
_SYMBOL = re.compile("|".join(re.escape(sign) for sign in sorted(SYMBOLS, key=len, reverse=True)))


def currency_of(text: str | None) -> str | None:
    """The ISO 4217 code of the currency ``text`` writes an amount in: a code wins over a sign ("CHF 2,000"), and a
    bare "$" is taken for US dollars; None when it names none."""
    if not text:
        return None
    if (code := _CODE.search(text.upper())) is not None:
        return code[1]
    if (sign := _SYMBOL.search(text)) is not None:
        return SYMBOLS[sign[0]]
    return None
