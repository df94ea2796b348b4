"""A journal's title by agreement: every place a page names its journal is a vote, and the name most places give
wins.

One place alone misleads on the real web: a heading may be an article's title or a section's ("Announcements"),
the visible text may show an abbreviation, a meta tag may keep a former title (``citation_journal_title``) or
the site's address (``DC.source``), and ``<title>`` may be a stale issue's. Where a page names its journal in
several places, they agree on the name. So the candidates are gathered from each kind of place (the list entry
that led to the page, journal meta tags, the site's brand, the parts of ``<title>``, the logo, the headings),
each cut to a name (:func:`~journals.extraction.values.parse_title` drops issue, date and site words) and
compared, case and punctuation aside. A name given by more kinds of place than the current title replaces it;
with no current title, the best-supported name is taken, one with a journal word ("Magazine", "Letters") before
one without (an article's or a section's title), then the most trusted kind's.

Pure code over an lxml tree: no Scrapy.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

from journals.extraction.content import visible_strings
from journals.extraction.structured import is_article_page
from journals.extraction.values import parse_title
from journals.pages.entries import JOURNAL_WORDS
from journals.pages.visibility import is_hidden

KIND_PRIORITY = ("listing", "meta", "logo", "title", "heading", "site_name")
"""Kinds of place, most trusted first: which name wins a tie."""
JOURNAL_META = frozenset({"citation_journal_title", "prism.publicationname", "dc.relation.ispartof"})
SITE_NAME_META = frozenset({"og:site_name"})
ARTICLE_META = frozenset({"citation_title", "og:title", "dc.title", "twitter:title"})
TITLE_SEPARATORS = re.compile(r"\s+[|–—·:-]\s+|\s*\|\s*|\s+::\s+|\s*»\s*")
"""What ``<title>`` and headings put between the journal's name, the site's and the section's."""
LOGO_MARK = re.compile(r"logo|banner|masthead|brand", re.IGNORECASE)
LOGO_WORDS = re.compile(
    r"\s*(?:[-–:|]\s*)?\b(?:home\s*page|homepage|home|logo|banner|masthead|website|web\s+site)\s*$", re.IGNORECASE
)
"""Words a logo's ``alt`` adds to the name ("Nature Chemistry homepage")."""
MAX_TITLE_WORDS = 12
"""A longer candidate is a sentence or an article's title, not a journal's name."""
HEADINGS_PER_LEVEL = 2
URL_LIKE = re.compile(r"^(?:https?://|www\.)|^[\w-]+(?:\.[\w-]+)+(?:/\S*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class TitleCandidate:
    """One place's name for the journal."""

    kind: str
    """One of :data:`KIND_PRIORITY`."""
    name: str
    """The name as the place gives it, cut to the journal's name."""

    @property
    def key(self) -> str:
        """The name as compared: compatibility forms folded, case and punctuation aside, "&" read as "and", a
        possessive's "s" and a leading "The" dropped."""
        return name_key(self.name)


def name_key(name: str) -> str:
    """See :attr:`TitleCandidate.key`."""
    text = unicodedata.normalize("NFKC", name).casefold().replace("&", " and ")
    text = re.sub(r"['’]s\b", "", text)  # "Alzheimer's" is one word
    words = re.sub(r"[^\w]+", " ", text).split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def title_candidates(root: etree._Element, listing_title: str | None = None) -> list[TitleCandidate]:
    """Every place of the page (``root``) that names its journal, with the list entry's text (``listing_title``)."""
    article = is_article_page(root)
    article_keys = _article_titles(root) if article else set()
    found: list[TitleCandidate] = []
    raw: list[tuple[str, str]] = []
    if listing_title:
        raw.append(("listing", listing_title))
    raw.extend(_meta_candidates(root))
    raw.extend(("logo", text) for text in _logo_texts(root))
    raw.extend(("title", part) for title in root.iterfind(".//title") for part in _parts(title.text or ""))
    if not article:  # an article page's headings are the article's
        raw.extend(("heading", part) for text in _heading_texts(root) for part in _parts(text))
    for kind, text in raw:
        name = _name(text)
        if name is None:
            continue
        candidate = TitleCandidate(kind, name)
        if candidate.key and not any(candidate.key in key for key in article_keys):
            found.append(candidate)
    return found


def agreed_title(candidates: Iterable[TitleCandidate], current: str | None) -> str | None:
    """The title the page's places agree on: ``current`` (the title read so far) unless another name is given by
    at least two kinds of place and by more than ``current``, or by as many and with a journal word where
    ``current`` has none; with no ``current`` (or one that is an address), the
    best-supported name, ties going to the most trusted kind. None when there is no candidate."""
    support: dict[str, set[str]] = {}
    first: dict[str, TitleCandidate] = {}
    for candidate in candidates:
        support.setdefault(candidate.key, set()).add(candidate.kind)
        first.setdefault(candidate.key, candidate)
    if current is not None and URL_LIKE.search(current.strip()):
        current = None
    if not support:
        return current
    best = max(
        support,
        key=lambda key: (
            len(support[key]),
            bool(JOURNAL_WORDS.search(key)),
            -min(KIND_PRIORITY.index(k) for k in support[key]),
        ),
    )
    if current is None:
        return first[best].name
    held = support.get(name_key(current), set())
    if best == name_key(current):
        return current
    if len(support[best]) >= 2 and len(support[best]) > len(held):
        return first[best].name
    if len(support[best]) == len(held) and JOURNAL_WORDS.search(best) and not JOURNAL_WORDS.search(current):
        return first[best].name  # two single places disagree: the one naming a journal
    return current


def _name(text: str) -> str | None:
    """A place's text cut to a journal's name, or None when it is no name (an address, a site word, a sentence)."""
    text = unwrapped(" ".join(text.split()))
    if not text or URL_LIKE.search(text):
        return None
    parsed = parse_title(LOGO_WORDS.sub("", text))
    if parsed is None or not isinstance(parsed.value, str):
        return None
    name = unwrapped(parsed.value)
    if not name or len(name.split()) > MAX_TITLE_WORDS or not any(c.isalpha() for c in name):
        return None
    return name


ENCLOSING_PAIRS = (("[", "]"), ("(", ")"), ('"', '"'), ("'", "'"), ("“", "”"), ("«", "»"))
"""Marks a place may wrap a whole name in (``"Journal of X"``, ``[Journal of X]``)."""


def unwrapped(text: str) -> str:
    """``text`` without the marks that wrap it whole, pair by pair; a mark that opens or closes only part of it
    stays (``"><img …``, ``Journal of X (Online)`` and ``(a) b (c)`` are names as they are shown)."""
    text = text.strip()
    while len(text) >= 2 and (text[0], text[-1]) in ENCLOSING_PAIRS and _wraps_whole(text):
        text = text[1:-1].strip()
    return text


def _wraps_whole(text: str) -> bool:
    """Whether ``text``'s first mark is closed by its last one only: not before, and no like mark inside."""
    opening, closing = text[0], text[-1]
    inner = text[1:-1]
    if opening == closing:
        return opening not in inner
    depth = 0
    for char in inner:
        depth += (char == opening) - (char == closing)
        if depth < 0:
            return False
    return depth == 0


def _parts(text: str) -> Iterator[str]:
    """A ``<title>``'s or heading's text whole, then each of its separated parts."""
    text = " ".join(text.split())
    if not text:
        return
    yield text
    parts = [part for part in TITLE_SEPARATORS.split(text) if part.strip()]
    if len(parts) > 1:
        yield from parts


def _meta_candidates(root: etree._Element) -> Iterator[tuple[str, str]]:
    """Journal meta tags (``meta``) and the site's brand (``site_name``)."""
    for meta in root.iterfind(".//meta"):
        key = (meta.get("name") or meta.get("property") or "").strip().casefold()
        content = meta.get("content") or ""
        if key in JOURNAL_META:
            yield "meta", content
        elif key in SITE_NAME_META:
            yield "site_name", content


def _article_titles(root: etree._Element) -> set[str]:
    """An article page's own title, as keys: its headings and ``<title>`` parts holding it are not the journal."""
    keys = set()
    for meta in root.iterfind(".//meta"):
        key = (meta.get("name") or meta.get("property") or "").strip().casefold()
        if key in ARTICLE_META and (content := name_key(meta.get("content") or "")):
            keys.add(content)
    return keys


def _logo_texts(root: etree._Element) -> Iterator[str]:
    """The site's logo: a link to the site's root (its text, else its image's ``alt``), and images whose ``alt``
    says "homepage" or whose class, id or file names a logo or banner."""
    for anchor in root.iterfind(".//a[@href]"):
        href = (anchor.get("href") or "").strip()
        if href not in ("/", "./", "index.html", "index.htm") or is_hidden(anchor):
            continue
        text = " ".join("".join(anchor.itertext()).split())
        if text:
            yield text
        for image in anchor.iterfind(".//img[@alt]"):
            yield image.get("alt") or ""
    for image in root.iterfind(".//img[@alt]"):
        alt = image.get("alt") or ""
        marks = " ".join(image.get(a) or "" for a in ("class", "id", "src"))
        if LOGO_MARK.search(marks) or re.search(r"home\s*page\s*$", alt, re.IGNORECASE):
            yield alt


def _heading_texts(root: etree._Element) -> Iterator[str]:
    """The visible text of the page's first headings of each level (``h1`` to ``h3``)."""
    for level in ("h1", "h2", "h3"):
        for heading in itertools.islice(root.iter(level), HEADINGS_PER_LEVEL):
            if not is_hidden(heading):
                yield " ".join(visible_strings(heading))
