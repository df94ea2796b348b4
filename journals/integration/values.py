"""Parsing extracted text: numbers (decimal commas, thousands separators, shown decimals) and years."""

from __future__ import annotations

import re
from collections.abc import Sequence

from journals.domain.no_value import is_no_value

YEAR_PATTERN = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_NUMBER_TEXT = re.compile(r"^[^\d+-]{0,3}([-+]?\d+(?:[.,\u202f ]\d+)*)[^\d]{0,3}$")


def is_missing(text: str | None) -> bool:
    """Whether ``text`` stands for no value: none, blank, or a no-value word (:mod:`journals.domain.no_value`)."""
    return text is None or not text.strip() or is_no_value(text)


def find_year(text: str | None) -> int | None:
    """A metric year (1950–2099) written in ``text``, the latest when several are."""
    years = [int(y) for y in YEAR_PATTERN.findall(text or "")]
    return max(years) if years else None


def parse_numbers(texts: Sequence[str | None]) -> list[tuple[float, int] | None]:
    """Each text as (number, decimals shown), None where it is not a number; decided for the whole vector.

    A comma is a decimal comma when the vector also writes decimal points (one site, two locales), or when
    it is not followed by exactly three digits; otherwise it separates thousands (``2,290``).
    """
    cleaned = [None if is_missing(t) else _NUMBER_TEXT.match(t.strip()) for t in texts]
    bodies = [m[1].replace("\u202f", "").replace(" ", "") if m else None for m in cleaned]
    has_points = any(b is not None and "." in b for b in bodies)
    parsed: list[tuple[float, int] | None] = []
    for body in bodies:
        parsed.append(None if body is None else _parse_one(body, has_points))
    return parsed


def _parse_one(body: str, vector_has_points: bool) -> tuple[float, int] | None:
    if "," in body and "." in body:
        body = body.replace(",", "")
    elif "," in body:
        head, _, tail = body.rpartition(",")
        if vector_has_points or len(tail) != 3 or "," in head:
            if "," in head:
                return None
            body = f"{head}.{tail}"
        else:
            body = body.replace(",", "")
    try:
        value = float(body)
    except ValueError:
        return None
    decimals = len(body.rpartition(".")[2]) if "." in body else 0
    return value, decimals


def decimals_of(value: float) -> int:
    """Decimals of a float as Python prints it (``4.1`` → 1): the precision of a value given as a number."""
    text = repr(float(value))
    if "e" in text:
        return 6
    fraction = text.partition(".")[2]
    return 0 if fraction == "0" else len(fraction)
