"""Figures: how a number is written on a page (decimal commas, thousands separators, years beside it), read
one value at a time (the extraction, told the attribute's locale) or a column at a time (the integration, which
decides the decimal comma for the whole column); and metric years.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from journals.domain.no_value import is_missing

NUMBER_TOKEN = re.compile(
    r"(?<![\w.,])[-+−]?\d{1,3}(?:[,\s.\u202f\u00a0]\d{3})*(?:[.,]\d+)?(?![\w])|(?<![\w.,])\d+(?:[.,]\d+)?"
)
"""A number as written in running text: sign, thousands groups (comma, point, thin or no-break space), decimals."""
YEAR_IN_BRACKETS = re.compile(r"[(\[]\s*(?:19|20)\d\d\s*[)\]]")
"""A year written beside a label or value ("Impact Factor (2024)", "4.117 (2024)"): never the value."""
YEAR_BESIDE_LABEL = re.compile(r"^\W*(?:19|20)\d\d\b|\b(?:19|20)\d\d\W*$")
"""A bare year at the start or end of a label's text ("2023 CiteScore", "Impact Factor 2024:"): it says which
year the value is for, not which attribute."""
_LEADING_YEAR = re.compile(r"\W*(?:19|20)\d\d\b")
"""The first branch of :data:`YEAR_BESIDE_LABEL`, matched at the text's start."""
_TRAILING_YEAR = re.compile(r"\b(?:19|20)\d\d\W*$")
"""Its second branch: a match ends at the text's end (its last characters taken by ``\\W*``)."""
_NON_WORD_RUN = re.compile(r"\W*")
SEARCHED_YEARS_LENGTH = 64
"""Texts up to this long have their years beside a label replaced by :data:`YEAR_BESIDE_LABEL` itself."""
YEAR_PATTERN = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
"""A metric year (1950–2099) anywhere in a text."""
_NUMBER_TEXT = re.compile(r"^[^\d+-]{0,3}([-+]?\d+(?:[.,\u202f ]\d+)*)[^\d]{0,3}$")
"""A whole cell that is one number, with at most three characters around it (a currency, a unit)."""


def drop_years_beside_label(text: str) -> str:
    """``YEAR_BESIDE_LABEL.sub(" ", text)``: each bare year at the start or end of ``text`` replaced by a space.

    The expression's second branch is tried at every character of a text, where only one place can match: a
    match starts at the text's start (the first branch, or the second taking the whole text), or four characters
    before the run of non-word characters that ends the text (the second branch's ``\\W*`` runs to the end, and
    the year before it is of word characters). On a long text (a page's) those places alone are tried."""
    if len(text) <= SEARCHED_YEARS_LENGTH:
        return YEAR_BESIDE_LABEL.sub(" ", text)
    leading = _LEADING_YEAR.match(text)
    if leading is None and _TRAILING_YEAR.match(text):
        return " "
    start = leading.end() if leading is not None else 0
    trailing_run = _NON_WORD_RUN.match(text[::-1])
    year_at = len(text) - (trailing_run.end() if trailing_run is not None else 0) - 4
    ends_with_year = year_at >= max(start, 1) and _TRAILING_YEAR.match(text, year_at) is not None
    middle = text[start:year_at] if ends_with_year else text[start:]
    return ("" if leading is None else " ") + middle + (" " if ends_with_year else "")


def find_year(text: str | None) -> int | None:
    """A metric year (1950–2099) written in ``text``, the latest when several are."""
    years = [int(y) for y in YEAR_PATTERN.findall(text or "")]
    return max(years) if years else None


def parse_numbers(texts: Sequence[str | None]) -> list[tuple[float, int] | None]:
    """Each text as (number, decimals shown), None where it is not a number; decided for the whole vector.

    A comma is a decimal comma when the vector also writes decimal points (one site, two locales), or when
    it is not followed by exactly three digits; otherwise it separates thousands (``2,290``).
    """
    cleaned = [None if t is None or is_missing(t) else _NUMBER_TEXT.match(t.strip()) for t in texts]
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


def to_float(raw: str, decimal_comma: bool) -> float:
    """A number as written: ``1,234.5``, ``1.234,5``, ``4,117`` (a decimal comma when ``decimal_comma``)."""
    text = raw.replace("−", "-").replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    if "," in text and "." in text:
        decimal = "," if text.rfind(",") > text.rfind(".") else "."
        text = text.replace("." if decimal == "," else ",", "").replace(",", ".")
    elif "," in text:
        groups = text.split(",")
        thousands = len(groups) > 2 or (not decimal_comma and len(groups[-1]) == 3)
        text = text.replace(",", "") if thousands else text.replace(",", ".")
    elif text.count(".") > 1:
        text = text.replace(".", "")
    return float(text)


def number_tokens(text: str) -> list[re.Match[str]]:
    """Number tokens of ``text``, without years written in brackets ("(2024)")."""
    masked = YEAR_IN_BRACKETS.sub(lambda m: " " * len(m[0]), text)
    return list(NUMBER_TOKEN.finditer(masked))


def is_year(token: str) -> bool:
    """Whether a number token is a year (1900–2099), which a figure beside it is not."""
    return bool(re.fullmatch(r"(?:19|20)\d\d", token))


PLAIN_NUMBER = re.compile(
    r"[\s:]*(?:[(\[]\s*(?:19|20)\d\d\s*[)\]][\s:]*)?(\d+(?:[.,]\d+)?)(?:\s*[(\[]\s*(?:19|20)\d\d\s*[)\]])?\s*"
)
"""One number with at most a separator, spaces, colons and bracketed years around it ("(2024): 1,630"): the
common case, read as :func:`number_tokens` and :func:`to_float` read it, without its scans."""
