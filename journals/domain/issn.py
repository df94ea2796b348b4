"""ISSNs: how one is written in text, its mod-11 check character, and its one normalised form ``NNNN-NNNC``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from journals.domain.parsed import PLAIN_AROUND, Parsed, null_first

ISSN = re.compile(r"(\d{4})(?<![\dA-Za-z]\d{4})[-‐‑–\s]?(\d{3}[\dXx])(?![\dA-Za-z])")
"""An ISSN in running text, check character not yet validated: ``0028-0836``, ``0028 0836``, ``00280836``, any
dash; groups 1 and 2 are its two halves. Letters or digits around it make it part of a longer token: the one
before it is looked for once its first four digits are read, so that a search skips to digits in C (an expression
that starts with a look behind is tried at every character of a page)."""
SHOWN_ISSN = re.compile(r"\b\d{4}-\d{3}[\dXx]\b")
"""An ISSN as listings show one, hyphen and all: the cheap hint that a listing's row is a journal's (a compact
``NNNNNNNN`` would take every eight-digit number for one). Check character not validated."""
NORMALISED = re.compile(r"\d{4}-\d{3}[\dX]")
"""The normalised form, for :func:`re.Pattern.fullmatch`: ``NNNN-NNNC``, upper-case ``X``."""


def check_character(first_seven: str) -> str:
    """The check character (``0``–``9`` or ``X``) of an ISSN's first seven ASCII digits, by the mod-11 rule."""
    d = first_seven.encode()  # bytes index to ints without int()'s parsing ("0" is 48; the weights sum to 35)
    total = 8 * d[0] + 7 * d[1] + 6 * d[2] + 5 * d[3] + 4 * d[4] + 3 * d[5] + 2 * d[6] - 48 * 35
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def check_ok(eight: str) -> bool:
    """Whether eight ISSN characters (``NNNNNNNC``, as :data:`ISSN`'s two groups joined) carry a valid check
    character. Other scripts' digits, which ``\\d`` matches, make no ISSN: its normalised form is ASCII."""
    return eight.isascii() and eight[7].upper() == check_character(eight)


def is_valid(issn: str) -> bool:
    """Whether ``issn`` (``NNNN-NNNC`` or its eight characters, ``x`` or ``X``) is an ISSN with a valid check
    character."""
    compact = issn.replace("-", "")
    if len(compact) != 8 or not compact[:7].isdecimal() or not (compact[7].isdecimal() or compact[7] in "Xx"):
        return False
    return check_ok(compact)


def normalise(match: re.Match[str]) -> str:
    """An :data:`ISSN` match in the normalised form ``NNNN-NNNC``."""
    return f"{match[1]}-{match[2].upper()}"


def valid_matches(text: str) -> Iterator[re.Match[str]]:
    """The :data:`ISSN` matches of ``text`` with a valid check character, in order."""
    return (m for m in ISSN.finditer(text) if check_ok(m[1] + m[2]))


def holds_issn(text: str) -> bool:
    """Whether ``text`` holds a valid ISSN: the first one answers (the text is not searched for all of them)."""
    return next(valid_matches(text), None) is not None


def find_issns(text: str | None) -> list[str]:
    """Every valid ISSN of ``text``, normalised, each once, in order."""
    found: list[str] = []
    for match in valid_matches(text or ""):
        issn = normalise(match)
        if issn not in found:
            found.append(issn)
    return found


def make_issn(number: int) -> str:
    """The valid ISSN whose first seven digits are ``number`` (0 to 9,999,999), normalised."""
    digits = f"{number:07d}"
    return f"{digits[:4]}-{digits[4:]}{check_character(digits)}"


def parse_issn(text: str, last: bool = False) -> Parsed | None:
    """An ISSN as ``NNNN-NNNC`` (``15384357`` accepted), check digit validated; "n/a" is a null value."""
    alone = text.strip(PLAIN_AROUND)
    if len(alone) == 9 and alone[4] == "-" and ISSN.fullmatch(alone) and check_ok(alone[:4] + alone[5:]):
        return Parsed(alone.upper(), alone)  # the one ISSN of the text, as the general case below reads it
    found = list(valid_matches(text))
    if not found:
        return None if last else null_first(text)
    match = found[-1] if last else found[0]
    if not last and (null := null_first(text[: match.start()])) is not None:
        return null
    return Parsed(normalise(match), match[0])
