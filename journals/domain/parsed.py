"""A value read from text, and how a text that says "no value" is read.

Every value parser (:mod:`journals.extraction.values`, :func:`journals.domain.issn.parse_issn`) returns a
:class:`Parsed` when the text holds a value of its type (``value`` None for a shown "n/a"), and None when it does not.
"""

from __future__ import annotations

from typing import NamedTuple

from journals.domain.no_value import NO_VALUE_START, is_null_text
from journals.domain.text import clean


class Parsed(NamedTuple):
    """A parsed value and the raw text it was read from (a named tuple: one is made per value on every page)."""

    value: object
    raw: str


PLAIN_AROUND = " :;,/|·\t\r\n"
"""What may sit around a lone value in a cell or after a label ("ISSN: 1234-5678")."""


def null_first(text: str) -> Parsed | None:
    """A no-value reading of ``text`` when it is, whole, a no-value word or opens with one ("n/a (2024)"), else
    None."""
    if is_null_text(text):
        return Parsed(None, clean(text))
    match = NO_VALUE_START.match(text)
    return Parsed(None, match[1]) if match else None
