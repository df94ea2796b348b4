"""The paper's heuristic navigation of an A–Z journal index, on one page's HTML: no site-specific XPath.

Anchors are classified by their text and position: A–Z letters (and ``0-9``, ``#``, two-letter sub-indexes),
pagination, the hop from a start page to the A–Z page, the hop from a journal page to its metrics page, and the
journal entries of a listing page (the largest repeated group of content anchors). Pure code over lxml.
"""

from __future__ import annotations

import json
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from urllib.parse import urljoin, urlsplit

from lxml import html as lxml_html

CHROME_TAGS = frozenset({"nav", "header", "footer", "aside"})
"""Anchors inside these are site chrome, never journal entries or pagination."""
SKIPPED_SCHEMES = ("javascript:", "mailto:", "tel:", "#")


@dataclass(frozen=True)
class Anchor:
    """One link of a page: absolute URL, normalised text, and where it sits."""

    url: str
    text: str
    in_chrome: bool
    group: str
    """The anchor's structural signature: tags and classes of its ancestors, no positions."""


@dataclass(frozen=True)
class PageLinks:
    """The links of one page that the A–Z navigation follows, by kind."""

    letters: list[Anchor]
    pages: list[Anchor]
    journals: list[Anchor]
    browse: list[Anchor]
    metrics: list[Anchor]


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


def anchors(page_html: str | bytes, page_url: str) -> list[Anchor]:
    """Every followable anchor of a page, in document order, with absolute URLs (fragments dropped)."""
    if not page_html:
        return []
    try:
        root = lxml_html.fromstring(page_html)
    except (ValueError, lxml_html.etree.ParserError):
        return []
    base = root.xpath("string(//base/@href)") or page_url
    found = []
    for element in root.iter("a"):
        href = (element.get("href") or "").strip()
        if not href or href.startswith(SKIPPED_SCHEMES):
            continue
        url = urljoin(urljoin(page_url, base), href).split("#", 1)[0]
        if urlsplit(url).scheme not in ("http", "https"):
            continue
        ancestors = [a for a in element.iterancestors() if isinstance(a.tag, str)]
        found.append(
            Anchor(
                url=url,
                text=normalise_text(element.text_content()),
                in_chrome=any(a.tag in CHROME_TAGS or a.get("role") == "navigation" for a in ancestors),
                group="/".join(f"{a.tag}.{a.get('class', '')}" for a in reversed(ancestors)),
            )
        )
    return found


def classify(page_anchors: Iterable[Anchor]) -> PageLinks:
    """Sort a page's anchors into letters, pagination, journal entries, browse and metrics hops."""
    patterns = _patterns()
    letters, pages, browse, metrics, content = [], [], [], [], []
    for anchor in page_anchors:
        text = anchor.text
        if patterns["letter"].fullmatch(text):
            letters.append(anchor)
        elif anchor.in_chrome:
            if patterns["browse"].fullmatch(text):
                browse.append(anchor)
            elif patterns["metrics_page"].fullmatch(text):
                metrics.append(anchor)  # a journal's own menu often holds "About the journal"
        elif patterns["next_page"].fullmatch(text):
            pages.append(anchor)
        elif patterns["browse"].fullmatch(text):
            browse.append(anchor)
        elif patterns["metrics_page"].fullmatch(text):
            metrics.append(anchor)
        elif text:
            content.append(anchor)
    # Content links before menu links, and "About the journal" before a bare "About" that may be the site's.
    metrics.sort(key=lambda anchor: (anchor.in_chrome, " " not in anchor.text))
    return PageLinks(letters=letters, pages=pages, journals=_largest_group(content), browse=browse, metrics=metrics)


def page_links(page_html: str | bytes, page_url: str) -> PageLinks:
    """:func:`classify` the anchors of one page."""
    return classify(anchors(page_html, page_url))


def _largest_group(content: list[Anchor]) -> list[Anchor]:
    """The journal entries: the structural group of anchors carrying the most text."""
    groups: dict[str, list[Anchor]] = {}
    for anchor in content:
        groups.setdefault(anchor.group, []).append(anchor)
    if not groups:
        return []
    return max(groups.values(), key=lambda g: sum(len(a.text) for a in g))
