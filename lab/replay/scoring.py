"""Scoring against the saved pages' expectations: a crawl of a list page, the extraction of a journal page.

Lists: recall is the share of the expected journals' links (made absolute, compared by
:func:`~journals.replay.pages.url_key`: no scheme, fragment or trailing slash) that the crawl requested; precision
is the share of the crawl's items whose ``url`` is an expected journal.

Journal pages, per attribute the manifest lists: **right** when the extracted value matches the expected one,
**wrong** when a value was extracted that does not match, or where the page shows none (expected null),
**missing** when the page shows a value and none was extracted; nothing extracted where none is shown is
**none** and counts nowhere. Values match by the vocabulary's type of the attribute:

- ``issn``: the same string, exactly (the extraction writes ``NNNN-NNNC``);
- numbers: within :data:`NUMBER_TOLERANCE` (absolute) or :data:`NUMBER_RELATIVE_TOLERANCE`;
- text and names (title, editor-in-chief): equal once case, accents' compatibility forms, punctuation and
  whitespace are normalised (:func:`normalise_name`);
- ``publisher``: the expected value may carry a remark in parentheses ("Springer (footer: Springer, Part of
  Springer Science+Business Media)"): the remark is dropped, and the values match when one normalised name's
  words appear, in order and contiguous, in the other's ("PeerJ" and "PeerJ Inc.", "Elsevier B.V." and
  "Elsevier").
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from journals.replay.pages import is_robots_url, url_key
from journals.vocabulary import attribute

NUMBER_TOLERANCE = 1e-3
NUMBER_RELATIVE_TOLERANCE = 1e-3
RIGHT, WRONG, MISSING, NONE = "right", "wrong", "missing", "none"
"""The verdicts on one attribute of one page."""

PARENTHETICAL = re.compile(r"\([^()]*\)")
NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class ListScore:
    """What a crawl of one list page reached."""

    expected: int
    """Journals the list shows."""
    reached: int
    """Of those, journals whose link the crawl requested."""
    items: int
    """Items the crawl yielded."""
    items_expected: int
    """Of those, items whose ``url`` is an expected journal."""
    requests: int
    """Pages the crawl requested (``robots.txt`` left out)."""

    @property
    def recall(self) -> float:
        """Expected journals requested / expected journals (1.0 when none are expected)."""
        return self.reached / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float | None:
        """Items that are expected journals / items; None when the crawl yielded none."""
        return self.items_expected / self.items if self.items else None


def score_list(expected_links: Iterable[str], requested_urls: Iterable[str], item_urls: Iterable[str]) -> ListScore:
    """Score a crawl: the expected journals' absolute links, every URL the crawl requested, its items' URLs."""
    expected = {url_key(link) for link in expected_links}
    requested = [url for url in requested_urls if not is_robots_url(url)]
    requested_keys = {url_key(url) for url in requested}
    items = [url_key(url) for url in item_urls]
    return ListScore(
        expected=len(expected),
        reached=len(expected & requested_keys),
        items=len(items),
        items_expected=sum(1 for key in items if key in expected),
        requests=len(requested),
    )


def normalise_name(value: object) -> str:
    """A name as compared: compatibility forms folded, case-folded, punctuation gone, one space between words."""
    text = unicodedata.normalize("NFKC", str(value)).casefold()
    return " ".join(NOT_WORD.sub(" ", text).split())


def organisation_words(value: object) -> tuple[str, ...]:
    """A publisher's name as words, any remark in parentheses dropped."""
    return tuple(normalise_name(PARENTHETICAL.sub(" ", str(value))).split())


def _contains(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    return any(outer[start : start + len(inner)] == inner for start in range(len(outer) - len(inner) + 1))


def same_organisation(expected: object, found: object) -> bool:
    """Whether two publisher names match: one's words appear, contiguous, in the other's."""
    a, b = organisation_words(expected), organisation_words(found)
    if not a or not b:
        return False
    return _contains(a, b) if len(a) >= len(b) else _contains(b, a)


def same_number(expected: object, found: object) -> bool:
    """Whether two numbers agree within the tolerances; text that is not a number never agrees."""
    try:
        a, b = float(str(expected).replace(",", ".")), float(str(found).replace(",", "."))
    except ValueError:
        return False
    return math.isclose(a, b, rel_tol=NUMBER_RELATIVE_TOLERANCE, abs_tol=NUMBER_TOLERANCE)


def same_issn(expected: object, found: object) -> bool:
    """Whether two ISSNs are the same string."""
    return str(expected).strip() == str(found).strip()


def same_name(expected: object, found: object) -> bool:
    """Whether two titles or personal names are equal once normalised."""
    return normalise_name(expected) == normalise_name(found)


COMPARERS_BY_TYPE: dict[str, Callable[[object, object], bool]] = {
    "issn": same_issn,
    "number": same_number,
    "integer": same_number,
    "percent": same_number,
    "text": same_name,
    "name": same_name,
}
"""How values of each vocabulary type are compared; any other type is compared as a name."""
COMPARERS_BY_ATTRIBUTE: dict[str, Callable[[object, object], bool]] = {"publisher": same_organisation}
"""Attributes compared by a rule of their own, whatever their type."""


def comparer(name: str) -> Callable[[object, object], bool]:
    """The comparison for attribute ``name``."""
    if name in COMPARERS_BY_ATTRIBUTE:
        return COMPARERS_BY_ATTRIBUTE[name]
    try:
        kind = attribute(name).type
    except KeyError:
        kind = "text"
    return COMPARERS_BY_TYPE.get(kind, same_name)


def verdict(name: str, expected: object, found: object) -> str:
    """:data:`RIGHT`, :data:`WRONG`, :data:`MISSING` or :data:`NONE` for one attribute."""
    shown = expected not in (None, "")
    extracted = found not in (None, "")
    if not extracted:
        return MISSING if shown else NONE
    if not shown:
        return WRONG
    return RIGHT if comparer(name)(expected, found) else WRONG


@dataclass(frozen=True)
class JournalScore:
    """The verdicts on one journal page's attributes."""

    verdicts: dict[str, str]
    """Per scored attribute, its verdict."""
    found: dict[str, Any]
    """Per scored attribute, what the extraction gave (None when nothing)."""
    shown: int
    """Attributes the page shows a value for."""

    def count(self, which: str) -> int:
        """How many attributes got the verdict ``which``."""
        return sum(1 for v in self.verdicts.values() if v == which)

    @property
    def right(self) -> int:
        """Attributes extracted right."""
        return self.count(RIGHT)

    @property
    def wrong(self) -> int:
        """Attributes extracted wrong, or extracted where the page shows none."""
        return self.count(WRONG)

    @property
    def missing(self) -> int:
        """Attributes the page shows that were not extracted."""
        return self.count(MISSING)


def score_journal(expected: Mapping[str, Any], found: Mapping[str, Any]) -> JournalScore:
    """Score extracted values ``found`` against the manifest's ``expected``, over the expected attributes."""
    return JournalScore(
        verdicts={name: verdict(name, value, found.get(name)) for name, value in expected.items()},
        found={name: found.get(name) for name in expected},
        shown=sum(1 for value in expected.values() if value not in (None, "")),
    )
