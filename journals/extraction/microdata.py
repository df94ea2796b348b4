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

from typing import Any, NamedTuple, Protocol

from lxml import etree

PERIODICAL_TYPES = frozenset({"Periodical", "ScholarlyJournal", "CreativeWorkSeries", "Journal"})
"""The schema.org types of a journal: the items whose values the extraction reads."""
_ITEMS_ABOVE = etree.XPath("$keys/ancestor-or-self::*[@itemscope]")
_ITEMS_BELOW = etree.XPath("$keys/descendant::*[@itemscope]")
_ITEMS_AT_AND_BELOW = etree.XPath("$keys/descendant-or-self::*[@itemscope]")
_REFERENCED = etree.XPath("id($ids)")
DEEPEST_ELEMENT = 100
"""Pages with elements nested this deep are read whole, as extruct reads them: extruct recurses a few Python frames
per level of items nested in one another, and items nested a few hundred deep make it fail (the page then has no
microdata), which the stand-ins of the inner items would not. Items cannot nest deeper than the elements."""
_DEEP_ELEMENTS = etree.XPath("boolean(/" + "/".join(["*"] * DEEPEST_ELEMENT) + ")")
"""Whether the document has an element at :data:`DEEPEST_ELEMENT`: a step per level, no predicate (one cheap pass
over the elements above that depth)."""


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


class TextReader(Protocol):
    """What reads a microdata property's text as extruct does
    (:class:`~journals.extraction.extruct_readers.TreeMicrodataExtractor`)."""

    def text_of(self, node: etree._Element) -> Any:
        """The property's text."""
        ...


class PropertyText:
    """A microdata property's text, read when :func:`resolved` asks for it (see
    :class:`~journals.extraction.extruct_readers.TreeMicrodataExtractor`)."""

    __slots__ = ("extractor", "node")

    def __init__(self, extractor: TextReader, node: etree._Element) -> None:
        self.extractor = extractor
        self.node = node


def resolved(value: Any) -> Any:
    """``value`` with a property's text read (in a list too): what extruct's eager reading would have given."""
    if isinstance(value, PropertyText):
        return value.extractor.text_of(value.node)
    if isinstance(value, list):
        return [resolved(v) for v in value]
    return value
