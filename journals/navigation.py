"""The paper's heuristic navigation of an A–Z journal index, on one page's HTML: no site-specific XPath.

Anchors are classified by their text and position: A–Z letters (and ``0-9``, ``#``, two-letter sub-indexes),
pagination, the hop from a start page to the A–Z page, the hop from a journal page to its metrics page, and the
journal entries of a listing page (the largest repeated group of content anchors). Pure code over lxml.
"""

from __future__ import annotations

import json
import pkgutil
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from journals.entries import find_journal_list
from journals.extraction.content import is_hidden

CHROME_TAGS = frozenset({"nav", "header", "footer", "aside"})
"""Anchors inside these are site chrome: never pagination (``nav`` aside), and their groups count less as lists."""
SKIPPED_SCHEMES = ("javascript:", "mailto:", "tel:", "#")
RECORD_TAGS = frozenset({"li", "tr", "dd", "dt", "article"})
"""An anchor's row: the text around it there (an ISSN, "journal") says what the anchor links to."""
RECORD_TEXT_LIMIT = 400


@dataclass(frozen=True)
class Anchor:
    """One link of a page: absolute URL, normalised visible text, and where it sits."""

    url: str
    text: str
    """The anchor's visible text; else its image's ``alt`` or ``title``; else its own ``title``/``aria-label``."""
    chrome: str
    """The nearest chrome element around it (``nav``, ``header``, ``footer``, ``aside``), ``""`` if none."""
    group: str
    """The anchor's structural signature: tags and classes of its ancestors, no positions."""
    shape: str = ""
    """Its tags only, with the column of a table cell: a list split into boxes of different classes shares it."""
    record_text: str = ""
    """The visible text of the anchor's row (``li``, ``tr``, ``dd``, ``article``), when short."""

    @property
    def in_chrome(self) -> bool:
        """Whether the anchor sits inside site chrome."""
        return bool(self.chrome)


@dataclass(frozen=True)
class PageLinks:
    """The links of one page that the A–Z navigation follows, by kind."""

    letters: list[Anchor]
    pages: list[Anchor]
    content: list[Anchor]
    """Every other anchor with text: where :func:`journals.entries.journal_entries` finds the list."""
    browse: list[Anchor]
    metrics: list[Anchor]

    @property
    def journals(self) -> list[Anchor]:
        """The page's journal entries, judged on this page alone."""
        found = find_journal_list(self.content)
        return found.anchors if found is not None else []  # type: ignore[return-value]


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    raw = pkgutil.get_data("settings", "vocabulary.json")
    assert raw is not None
    navigation = json.loads(raw)["navigation"]
    return {
        kind: re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
        for kind, patterns in navigation.items()
        if not kind.startswith("_")
    }


def normalise_text(text: str) -> str:
    """Collapse whitespace and strip; anchors are matched on this form."""
    return " ".join(text.split())


def visible_text(element: etree._Element) -> str:
    """The element's text without its hidden descendants, scripts and styles, whitespace collapsed."""
    parts: list[str] = []
    _collect_visible(element, parts)
    return normalise_text("".join(parts))


def _collect_visible(element: etree._Element, parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in ("script", "style") and not is_hidden(child):
            _collect_visible(child, parts)
        if child.tail:
            parts.append(child.tail)


def anchor_text(element: etree._Element) -> str:
    """What an anchor says: its visible text, else an image's ``alt``/``title``, else its ``title``/``aria-label``."""
    text = visible_text(element)
    if text:
        return text
    for image in element.iter("img"):
        text = normalise_text(image.get("alt") or image.get("title") or "")
        if text:
            return text
    return normalise_text(element.get("title") or element.get("aria-label") or "")


def anchors(page_html: str | bytes, page_url: str) -> list[Anchor]:
    """Every followable anchor of a page, in document order, with absolute URLs (fragments dropped).

    Script links (``href="#"``, ``javascript:``) are not followable: the list they would filter is read where it is.
    """
    if not page_html:
        return []
    try:
        root = lxml_html.fromstring(page_html)
    except (ValueError, etree.ParserError):
        return []
    base = urljoin(page_url, root.xpath("string(//base/@href)") or page_url)
    row_texts: dict[etree._Element, str] = {}
    found = []
    for element in root.iter("a"):
        href = (element.get("href") or "").strip()
        if not href or href.startswith(SKIPPED_SCHEMES):
            continue
        url = urljoin(base, href).split("#", 1)[0]
        if urlsplit(url).scheme not in ("http", "https"):
            continue
        ancestors = [a for a in element.iterancestors() if isinstance(a.tag, str)]
        chrome = next(
            (a.tag if a.tag in CHROME_TAGS else "nav" for a in ancestors
             if a.tag in CHROME_TAGS or a.get("role") == "navigation"),
            "",
        )
        row = next((a for a in ancestors[:4] if a.tag in RECORD_TAGS), None)
        found.append(
            Anchor(
                url=url,
                text=anchor_text(element),
                chrome=chrome,
                group="/".join(f"{a.tag}.{a.get('class', '')}" for a in reversed(ancestors)),
                shape="/".join(_shape_step(a) for a in reversed(ancestors)),
                record_text=_row_text(row, row_texts) if row is not None else "",
            )
        )
    return found


def _shape_step(element: etree._Element) -> str:
    """One step of an anchor's shape: the tag, and for a table cell its column."""
    if element.tag in ("td", "th"):
        parent = element.getparent()
        return f"{element.tag}[{parent.index(element) if parent is not None else 0}]"
    return str(element.tag)


def _row_text(row: etree._Element, cache: dict[etree._Element, str]) -> str:
    """The row's visible text (cached: a row holds several anchors), empty when longer than a record's."""
    text = cache.get(row)
    if text is None:
        text = normalise_text(" ".join(row.itertext()))
        text = text if len(text) <= RECORD_TEXT_LIMIT else ""
        cache[row] = text
    return text


def classify(page_anchors: Iterable[Anchor], page_url: str = "") -> PageLinks:
    """Sort a page's anchors into letters, pagination, browse and metrics hops, and content.

    A letter is an anchor reading ``B``, ``0-9`` or ``Ab`` among anchors that mostly read so: a journal called
    "AI" or "C" in a list of journals is not an index. A page link ("2", "41-80", "Next ›") links to a page like
    this one (same path, or a sibling or child of it): "82" linking to a search of a journal's articles is not.
    """
    patterns = _patterns()
    page_anchors = list(page_anchors)
    letter_texts: dict[str, list[str]] = {}
    for anchor in page_anchors:
        if patterns["letter"].fullmatch(anchor.text):
            letter_texts.setdefault(anchor.group, []).append(anchor.text)
    letter_like = [_is_index_letter(a.text, letter_texts.get(a.group, ())) for a in page_anchors]
    group_sizes = Counter(a.group for a in page_anchors)
    group_letters = Counter(a.group for a, like in zip(page_anchors, letter_like, strict=True) if like)
    letters, pages, browse, metrics, content = [], [], [], [], []
    for anchor, like in zip(page_anchors, letter_like, strict=True):
        text = anchor.text
        if like and group_letters[anchor.group] * 2 >= group_sizes[anchor.group]:
            letters.append(anchor)
        elif patterns["browse"].fullmatch(text):
            browse.append(anchor)
        elif patterns["metrics_page"].fullmatch(text):
            metrics.append(anchor)  # a journal's own menu often holds "About the journal"
            content.append(anchor)  # and a list may hold journals called "Information" or "Metrics"
        elif (
            anchor.chrome in ("", "nav")
            and patterns["next_page"].fullmatch(text)
            and (not page_url or is_near(anchor.url, page_url))
        ):
            pages.append(anchor)
        elif text:
            content.append(anchor)
    if page_url:  # a menu's "About" is the site's unless it names this journal
        metrics = [a for a in metrics if not a.chrome or is_about(a.url, page_url)]
    # Content links before menu links, and "About the journal" before a bare "About" that may be the site's.
    metrics.sort(key=lambda anchor: (anchor.in_chrome, " " not in anchor.text))
    return PageLinks(letters=letters, pages=pages, content=content, browse=browse, metrics=metrics)


def _is_index_letter(text: str, group_letters: Sequence[str]) -> bool:
    """Whether ``text`` reads as an index letter among the letter-like texts of its group.

    A two-letter text is a sub-index ("Ab") unless its group reads like a language menu: two-letter texts
    only, each initial once ("EN", "DE", "FR").
    """
    if text not in group_letters:
        return False
    if len(text) != 2 or not text.isalpha() or any(len(t) == 1 for t in group_letters):
        return True
    initials = Counter(t[0].upper() for t in group_letters)
    return len(group_letters) == 1 or max(initials.values()) > 1


def page_links(page_html: str | bytes, page_url: str) -> PageLinks:
    """:func:`classify` the anchors of one page."""
    return classify(anchors(page_html, page_url), page_url)


def is_about(url: str, page_url: str) -> bool:
    """Whether ``url`` is about what the page is about: under the page's path, or naming its last path segment
    or one of its query values (``/journal/acta`` → ``/journal/acta/about``, ``/page/acta/info.html``)."""
    link, page = urlsplit(url), urlsplit(page_url)
    path = page.path.rstrip("/")
    if path and link.path.startswith(path + "/"):
        return True
    names = [path.rpartition("/")[2].rpartition(".")[0] or path.rpartition("/")[2]]
    names += [value for _, _, value in (pair.partition("=") for pair in page.query.split("&"))]
    target = f"{link.path}?{link.query}"
    return any(len(name) >= 3 and name in target for name in names)


def is_near(url: str, page_url: str) -> bool:
    """Whether ``url`` is on the page's host and its path is the page's, a sibling of it, or under it."""
    link, page = urlsplit(url), urlsplit(page_url)
    if (link.hostname or "").removeprefix("www.") != (page.hostname or "").removeprefix("www."):
        return False
    path, here = link.path.rstrip("/"), page.path.rstrip("/")
    return path == here or path.rpartition("/")[0] == here.rpartition("/")[0] or path.startswith(here + "/")
