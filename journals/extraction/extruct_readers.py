"""extruct's JSON-LD and microdata extractors, made to read the page's one lxml tree.

A module of their own, imported by :func:`journals.extraction.structured.structured_values` only when a page carries
such markup: importing extruct brings
in its every syntax's parser (rdflib, mf2py, BeautifulSoup, requests), which a process that reads no structured data
(a crawl's own process, when its journals are extracted in a worker process) need neither import nor hold.
Pure code: no Scrapy.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import lxml.html
from extruct.jsonld import JsonLdExtractor
from extruct.uniform import _umicrodata_microformat
from extruct.w3cmicrodata import MicrodataExtractor
from lxml import etree

from journals.extraction.microdata import PropertyText, own_properties, periodical_items

_ITEMS = etree.XPath("/descendant::*/@itemscope/..")
"""The items of a document in document order (extruct's ``_xp_item`` from the root), found by their attribute: half
the time of testing every element for it."""
_TYPE_PROPERTY = etree.XPath("boolean(/descendant::*/@itemprop[contains(., '@type')])")
"""Whether a property may be named ``@type``: extruct's uniform form then takes its value for its item's type."""
PLAIN_TEXT_TAGS = frozenset(
    {"a", "abbr", "b", "bdi", "cite", "code", "dd", "div", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6"}
    | {"i", "label", "li", "p", "small", "span", "strong", "sub", "sup", "td", "th", "u"}
)
"""Tags whose element, holding text alone, ``html_text`` reads as that text: none that its cleaner drops or that
lxml's HTML parser moves when extruct parses the element's markup again (``title`` goes to a head)."""
_WHITESPACE = re.compile(r"\s+")
"""A run of whitespace, as ``html_text`` finds it."""


class TreeJsonLdExtractor(JsonLdExtractor):  # type: ignore[misc]  # extruct ships no types
    """extruct's JSON-LD extractor, its scripts found among the page's scripts (lxml's C iteration by tag) rather than
    by an XPath that tests every element of the page."""

    def extract_items(self, document: etree._Element, base_url: str | None = None) -> list[Any]:
        """extruct's JSON-LD items of ``document``, in the order of its scripts."""
        scripts = [script for script in document.iter("script") if script.get("type") == "application/ld+json"]
        return [item for items in map(self._extract_items, scripts) if items for item in items if item]


class TreeMicrodataExtractor(MicrodataExtractor):  # type: ignore[misc]  # extruct ships no types
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


def microdata_items(root: etree._Element) -> list[Any]:
    """The page's microdata items in extruct's uniform form, as ``extruct.extract(uniform=True)`` gives them, items that
    do not bear on a periodical left as stand-ins (see :mod:`journals.extraction.microdata`); nothing when extruct
    fails on the page."""
    try:
        items = list(TreeMicrodataExtractor(root).extract_items(root, base_url=None))
    except Exception:  # a page's broken markup must not stop its extraction, as in extruct.extract
        return []
    try:
        return list(_umicrodata_microformat(items, schema_context="http://schema.org"))
    except Exception:  # as extruct.extract does with a failed uniform step: the raw items
        return items
