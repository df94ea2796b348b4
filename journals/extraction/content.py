"""The part of a page that speaks about the journal, and its visible text nodes in document order.

Sidebars, navigation, footers, scripts, comments and hidden elements are left out: a "featured journal" box
quotes another journal's impact factor, a script's data layer holds made-up numbers, and text hidden by
``display:none`` or a ``sr-only`` class is no text a reader sees. The main content is the page's MDR data regions
when given, else the container around the page's ``<h1>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from lxml import etree

from journals.pages.visibility import is_hidden
from journals.vocabulary import extraction_phrases, normalise_label

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
CONTENT_HEADER_TAGS = frozenset({"header"})
"""Skipped as site chrome, except inside ``main``/``article``, where a ``<header>`` holds the content's heading."""
NON_TEXT_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "meta", "link", "svg", "iframe"})
"""Elements whose text no reader sees as text on the page."""
_LOGO_MARKERS = re.compile(r"logo|brand|masthead|site-?(?:name|title)", re.IGNORECASE)


def _is_logo(h1: etree._Element) -> bool:
    """An ``<h1>`` that holds the site's logo or brand (a link to the site's root), not the page's heading."""
    for element in (h1, *h1.iterchildren("a", "span", "img")):
        if _LOGO_MARKERS.search(f"{element.get('class', '')} {element.get('id', '')}"):
            return True
    anchors = list(h1.iterchildren("a"))
    return len(anchors) == 1 and (anchors[0].get("href") or "").strip() == "/" and not (h1.text or "").strip()


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
    """The page's first visible ``<h1>`` outside ``aside``, ``nav``, ``footer``… that is no site logo (by tag:
    this runs on every page).

    A ``<header>`` inside ``main``/``article`` is the content's own, and a ``<form>`` may wrap a whole page
    (ASP.NET writes every page inside one): neither hides the heading.
    """
    for h1 in root.iter("h1"):
        if not (is_hidden(h1) or _is_logo(h1) or _in_chrome(h1)):
            return h1
    return None


def _in_chrome(element: etree._Element) -> bool:
    """Whether ``element`` sits inside site chrome (``aside``, ``nav``, ``footer``…) or a hidden element; a
    ``<form>`` around the whole page and a ``<header>`` inside ``main``/``article`` are no chrome."""
    for ancestor in element.iterancestors():
        tag = ancestor.tag
        wraps = tag == "form" or (tag in CONTENT_HEADER_TAGS and _inside_content(ancestor))
        if (tag in SKIPPED_TAGS and not wraps) or is_hidden(ancestor):
            return True
    return False


def _inside_content(element: etree._Element) -> bool:
    return any(a.tag in CONTAINER_TAGS or a.get("role") == "main" for a in element.iterancestors())


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
    """The elements whose text is the journal's: MDR regions (valid ones) and the title's region.

    A region inside chrome (a footer's list of sister journals, a menu) is none of the journal's, and a region
    inside the title's region adds nothing to it.
    """
    roots: list[etree._Element] = []
    for xpath in region_xpaths:
        try:
            found = root.xpath(xpath)
        except etree.XPathError:
            continue
        roots.extend(e for e in found if isinstance(e, etree._Element) and not (_skipped(e) or _in_chrome(e)))
    region = title_region(root, first_h1(root))
    if not any(r is region or r in set(region.iterancestors()) for r in roots):
        roots = [r for r in roots if r not in set(region.iterdescendants())] + [region]
    for panel in own_panels(root):
        if not any(r is panel or r in set(panel.iterancestors()) for r in roots):
            roots.append(panel)
    return roots


SIDE_MARKERS = re.compile(r"sidebar|side-bar|side_bar|sidepanel|side-panel", re.IGNORECASE)
"""Classes and ids of a page's side column, where a journal's own facts panel may sit as well as teasers."""


def own_panels(root: etree._Element) -> list[etree._Element]:
    """The page's side panels headed as the journal's own facts (:func:`is_own_panel`), outside its main
    content: an ``<aside>`` "Journal metrics", a sidebar's "About this article" box."""
    panels = []
    for element in root.iter("aside", "div", "section"):
        if element.tag != "aside" and not SIDE_MARKERS.search(f"{element.get('class', '')} {element.get('id', '')}"):
            continue
        if is_own_panel(element) and not is_hidden(element) and not any(p in panels for p in element.iterancestors()):
            panels.append(element)
    return panels


def is_own_panel(box: etree._Element) -> bool:
    """Whether ``box``'s first heading says it holds the journal's own facts ("Journal metrics", "About this
    article": the vocabulary's ``own_panel_headings``).

    Why: a position is not a verdict. Publishers put the journal's metrics and identifiers in a sidebar as often
    as in the main column; a sidebar's teaser is told apart by naming another journal (:func:`names_another_journal`),
    and a panel headed as the journal's own is read wherever it sits.
    """
    heading = next(box.iter("h1", "h2", "h3", "h4", "h5", "h6"), None)
    if heading is None:
        return False
    text = " ".join("".join(heading.itertext()).split())
    return len(text) <= HEADING_LENGTH and bool(_own_heading().match(normalise_label(text)))


@cache
def _own_heading() -> re.Pattern[str]:
    phrases = sorted({normalise_label(p) for p in extraction_phrases()["own_panel_headings"]}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(map(re.escape, phrases))})(?:\s+(?:19|20)\d\d)?$")


def _skipped(element: etree._Element) -> bool:
    tag = element.tag
    if not isinstance(tag, str):
        return True
    if tag in SKIPPED_TAGS and not (tag in CONTENT_HEADER_TAGS and _inside_content(element)):
        return tag != "aside" or not is_own_panel(element)
    if is_hidden(element):
        return True
    marker = f"{element.get('class', '')} {element.get('id', '')}"
    if marker.strip() and DECOY_MARKERS.search(marker):
        return not (SIDE_MARKERS.search(marker) and is_own_panel(element))
    return tag in BOX_TAGS and names_another_journal(element)


BOX_TAGS = frozenset({"div", "section", "ul", "ol", "dl", "table", "li", "article", "aside", "nav"})
"""Elements that can be a box headed "Featured journal", "More from …"."""
HEADING_LENGTH = 60
"""Characters of a box's first child beyond which it is content, not the box's heading."""


@cache
def _decoy_heading() -> re.Pattern[str]:
    phrases = sorted({normalise_label(p) for p in extraction_phrases()["decoy_headings"]}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(map(re.escape, phrases))})(?:\s|$)")


def names_another_journal(box: etree._Element) -> bool:
    """Whether ``box`` is headed as one about other journals ("Featured journal", "Related journals", "Most read",
    "More from …": the vocabulary's ``decoy_headings``): what it quotes beside a label is another journal's."""
    for child in box:
        if not isinstance(child.tag, str):
            continue
        heading = "".join(child.itertext())
        return len(heading) <= HEADING_LENGTH and bool(_decoy_heading().match(normalise_label(heading)))
    return False


def teaser_blocks(h1: etree._Element | None, mentions_label: Callable[[str], bool]) -> set[etree._Element]:
    """Boxes beside the title that quote another journal: a link titled like a journal, then a label.

    Only blocks that are children of the title's ancestors are looked at: that is where "featured journal"
    or "more from us" boxes sit when a page marks them with no ``aside`` nor a telling class. A block that
    names the page's own title ("Title: Acta Seismologica Sinica" in an "About this journal" box) is the
    journal's own. ``mentions_label`` is asked of each text leaf (an element's text or tail) once at most.
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
            if title and title in " ".join("".join(block.itertext()).split()):
                continue
            for anchor in block.iter("a"):
                text = " ".join("".join(anchor.itertext()).split())
                if len(text.split()) >= 2 and text != title and not mentions_label(text):
                    box = _smallest_box(anchor, block, mentions_label)
                    if box is not None:
                        teasers.add(box)
                    break
    return teasers


def _smallest_box(
    anchor: etree._Element, block: etree._Element, mentions_label: Callable[[str], bool]
) -> etree._Element | None:
    """The smallest element around ``anchor``, up to ``block``, whose text after the anchor mentions a label:
    the "featured journal" box itself, not the row that holds it beside the journal's own metrics.

    The text after the anchor in a box is a prefix of that in the box around it, so the box is the smallest
    one around both the anchor and the first text leaf after it, in ``block``, that holds a label: each leaf is
    searched once, however many boxes hold it."""
    if anchor.tail and mentions_label(anchor.tail):
        return anchor.getparent()
    labelled = _first_labelled_after(anchor, block, mentions_label)
    if labelled is None:
        return None
    around = set(labelled.iterancestors())
    return next((box for box in anchor.iterancestors() if box in around), None)


def _first_labelled_after(
    anchor: etree._Element, block: etree._Element, mentions_label: Callable[[str], bool]
) -> etree._Element | None:
    """The first element of ``block`` after ``anchor`` (not inside it) whose text or tail mentions a label."""
    elements = block.iter()
    for element in elements:
        if element is anchor:
            break
    for _ in anchor.iterdescendants():
        next(elements, None)
    for element in elements:
        if not isinstance(element.tag, str):
            continue
        if (element.text and mentions_label(element.text)) or (element.tail and mentions_label(element.tail)):
            return element
    return None


def text_nodes(
    roots: Iterable[etree._Element], keep: etree._Element | None = None, skip: set[etree._Element] | None = None
) -> list[TextNode]:
    """Visible non-blank text nodes under ``roots`` in document order, minus ``skip`` blocks.

    ``keep``'s ancestors are never skipped.
    """
    kept = set(keep.iterancestors()) | {keep} if keep is not None else set()
    skipped = skip or set()

    def enter(child: etree._Element) -> bool:
        return child in kept or not (_skipped(child) or child in skipped)

    nodes: list[TextNode] = []
    for region in roots:
        nodes.extend(_walk(region, enter))
    return nodes


def _walk(element: etree._Element, enter: Callable[[etree._Element], bool]) -> Iterator[TextNode]:
    """The text nodes of ``element`` in document order, descending into the children ``enter`` accepts."""
    children = [c for c in element]
    slots = [element.text is not None] + [c.tail is not None for c in children]
    leaf = sum(slots) == 1 and not any(isinstance(c.tag, str) and (c.text or len(c)) for c in children)
    slot = 0
    if element.text is not None:
        slot += 1
        if element.text.strip():
            yield TextNode(element.text, element, slot, leaf)
    for child in children:
        if isinstance(child.tag, str) and enter(child):
            yield from _walk(child, enter)
        if child.tail is not None:
            slot += 1
            if child.tail.strip():
                yield TextNode(child.tail, element, slot, leaf)


def page_text_nodes(element: etree._Element) -> list[TextNode]:
    """Every visible non-blank text node under ``element``, chrome included (footers, headers, sidebars): only
    scripts, styles, templates and hidden elements are left out."""
    return list(_walk(element, _visible))


def visible_strings(element: etree._Element) -> Iterator[str]:
    """The texts of :func:`page_text_nodes`, in the same order, for a reader that joins them: no node is built and
    no position counted (the page's headings and footers are read so on every page)."""
    text = element.text
    if text and not text.isspace():
        yield text
    for child in element:
        if isinstance(child.tag, str) and _visible(child):
            yield from visible_strings(child)
        text = child.tail
        if text and not text.isspace():
            yield text


def _visible(element: etree._Element) -> bool:
    return element.tag not in NON_TEXT_TAGS and not is_hidden(element)


def has_hidden_parts(element: etree._Element) -> bool:
    """Whether any element inside ``element`` is hidden or holds no visible text (a script, a style)."""
    return any(
        isinstance(e.tag, str) and (e.tag in NON_TEXT_TAGS or is_hidden(e)) for e in element.iterdescendants()
    )


def in_link(element: etree._Element) -> bool:
    """Whether ``element`` is, or sits directly inside, a link to a page: a menu entry, not a label."""
    for candidate in (element, element.getparent()):
        if candidate is not None and candidate.tag == "a" and candidate.get("href"):
            return True
    return False
