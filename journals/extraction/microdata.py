"""A page's microdata as extruct reads it, for the periodicals among its items (:mod:`journals.extraction.structured`).

extruct builds every item of the page, each with all its properties, and the extraction reads only the periodicals'
(a name, ISSNs, a publisher, an editor, open access). An article's page may hold hundreds of items (its authors, its
references with theirs), all built on every page. Here an item that can neither be nor hold nor be read by a
periodical is left as an empty stand-in (:func:`periodical_items`), every other one built as extruct builds it, so
the periodicals read, and their order, are extruct's. A page whose microdata could make extruct fail or change what
it gives in a way the stand-ins would not (a ``@type`` written as a property, an item type ``urlparse`` refuses,
items nested deep enough to exhaust Python's recursion) is read whole, as extruct reads it.
Pure code: no Scrapy.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import lxml.html
from extruct.uniform import _umicrodata_microformat
from extruct.w3cmicrodata import MicrodataExtractor
from lxml import etree

PERIODICAL_TYPES = frozenset({"Periodical", "ScholarlyJournal", "CreativeWorkSeries", "Journal"})
"""The schema.org types of a journal: the items whose values the extraction reads."""
_ITEMS = etree.XPath("/descendant::*/@itemscope/..")
"""The items of a document in document order (extruct's ``_xp_item`` from the root), found by their attribute: half
the time of testing every element for it."""
_TYPE_PROPERTY = etree.XPath("boolean(/descendant::*/@itemprop[contains(., '@type')])")
"""Whether a property may be named ``@type``: extruct's uniform form then takes its value for its item's type."""
_ITEMS_ABOVE = etree.XPath("$keys/ancestor-or-self::*[@itemscope]")
_ITEMS_BELOW = etree.XPath("$keys/descendant::*[@itemscope]")
_ITEMS_AT_AND_BELOW = etree.XPath("$keys/descendant-or-self::*[@itemscope]")
_REFERENCED = etree.XPath("id($ids)")
PLAIN_TEXT_TAGS = frozenset(
    {"a", "abbr", "b", "bdi", "cite", "code", "dd", "div", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6"}
    | {"i", "label", "li", "p", "small", "span", "strong", "sub", "sup", "td", "th", "u"}
)
"""Tags whose element, holding text alone, ``html_text`` reads as that text: none that its cleaner drops or that
lxml's HTML parser moves when extruct parses the element's markup again (``title`` goes to a head)."""
_WHITESPACE = re.compile(r"\s+")
"""A run of whitespace, as ``html_text`` finds it."""
DEEPEST_ELEMENT = 100
"""Pages with elements nested this deep are read whole, as extruct reads them: extruct recurses a few Python frames
per level of items nested in one another, and items nested a few hundred deep make it fail (the page then has no
microdata), which the stand-ins of the inner items would not. Items cannot nest deeper than the elements."""
_DEEP_ELEMENTS = etree.XPath("boolean(/" + "/".join(["*"] * DEEPEST_ELEMENT) + ")")
"""Whether the document has an element at :data:`DEEPEST_ELEMENT`: a step per level, no predicate (one cheap pass
over the elements above that depth)."""


def microdata_items(root: etree._Element) -> list[Any]:
    """The page's microdata items in extruct's uniform form, as ``extruct.extract(uniform=True)`` gives them, items that
    do not bear on a periodical left as stand-ins (see the module); nothing when extruct fails on the page."""
    try:
        items = list(_TreeMicrodataExtractor(root).extract_items(root, base_url=None))
    except Exception:  # a page's broken markup must not stop its extraction, as in extruct.extract
        return []
    try:
        return list(_umicrodata_microformat(items, schema_context="http://schema.org"))
    except Exception:  # as extruct.extract does with a failed uniform step: the raw items
        return items


class BearingItems(NamedTuple):
    """The items of a page that may bear on its periodicals' values (:func:`periodical_items`)."""

    built: set[etree._Element]
    """The items built as extruct builds them; the others are stand-ins."""
    unread: set[etree._Element]
    """Of those, the items that only hold periodicals (an article citing journals): their own values are never read,
    only where their items are, so their other properties keep their names but not their values."""


def periodical_items(root: etree._Element, items: list[etree._Element]) -> BearingItems | None:
    """Of the page's ``items``, those that may bear on a periodical's values; None when every item must be built (see
    the module).

    An item bears on them when it is a periodical, holds one (its values are read in the order of the tree of
    items) or lies inside one (a publisher's name); and so does an item with an ``itemref``, with the items at, inside
    and around what it refers to, when it bears on them or the items it may bring do (a property brought from
    elsewhere; an item reached twice is built by whichever reaches it first, which may be an item around it). Any
    other item has no periodical in its tree of items and reaches none of the bearing ones, so a stand-in leaves the
    periodicals, their values and their order as they were. A periodical's type is a part of its ``itemtype``.
    """
    periodicals: list[etree._Element] = []
    referrers: list[etree._Element] = []
    for item in items:
        kind = item.get("itemtype")
        if kind:
            if "[" in kind or "]" in kind or not kind.isascii():
                return None  # urlparse may refuse it: extruct's uniform step fails and gives the raw items
            if any(name in kind for name in PERIODICAL_TYPES):
                periodicals.append(item)
        if item.get("itemref"):
            referrers.append(item)
    if not periodicals:
        return BearingItems(set(), set())
    if _DEEP_ELEMENTS(root):
        return None
    inside = set(_ITEMS_AT_AND_BELOW(root, keys=periodicals))
    holding = set(_ITEMS_ABOVE(root, keys=periodicals))
    bearing = holding | inside
    if referrers:
        _join_referrers(root, referrers, bearing, inside)
    return BearingItems(bearing, holding - inside)


def _join_referrers(
    root: etree._Element, referrers: list[etree._Element], bearing: set[etree._Element], inside: set[etree._Element]
) -> None:
    """Add to ``bearing`` (and to the items whose values may be read, ``inside``) the items with an ``itemref`` that
    bear on a periodical or may bring an item that does, with what they may bring and the items around it."""
    every_reference = " ".join(token for referrer in referrers for token in referrer.get("itemref", "").split())
    every_target = _REFERENCED(root, ids=every_reference)
    if bearing.isdisjoint(referrers) and bearing.isdisjoint(_ITEMS_AT_AND_BELOW(root, keys=every_target)):
        return
    referred = [(referrer, *_referred_items(root, referrer)) for referrer in referrers]
    while True:  # until no referrer joins: one that joins may make another's targets bearing
        joining = [entry for entry in referred if entry[0] in bearing or not bearing.isdisjoint(entry[1])]
        if not joining:
            return
        for referrer, reached, around in joining:
            for joined in (set(_ITEMS_ABOVE(root, keys=[referrer])), reached, around):
                bearing.update(joined)
                inside.update(joined)  # what a reference brings may be read
        referred = [entry for entry in referred if all(entry is not j for j in joining)]


def _referred_items(root: etree._Element, referrer: etree._Element) -> tuple[set[etree._Element], set[etree._Element]]:
    """The items ``referrer``'s ``itemref`` may bring (at and inside the elements it names), and those around them
    (which may reach the same items first)."""
    targets = _REFERENCED(root, ids=" ".join(referrer.get("itemref", "").split()))
    if not targets:
        return set(), set()
    return set(_ITEMS_AT_AND_BELOW(root, keys=targets)), set(_ITEMS_ABOVE(root, keys=targets))


def own_properties(item: etree._Element) -> list[etree._Element]:
    """An item's own properties in document order: the elements with ``itemprop`` below it and below no item nested
    in it (what extruct's ``_xp_prop`` selects with an XPath set difference, quadratic in the properties below the
    item). The walk stops at the nested items, so the items of a page walk its elements once between them."""
    found: list[etree._Element] = []
    pending = item[::-1]
    while pending:
        element = pending.pop()
        if element.tag.__class__ is not str:  # a comment or a processing instruction
            continue
        if element.get("itemprop") is not None:
            found.append(element)
        if element.get("itemscope") is None:
            pending.extend(element[::-1])
    return found


class _TreeMicrodataExtractor(MicrodataExtractor):  # type: ignore[misc]  # extruct ships no types
    """extruct's microdata extractor on a plain lxml tree: a property's text read only when asked for, each item's
    properties found in one pass over the items, and the items that bear on no periodical left as stand-ins.

    extruct reads a property's text on a copy of its element made of ``lxml.html`` elements (its cleaner calls their
    ``drop_tree``): a serialisation and a parse per property, 15 parses of the page on an article's page with 600
    properties, of which only a periodical's few are ever read. So the text is a :class:`PropertyText`, read as
    extruct reads it when :func:`resolved` asks for it.

    extruct finds an item's properties with an XPath set difference (its properties minus those of the items nested
    in it), quadratic in the properties below the item and evaluated again for every nested item; the same
    properties, in the same order, come from :func:`own_properties`.
    """

    def __init__(self, root: etree._Element) -> None:
        super().__init__()
        self._items: list[etree._Element] = _ITEMS(root)
        typed = bool(self._items) and _TYPE_PROPERTY(root)
        self._bearing = None if typed else periodical_items(root, self._items)
        self._unread = self._bearing.unread if self._bearing is not None else set()

    def extract_items(self, document: etree._Element, base_url: str | None) -> Any:
        """extruct's items of ``document`` (the root the extractor was made for), from the items found once."""
        itemids = {node: index + 1 for index, node in enumerate(self._items)}
        items_seen: set[int] = set()
        extracted = (
            self._extract_item(node, items_seen=items_seen, base_url=base_url, itemids=itemids) for node in self._items
        )
        return [item for item in extracted if item]

    def _extract_item(  # extruct's name and signature
        self, node: etree._Element, items_seen: set[int], base_url: str | None, itemids: dict[etree._Element, int]
    ) -> dict[str, Any] | None:
        if self._bearing is None or node in self._bearing.built:
            return super()._extract_item(node, items_seen=items_seen, base_url=base_url, itemids=itemids)  # type: ignore[no-any-return]
        itemid = itemids[node]
        if itemid in items_seen:
            return None
        items_seen.add(itemid)
        return {}  # a stand-in: no type, no properties; dropped from the page's items as extruct drops empty ones

    def _extract_properties(  # extruct's name and signature
        self, node: etree._Element, items_seen: set[int], base_url: str | None, itemids: dict[etree._Element, int]
    ) -> Iterator[tuple[str, Any]]:
        unread = node in self._unread
        for prop in own_properties(node):
            if unread and prop.get("itemscope") is None:
                yield from ((name, None) for name in prop.get("itemprop", "").split())  # extruct's names, no value
            else:
                yield from self._extract_property(prop, items_seen=items_seen, base_url=base_url, itemids=itemids)

    def _extract_textContent(self, node: etree._Element) -> Any:  # noqa: N802 - extruct's name
        return PropertyText(self, node)

    def text_of(self, node: etree._Element) -> Any:
        """A property's text as extruct reads it.

        extruct reads it on a copy cleaned of scripts, styles and comments, then laid out by ``html_text``; for an
        element of :data:`PLAIN_TEXT_TAGS` with no child (no markup, no comment) that is its text with its runs of
        whitespace made one space, read here without the copy (a periodical's name, an ISSN)."""
        if not len(node) and node.tag in PLAIN_TEXT_TAGS:
            return _WHITESPACE.sub(" ", (node.text or "").strip())
        if not isinstance(node, lxml.html.HtmlElement):
            node = lxml.html.fromstring(etree.tostring(node, encoding="unicode", with_tail=False))
        return super()._extract_textContent(node)


class PropertyText:
    """A microdata property's text, read when :func:`resolved` asks for it (see :class:`_TreeMicrodataExtractor`)."""

    __slots__ = ("extractor", "node")

    def __init__(self, extractor: _TreeMicrodataExtractor, node: etree._Element) -> None:
        self.extractor = extractor
        self.node = node


def resolved(value: Any) -> Any:
    """``value`` with a property's text read (in a list too): what extruct's eager reading would have given."""
    if isinstance(value, PropertyText):
        return value.extractor.text_of(value.node)
    if isinstance(value, list):
        return [resolved(v) for v in value]
    return value
