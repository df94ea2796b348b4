"""The part of a page that speaks about the journal, and its visible text nodes in document order.

Sidebars, navigation, footers, scripts and comments are left out: a "featured journal" box quotes another
journal's impact factor, and a script's data layer holds made-up numbers. The main content is the page's MDR
data regions when given, else the container around the page's ``<h1>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

SKIPPED_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "aside",
        "nav",
        "footer",
        "header",
        "form",
        "button",
        "select",
        "iframe",
        "svg",
        "head",
        "title",
        "meta",
        "link",
    }
)
DECOY_MARKERS = re.compile(
    r"sidebar|side-bar|featured|related|promo|advert|teaser|recommend|widget|cookie|news|(?:^|[\s_-])ads?(?:$|[\s_-])",
    re.IGNORECASE,
)
CONTAINER_TAGS = frozenset({"main", "article"})


@dataclass(frozen=True, slots=True)
class TextNode:
    """One visible, non-blank text node: its text, the element holding it, and its position there."""

    text: str
    owner: etree._Element
    """The element the text node is a child of (for a tail, the parent of the element it follows)."""
    slot: int
    """1-based position among ``owner``'s ``text()`` children."""
    leaf: bool
    """The text is the owner's only text: the owner's string value is this text."""


def first_h1(root: etree._Element) -> etree._Element | None:
    """The page's first ``<h1>`` outside ``aside``, ``nav``, ``header``… (by tag: this runs on every page)."""
    for h1 in root.iter("h1"):
        for ancestor in h1.iterancestors():
            if ancestor.tag in SKIPPED_TAGS:
                break
        else:
            return h1
    return None


def title_region(root: etree._Element, h1: etree._Element | None) -> etree._Element:
    """The container of the page's title: the nearest ``main``/``article``/``role=main`` around ``h1``, else body."""
    if h1 is not None:
        for ancestor in h1.iterancestors():
            if ancestor.tag in CONTAINER_TAGS or ancestor.get("role") == "main":
                return ancestor
    for candidate in root.iter("main", "article"):
        return candidate
    body = root.find("body")
    return body if body is not None else root


def content_roots(root: etree._Element, region_xpaths: Iterable[str] = ()) -> list[etree._Element]:
    """The elements whose text is the journal's: MDR regions (valid ones) and the title's region."""
    roots: list[etree._Element] = []
    for xpath in region_xpaths:
        try:
            found = root.xpath(xpath)
        except etree.XPathError:
            continue
        roots.extend(e for e in found if isinstance(e, etree._Element) and not _skipped(e))
    region = title_region(root, first_h1(root))
    if not any(r is region or region in set(r.iterancestors()) for r in roots):
        roots = [r for r in roots if r not in set(region.iterdescendants())] + [region]
    return roots


def _skipped(element: etree._Element) -> bool:
    if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS:
        return True
    marker = f"{element.get('class', '')} {element.get('id', '')}"
    return bool(marker.strip()) and bool(DECOY_MARKERS.search(marker))


def teaser_blocks(h1: etree._Element | None, mentions_label: Callable[[str], bool]) -> set[etree._Element]:
    """Boxes beside the title that quote another journal: a link titled like a journal, then a label.

    Only blocks that are children of the title's ancestors are looked at: that is where "featured journal"
    or "more from us" boxes sit when a page marks them with no ``aside`` nor a telling class.
    """
    if h1 is None:
        return set()
    title = " ".join("".join(h1.itertext()).split())
    ancestors = list(h1.iterancestors())
    teasers = set()
    for ancestor in ancestors:
        for block in ancestor:
            if block in ancestors or block is h1 or not isinstance(block.tag, str):
                continue
            for anchor in block.iter("a"):
                text = " ".join("".join(anchor.itertext()).split())
                if len(text.split()) >= 2 and text != title and not mentions_label(text):
                    after = "".join(t for t in _texts_after(anchor, block))
                    if mentions_label(after):
                        teasers.add(block)
                    break
    return teasers


def _texts_after(anchor: etree._Element, block: etree._Element) -> Iterator[str]:
    seen = False
    for element in block.iter():
        if element is anchor:
            seen = True
            yield anchor.tail or ""
            continue
        if seen and isinstance(element.tag, str) and anchor not in set(element.iterancestors()):
            yield f" {element.text or ''} {element.tail or ''}"


def text_nodes(
    roots: Iterable[etree._Element], keep: etree._Element | None = None, skip: set[etree._Element] | None = None
) -> list[TextNode]:
    """Visible non-blank text nodes under ``roots`` in document order, minus ``skip`` blocks.

    ``keep``'s ancestors are never skipped.
    """
    kept = set(keep.iterancestors()) | {keep} if keep is not None else set()
    nodes: list[TextNode] = []
    for region in roots:
        nodes.extend(_walk(region, kept, skip or set()))
    return nodes


def _walk(element: etree._Element, kept: set[etree._Element], skip: set[etree._Element]) -> Iterator[TextNode]:
    children = [c for c in element]
    slots = [element.text is not None] + [c.tail is not None for c in children]
    leaf = sum(slots) == 1 and not any(isinstance(c.tag, str) and (c.text or len(c)) for c in children)
    slot = 0
    if element.text is not None:
        slot += 1
        if element.text.strip():
            yield TextNode(element.text, element, slot, leaf)
    for child in children:
        if isinstance(child.tag, str) and (child in kept or not (_skipped(child) or child in skip)):
            yield from _walk(child, kept, skip)
        if child.tail is not None:
            slot += 1
            if child.tail.strip():
                yield TextNode(child.tail, element, slot, leaf)
