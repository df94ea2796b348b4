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

from collections.abc import Iterator
from typing import Any

import lxml.html
from extruct.uniform import _umicrodata_microformat
from extruct.w3cmicrodata import MicrodataExtractor
from lxml import etree

PERIODICAL_TYPES = frozenset({"Periodical", "ScholarlyJournal", "CreativeWorkSeries", "Journal"})
"""The schema.org types of a journal: the items whose values the extraction reads."""
_ITEMS_AND_TYPE_PROPERTIES = etree.XPath("descendant-or-self::*[@itemscope or @itemprop[contains(., '@type')]]")
"""The items in document order (extruct's ``_xp_item``), and any element whose ``itemprop`` may be ``@type``."""
_OWN_PROPERTIES = etree.XPath("descendant::*[@itemprop][count(ancestor::*[@itemscope][1] | $item) = 1]")
"""An item's own properties in document order: the elements with ``itemprop`` below it and below no item nested in
it (what extruct's ``_xp_prop`` selects with a set difference, quadratic in the properties below the item)."""
_ITEMS_ABOVE = etree.XPath("$keys/ancestor-or-self::*[@itemscope]")
_ITEMS_BELOW = etree.XPath("$keys/descendant::*[@itemscope]")
_REFERENCED = etree.XPath("id($ids)")
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


def periodical_items(root: etree._Element, items: list[etree._Element]) -> set[etree._Element] | None:
    """Of the page's ``items``, those that may bear on a periodical's values; None when every item must be built (see
    the module).

    An item bears on them when it is one, holds one (its values are read in the order of the tree of items), lies
    inside one (a publisher's name), holds an ``itemref`` or is what one refers to or lies inside that (a property
    brought from elsewhere may be either, and an item reached twice is built by whichever reaches it first). Any other
    item has no periodical in its tree of items and is reached only through the tree it lies in, so a stand-in leaves
    the periodicals, their values and their order as they were. A periodical's type is a part of its ``itemtype``.
    """
    periodicals: list[etree._Element] = []
    referrers: list[etree._Element] = []
    references: list[str] = []
    for item in items:
        kind = item.get("itemtype")
        if kind:
            if "[" in kind or "]" in kind or not kind.isascii():
                return None  # urlparse may refuse it: extruct's uniform step fails and gives the raw items
            if any(name in kind for name in PERIODICAL_TYPES):
                periodicals.append(item)
        if reference := item.get("itemref"):
            referrers.append(item)
            references.extend(reference.split())
    if not periodicals:
        return set()
    if _DEEP_ELEMENTS(root):
        return None
    referenced: list[etree._Element] = _REFERENCED(root, ids=" ".join(references)) if references else []
    bearing: set[etree._Element] = set(_ITEMS_ABOVE(root, keys=periodicals + referrers + referenced))
    bearing.update(_ITEMS_BELOW(root, keys=periodicals + referenced))
    return bearing


class _TreeMicrodataExtractor(MicrodataExtractor):  # type: ignore[misc]  # extruct ships no types
    """extruct's microdata extractor on a plain lxml tree: a property's text read only when asked for, each item's
    properties found in one pass over the items, and the items that bear on no periodical left as stand-ins.

    extruct reads a property's text on a copy of its element made of ``lxml.html`` elements (its cleaner calls their
    ``drop_tree``): a serialisation and a parse per property, 15 parses of the page on an article's page with 600
    properties, of which only a periodical's few are ever read. So the text is a :class:`PropertyText`, read as
    extruct reads it when :func:`resolved` asks for it.

    extruct finds an item's properties with an XPath set difference (its properties minus those of the items nested
    in it), quadratic in the properties below the item and evaluated again for every nested item; the same
    properties, in the same order, come from :func:`_properties_by_item`.
    """

    def __init__(self, root: etree._Element) -> None:
        super().__init__()
        found: list[etree._Element] = _ITEMS_AND_TYPE_PROPERTIES(root)
        self._items = [element for element in found if element.get("itemscope") is not None]
        typed = len(self._items) < len(found) or any("@type" in (item.get("itemprop") or "") for item in self._items)
        self._bearing = None if typed else periodical_items(root, self._items)

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
        if self._bearing is None or node in self._bearing:
            return super()._extract_item(node, items_seen=items_seen, base_url=base_url, itemids=itemids)  # type: ignore[no-any-return]
        itemid = itemids[node]
        if itemid in items_seen:
            return None
        items_seen.add(itemid)
        return {}  # a stand-in: no type, no properties; dropped from the page's items as extruct drops empty ones

    def _extract_properties(  # extruct's name and signature
        self, node: etree._Element, items_seen: set[int], base_url: str | None, itemids: dict[etree._Element, int]
    ) -> Iterator[tuple[str, Any]]:
        for prop in _OWN_PROPERTIES(node, item=node):
            yield from self._extract_property(prop, items_seen=items_seen, base_url=base_url, itemids=itemids)

    def _extract_textContent(self, node: etree._Element) -> Any:  # noqa: N802 - extruct's name
        return PropertyText(self, node)

    def text_of(self, node: etree._Element) -> Any:
        """A property's text as extruct reads it."""
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
