"""Whether a page the list promised as a journal's is one: what on the page confirms it, if anything.

A list's entry is a promise, not a proof: rows carry their journal's sub-pages ("Latest issue", "Submit your
article"), menus reach books and help pages through trackers, an aggregator links its article collections. Such a
page, once stored, is a row that is no journal. So before a page becomes a row, something on it must say it is a
journal's: an identifier (an ISSN), a metric, journal meta tags, a title that matches the entry that led there, an
address whose last segment spells the entry, or a journal word in the page's name for the journal. A page that
confirms nothing is not stored; the crawl counts it and names a few.

Pure code: no Scrapy, no parsing (the page's title candidates come from :mod:`journals.extraction.titles`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from urllib.parse import unquote, urlsplit

from rapidfuzz import fuzz

from journals.extraction.extract import Extraction
from journals.extraction.titles import MAX_TITLE_WORDS, TitleCandidate, name_key
from journals.pages.entries import JOURNAL_WORDS, MINOR_WORDS
from journals.vocabulary import load_attributes

TITLE_MATCH = 90.0
"""rapidfuzz ``token_set_ratio`` (0–100) at which an entry's text and a page's name for its journal are one name."""
HEADLINE_WORDS = 6
"""An entry of this many words or more not written as a title is a sentence (a headline), no journal's name."""
GENERIC_WORDS = frozenset({"journal", "international", "open", "access", "online", "review", "reviews", "letters"})
"""Words a list adds to a journal's name that its address may leave out ("Angiology: Open Access" at
``/angiology.html``)."""
SLUG_SUFFIXES = re.compile(r"\.(?:s?html?|php|aspx?|jsp|cfm)$", re.IGNORECASE)


@cache
def _evidence_attributes() -> tuple[frozenset[str], frozenset[str]]:
    """The identifier attributes (ISSNs) and the numeric ones (metrics) of the vocabulary."""
    attributes = load_attributes()
    return (
        frozenset(a.name for a in attributes if a.type == "issn"),
        frozenset(a.name for a in attributes if a.type == "number"),
    )


def confirmation(
    extraction: Extraction, candidates: Iterable[TitleCandidate], entry_text: str | None, url: str
) -> str | None:
    """What confirms the page as a journal's: ``identifier``, ``metric``, ``journal_meta``, ``title`` (a name the
    page gives matches ``entry_text``, the list entry's text), ``address`` (``url``'s last segment spells the
    entry) or ``journal_word`` (a name the page gives holds one); None when nothing does. A one-word entry is
    confirmed by its name only with a journal word: a page called "Books" or "Help" is named like "Cell"; a long
    entry not written as a title ("3 of our journals receive their first Impact Factor") is a headline, which its
    own page repeats."""
    identifiers, metrics = _evidence_attributes()
    shown = {name for name, found in extraction.values.items() if found.value is not None}
    if shown & identifiers:
        return "identifier"
    if shown & metrics:
        return "metric"
    names = [c for c in candidates if c.kind != "listing"]
    if any(c.kind == "meta" for c in names):
        return "journal_meta"
    entry = name_key(entry_text or "")
    headline = len(entry.split()) >= HEADLINE_WORDS and not _title_cased(entry_text or "")
    if _name_like(entry) and not headline:
        if any(same_name(entry, c.key) for c in names):
            return "title"
        if same_name(entry, slug_key(url)):
            return "address"
    if any(JOURNAL_WORDS.search(c.name) and _title_cased(c.name) for c in names):
        return "journal_word"
    return None


def same_name(entry: str, name: str) -> bool:
    """Whether two name keys (:func:`~journals.extraction.titles.name_key`) name one journal: equal, one's two or
    more words all in the other ("Nature Chemistry" in "Home Nature Chemistry"; one word only when the other adds
    nothing but generic words, "Angiology" for "Angiology: Open Access"), nearly equal, or one the other's
    initials."""
    if not entry or not name:
        return False
    if entry == name:
        return True
    entry_words, name_words = set(_significant(entry)), set(_significant(name))
    if entry_words and name_words and (entry_words <= name_words or name_words <= entry_words):
        fewer, more = sorted((entry_words, name_words), key=len)
        return len(fewer) >= 2 or (len(min(fewer)) >= 5 and more - fewer <= GENERIC_WORDS)
    if fuzz.token_set_ratio(entry, name) >= TITLE_MATCH:
        return True
    return _spells_initials(entry, name) or _spells_initials(name, entry)


def slug_key(url: str) -> str:
    """A URL's last path segment as a name key: ``/journal/accounts-of-chemical-research.html`` →
    ``accounts of chemical research``."""
    segment = unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])
    return name_key(SLUG_SUFFIXES.sub("", segment).replace("-", " ").replace("_", " "))


def _spells_initials(full: str, short: str) -> bool:
    """Whether ``short`` (a key, spaces aside) is ``full``'s initials, with or without its minor words."""
    compact = short.replace(" ", "")
    return len(compact) >= 2 and compact in (_initials(full), _initials(full, minor=True))


def _name_like(entry: str) -> bool:
    """Whether an entry's key reads like a journal's name for the title and address evidence: two words or more
    (or one with a journal word: "Books" is a page's name as much as "Cell"), and no more than
    :data:`~journals.extraction.titles.MAX_TITLE_WORDS` (a featured article's title names its own page)."""
    words = entry.split()
    return len(words) <= MAX_TITLE_WORDS and (len(_significant(entry)) >= 2 or bool(JOURNAL_WORDS.search(entry)))


def _title_cased(name: str) -> bool:
    """Whether a name is written as a title: three in four of its significant words capitalised ("Annals of
    Sand", not "a systematic review and meta-analysis")."""
    words = [w for w in name.split() if w.lower() not in MINOR_WORDS and w[:1].isalpha()]
    return bool(words) and sum(w[0].isupper() for w in words) * 4 >= len(words) * 3


def _significant(key: str) -> list[str]:
    return [word for word in key.split() if word not in MINOR_WORDS]


def _initials(key: str, *, minor: bool = False) -> str:
    """The initials of a name key's words (``minor``: its minor words' too, as "Advances in Microbiology" → "aim")."""
    words = key.split() if minor else _significant(key)
    return "".join(word[0] for word in words) if len(words) >= 2 else ""
