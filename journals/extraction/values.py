"""Validating value parsers, one per vocabulary value type: text in, a normalised value (or a refusal) out.

A parser returns :class:`Parsed` when the text holds a value of its type (``value`` is None for a shown "n/a"),
and None when it does not: that is how a label's neighbour is accepted or rejected as its value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from journals.domain.issn import parse_issn, valid_matches
from journals.domain.no_value import is_null_cleaned
from journals.domain.numbers import PLAIN_NUMBER, is_year, number_tokens, to_float
from journals.domain.parsed import Parsed, null_first
from journals.domain.text import clean
from journals.vocabulary import extraction_phrases

ValueParser = Callable[[str, bool], Parsed | None]
"""``parser(text, last)``: the first (or, with ``last``, the last) value of its type in ``text``."""

_NAME = re.compile(r"^[^\W\d_][\w.'’\- ,&()·]*$")  # "·": Catalan l·l (Marcel·lí), NFKC of Ŀ
_TRUE_WORDS = ("open access", "gold open access", "fully open access", "oa", "yes", "true", "free access")
_FALSE_WORDS = ("subscription", "hybrid", "no", "false", "closed", "subscription-based", "paywalled")


def count_issns(text: str) -> int:
    """How many valid ISSNs ``text`` holds."""
    return sum(1 for _ in valid_matches(text))


def _parse_number(text: str, last: bool, decimal_comma: bool) -> Parsed | None:
    if text[:1].isdecimal() and text.replace(".", "", 1).isdecimal():  # isdigit() takes "¹", float() refuses it
        return Parsed(float(text), text)
    plain = PLAIN_NUMBER.fullmatch(text)
    if plain is not None:
        return Parsed(to_float(plain[1], decimal_comma), plain[1])
    tokens = [m for m in number_tokens(text) if m[0].strip()]
    if len(tokens) > 1:
        tokens = [m for m in tokens if not is_year(m[0].strip())] or tokens
    if not tokens:
        return None if last else null_first(text)
    match = tokens[-1] if last else tokens[0]
    if not last:
        null = null_first(text[: match.start()])
        if null is not None:
            return null
    raw = match[0].strip()
    try:
        return Parsed(to_float(raw, decimal_comma), raw)
    except ValueError:
        return None


def parse_number(text: str, last: bool = False) -> Parsed | None:
    """A metric (impact factor, SJR…): decimal point or comma, a year in brackets skipped. A year alone is no
    metric: "Impact Factor: Journal Citation Reports (Clarivate, 2024)" names the source of a figure not shown."""
    if text[:1].isdecimal() and text.replace(".", "", 1).isdecimal():  # the common case, without a call
        return None if is_year(text) else Parsed(float(text), text)
    parsed = _parse_number(text, last, decimal_comma=True)
    return None if parsed is not None and is_year(parsed.raw) else parsed


def parse_integer(text: str, last: bool = False) -> Parsed | None:
    """A whole number (h-index); thousands separators allowed."""
    parsed = _parse_number(text, last, decimal_comma=False)
    if parsed is None or parsed.value is None:
        return parsed
    value = float(parsed.value)  # type: ignore[arg-type]
    return Parsed(int(value), parsed.raw) if value.is_integer() else None


def parse_percent(text: str, last: bool = False) -> Parsed | None:
    """A percentage ("23%", "23 %") as a number of percent."""
    match = re.search(r"(\d+(?:[.,]\d+)?)\s*%", text)
    if match is None:
        return None if last else null_first(text)
    return Parsed(to_float(match[1], decimal_comma=True), match[0])


def parse_days(text: str, last: bool = False) -> Parsed | None:
    """A duration in days ("28 days"; weeks are converted)."""
    match = re.search(r"(\d+(?:[.,]\d+)?)\s*(days?|d\b|weeks?)", text, re.IGNORECASE)
    if match is None:
        return None if last else null_first(text)
    days = to_float(match[1], decimal_comma=True) * (7 if match[2].lower().startswith("week") else 1)
    return Parsed(int(days) if days.is_integer() else days, match[0])


def parse_money(text: str, last: bool = False) -> Parsed | None:
    """An amount of money ("€1,500", "USD 2,290", "$2990.00") as a number, the currency dropped."""
    match = re.search(
        r"(?:[€$£¥]|\b(?:USD|EUR|GBP|CHF|JPY)\b)?\s*(\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d\d)?|\d+(?:[.,]\d\d)?)", text
    )
    if match is None or not re.search(r"[€$£¥]|USD|EUR|GBP|CHF|JPY|\d{3}", match[0]):
        return None if last else null_first(text)
    amount = to_float(match[1], decimal_comma=False)
    return Parsed(int(amount) if amount.is_integer() else amount, match[0].strip())


def parse_boolean(text: str, last: bool = False) -> Parsed | None:
    """Open access (True) or subscription (False), from the words sites use."""
    cleaned = clean(text)
    folded = cleaned.strip(" :.;").casefold()
    if folded in _TRUE_WORDS:
        return Parsed(True, cleaned)
    if folded in _FALSE_WORDS:
        return Parsed(False, cleaned)
    return Parsed(None, cleaned) if is_null_cleaned(cleaned) else None


@cache
def _phrases(name: str) -> re.Pattern[str]:
    """One of the vocabulary's phrase lists (``extraction`` section) as a case-insensitive alternation."""
    phrases = sorted(extraction_phrases()[name], key=len, reverse=True)
    return re.compile("|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases), re.IGNORECASE)


def parse_name(text: str, last: bool = False) -> Parsed | None:
    """A person's name or names as shown: letters, no digits, no label punctuation, no menu words
    ("Editorial Board", "View all": the vocabulary's ``not_names``)."""
    value = clean(text).strip(" :;,")
    if is_null_cleaned(value):
        return Parsed(None, value)
    if not value or len(value) > 120 or not _NAME.match(value) or ":" in value:
        return None
    if _has_phrase(value, "not_names"):
        return None
    return Parsed(value, value)


_WORD_BREAKS = str.maketrans(dict.fromkeys(",.;:()&/", " "))
"""Punctuation a name's words may carry ("Board,"): split there too."""


@cache
def _phrase_words(name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """A phrase list as its one-word phrases (a set) and its longer ones (padded with spaces), case-folded."""
    phrases = [" ".join(p.casefold().translate(_WORD_BREAKS).split()) for p in extraction_phrases()[name]]
    return frozenset(p for p in phrases if " " not in p), tuple(f" {p} " for p in phrases if " " in p)


def _has_phrase(text: str, name: str) -> bool:
    """Whether ``text`` holds, as whole words, a phrase of the vocabulary's list ``name`` (a set lookup for the
    one-word phrases: a regular expression of every phrase would be tried at every position of every name)."""
    words = text.casefold().translate(_WORD_BREAKS).split()
    single, longer = _phrase_words(name)
    if not single.isdisjoint(words):
        return True
    joined = f" {' '.join(words)} "
    return any(phrase in joined for phrase in longer)


def parse_text(text: str, last: bool = False) -> Parsed | None:
    """A short free text (title, subject, publisher)."""
    value = clean(text).strip(" :;,")
    if is_null_cleaned(value):
        return Parsed(None, value)
    if not value or len(value) > 200 or not any(c.isalpha() for c in value):
        return None
    return Parsed(value, value)


_ISSUE = (
    r"(?:vol(?:ume)?|no|nr|num(?:ber)?|issue|iss|suppl(?:ement)?)\.?\s*[\dIVXLC]+[a-z]?(?:\s*[-–/]\s*\d+)?"
)
_DATE = (
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?)?"
    r"(?:19|20)\d\d(?:\s*[-–/]\s*(?:19|20)?\d\d)?"
)
_ISSUE_LEAD = r"(?:(?:current|latest|recent|this|next)\s+issue|in\s+this\s+issue)\s*:?\s*"
"""Words a heading puts before its issue: "2D Optics · Current issue: Volume 3, Issue 6"."""
_ISSUE_OR_DATE_TAIL = re.compile(
    rf"(?:[\s,;:|/–—-]*(?:{_ISSUE_LEAD})?\(?\s*(?:{_ISSUE}|{_DATE})\s*\)?)+$", re.IGNORECASE
)
_TITLE_CUT_MARKS = re.compile(r"[\d|–—:·-]")
"""A digit or separator: what every issue, date and site-word part :func:`journal_name` cuts off holds."""
_WELCOME = re.compile(r"^welcome\s+to\s+(?:the\s+)?", re.IGNORECASE)


@cache
def _site_word_tail() -> re.Pattern[str]:
    return re.compile(rf"\s*[|–—:·-]\s*(?:{_phrases('site_words').pattern})(?:\.[a-z]{{2,4}})?\s*$", re.IGNORECASE)


def journal_name(value: str) -> str:
    """A heading or meta value (already :func:`clean`) cut to the journal's name: issue, volume and date parts
    ("…, Volume 21, Number 6 / November 2008"), site words after a separator ("… - SpringerLink", "… | Home")
    and "Welcome to" dropped."""
    if value[:8].casefold() == "welcome ":
        value = _WELCOME.sub("", value)
    if _TITLE_CUT_MARKS.search(value) is None:
        return value  # nothing to cut (most titles): the patterns below scan from every position
    while True:
        # Only the end is cut: a title may begin with what a separator is made of ("-2+3 …", "— Poems").
        shorter = _site_word_tail().sub("", _ISSUE_OR_DATE_TAIL.sub("", value)).rstrip(" :;,|-–—/")
        if shorter == value:
            return value
        value = shorter


def is_site_word(text: str) -> bool:
    """Whether ``text`` is a platform's or a page's name rather than a journal's ("ScienceDirect", "Home")."""
    return clean(text).strip(" :;,.").casefold() in _site_words()


@cache
def _site_words() -> frozenset[str]:
    return frozenset(clean(p).casefold() for p in extraction_phrases()["site_words"])


def parse_title(text: str, last: bool = False) -> Parsed | None:
    """A journal's title (:func:`journal_name` of the text); None when nothing but issue, date or site words."""
    cleaned = clean(text).strip(" :;,")
    if is_null_cleaned(cleaned):
        return Parsed(None, cleaned)
    value = journal_name(cleaned)
    if not value or len(value) > 200 or not any(c.isalpha() for c in value):
        return None
    if len(value) <= _LONGEST_SITE_WORD and value.casefold() in _site_words():
        return None
    return Parsed(value, cleaned)


_LONGEST_SITE_WORD = 40
"""No site word is longer (characters): a longer title is not looked up."""


_COPYRIGHT_START = re.compile(
    r"^(?:copyright\b\s*:?\s*)?(?:©|\(c\))?\s*(?:copyright\b\s*:?\s*)?"
    r"(?:(?:19|20)\d\d(?:\s*[-–]\s*(?:(?:19|20)\d\d|present))?[\s,]*)*(?:(?:©|\(c\))\s*)?",
    re.IGNORECASE,
)
_HOLDER_END = re.compile(r"\s*(?:all\s+rights\s+reserved|\||;|[·•∙]|\s[–—-]\s|\bsubject\s+to\b)", re.IGNORECASE)
_LEGAL_SUFFIX = re.compile(
    r"(?:ltd|limited|inc|incorporated|co|corp|corporation|pty|llc|llp|plc|gmbh|ag|sa|s\.a|b\.v|bv|n\.v|nv|"
    r"kk|k\.k|srl|s\.r\.l|spa|s\.p\.a|e\.v|ltda|bhd|oy|ab|as|sl)\.?",
    re.IGNORECASE,
)
_NOT_HOLDERS = re.compile(r"\bet\s+al\b|\bauthors?\b|\bauthor\(s\)|creative\s+commons|\blicen[cs]e", re.IGNORECASE)


def _holder_end(value: str) -> int:
    """Where the organisation's name ends: a sentence's full stop or a comma not before a legal suffix."""
    for match in re.finditer(r"[.,](?=\s|$)", value):
        before = value[: match.start()].split()
        last_word = before[-1] if before else ""
        if match[0] == ".":
            if _LEGAL_SUFFIX.fullmatch(last_word + ".") or re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", last_word):
                continue  # "Elsevier B.V." / "eLife Sciences Publications Ltd.": the stop is the name's
            return match.start()
        following = value[match.end() :].split(maxsplit=1)
        if not following or not _LEGAL_SUFFIX.fullmatch(following[0]):
            return match.start()
    return len(value)


def parse_organisation(text: str, last: bool = False) -> Parsed | None:
    """A publisher as a row or a copyright line names it: "© 2020 Springer Nature Limited" → "Springer Nature
    Limited", "Copyright © 2012 Elsevier B.V. All rights reserved" → "Elsevier B.V."; an article's authors
    ("© 2019 Zhang et al.", "The Author(s)") are no publisher."""
    cleaned = clean(text)
    if is_null_cleaned(cleaned.strip(" :;,")):
        return Parsed(None, cleaned.strip(" :;,"))
    value = _COPYRIGHT_START.sub("", cleaned.strip(" :;,"), count=1)
    if (end := _HOLDER_END.search(value)) is not None:
        value = value[: end.start()]
    value = value[: _holder_end(value)].strip(" :;,")
    if not value or len(value) > 100 or not any(c.isalpha() for c in value) or _NOT_HOLDERS.search(value):
        return None
    return Parsed(value, value)


PARSERS: dict[str, ValueParser] = {
    "issn": parse_issn,
    "number": parse_number,
    "integer": parse_integer,
    "percent": parse_percent,
    "days": parse_days,
    "money": parse_money,
    "boolean": parse_boolean,
    "name": parse_name,
    "text": parse_text,
    "title": parse_title,
    "organisation": parse_organisation,
}
"""The parser of each value type named in ``settings/vocabulary.json``."""

TYPED = frozenset({"issn", "number", "integer", "percent", "days", "money"})
"""Types whose values can be cut out of running text: they have a shape of their own."""


def parse_value(value_type: str, text: str, last: bool = False) -> Parsed | None:
    """Parse ``text`` as ``value_type`` (see :data:`PARSERS`)."""
    return PARSERS[value_type](text, last)
