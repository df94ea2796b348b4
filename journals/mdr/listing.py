"""Journal entries of an A–Z listing page: MDR's records, indexed by the links they hold."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice
from typing import Any
from urllib.parse import urldefrag, urlsplit

from lxml import etree

from journals.domain.issn import SHOWN_ISSN
from journals.mdr.mining import DEFAULT_MAX_NODES, mine_tag_tree
from journals.mdr.tagtree import TagTree
from journals.pages.caps import ELEMENT_TAG
from journals.pages.navigation import RECORD_TEXT_LIMIT, ResolvedLinks, RowTexts, bounded_text, resolved_links
from journals.pages.parsed import ParsedPage, as_parsed
from journals.pages.scope import route_of
from journals.pages.urls import join_url

_SPACES = re.compile(r"\s+")


def link_key(url: str) -> str:
    """A URL compared loosely: no fragment (but a script's route, :func:`journals.pages.scope.route_of`), no scheme, no
    trailing slash."""
    if "#" in url and not route_of(url):  # urldefrag leaves a URL without one as it is (and parses it twice)
        url = urldefrag(url)[0]
    return url.split("://", 1)[-1].rstrip("/")


def _origin(base_url: str) -> str:
    """``scheme://netloc`` of an http(s) base URL as ``urljoin`` writes it, ``""`` for any other."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def join_link(base_url: str, origin: str, href: str) -> str:
    """``urljoin(base_url, href)``, ``origin`` being :func:`_origin` of the base (by
    :func:`~journals.pages.urls.join_url`: a listing's links are mostly root-relative paths or absolute URLs that
    ``urljoin`` gives back unchanged, and it parses both URLs for each)."""
    return join_url(base_url, origin, href)


def title_key(title: str) -> str:
    """A title compared loosely: case and whitespace folded."""
    return _SPACES.sub(" ", title).strip().casefold()


ListingRecord = tuple[tuple[str, ...], str, tuple[str, ...]]
"""What a listing record says, shared by the anchors it holds: its ISSNs, its text and its XPaths."""
ListingEntry = tuple[str, str, ListingRecord, tuple[tuple[str, str], ...]]
"""One anchor of a listing record: its title, its absolute link, its record, and its row's cells as (column header,
text) pairs.

Plain tuples of strings, not dicts or named tuples: a wide listing has tens of thousands of entries, and the
pipeline keeps the indexes of many listings. Python's collector stops tracking exact tuples that hold only strings,
so a kept index costs the collector's full passes nothing; a dict or a named tuple per entry costs each pass a
visit (on wide listings, passes long enough to hold the reactor) and several times the memory."""


def entry_as_dict(entry: ListingEntry) -> dict[str, Any]:
    """An entry as the listing record items carry: ``title``, ``link``, ``issns``, ``text``, ``xpaths``, ``cells``."""
    title, link, (issns, text, xpaths), cells = entry
    return {
        "title": title,
        "link": link,
        "issns": list(issns),
        "text": text,
        "xpaths": list(xpaths),
        "cells": dict(cells),
    }


@dataclass
class ListingIndex:
    """The records of a listing page, findable by the link of an entry or by its anchor text."""

    by_link: dict[str, ListingEntry] = field(default_factory=dict)
    """Per :func:`link_key` of an anchor's absolute URL, the listing entry (best region first wins)."""
    by_title: dict[str, ListingEntry] = field(default_factory=dict)
    """Per :func:`title_key` of an anchor's text, the same entries."""
    truncated_nodes: int = 0
    """Elements of the page past ``max_nodes`` that were not mined (see :func:`index_listing`): 0 for most pages."""

    def find(self, url: str, title: str = "") -> dict[str, Any]:
        """The record linking to ``url``, else the one whose anchor reads ``title``; ``{}`` if none."""
        found = self.by_link.get(link_key(url))
        if found is None and title:
            found = self.by_title.get(title_key(title))
        return entry_as_dict(found) if found else {}


def row_cells(
    anchor: etree._Element,
    headers: dict[etree._Element, list[str]],
    rows: dict[etree._Element, dict[str, str]] | None = None,
) -> dict[str, str]:
    """The cells of the table row holding ``anchor``, by their column's header text (``{}`` outside a table
    with a header row): a listing that is a table shows each journal's ISSN and metrics in its row.

    ``headers`` caches each table's header texts: every row of a table asks for them; ``rows``, when given, each
    row's cells: every anchor of a row asks for them (do not modify what it returns then).
    """
    row = next(anchor.iterancestors("tr"), None)
    if row is None:
        return {}
    if rows is not None:
        cells = rows.get(row)
        if cells is None:
            cells = rows[row] = _row_cells(row, headers)
        return cells
    return _row_cells(row, headers)


def _row_cells(row: etree._Element, headers: dict[etree._Element, list[str]]) -> dict[str, str]:
    """:func:`row_cells` of the row itself."""
    names = _header_names(row, headers)
    if not any(names) or (row.find("th") is not None and row.find("td") is None):
        return {}
    cells = {}
    for name, cell in zip(names, row.iterchildren("td", "th"), strict=False):
        if name and (text := _cell_text(cell)):  # a cell under no header is not read
            cells[name] = text
    return cells


def _header_names(row: etree._Element, headers: dict[etree._Element, list[str]]) -> list[str]:
    """The header texts of the columns of the table holding ``row`` (``[]`` outside a table), kept in ``headers``
    per table."""
    table = next(row.iterancestors("table"), None)
    if table is None:
        return []
    names = headers.get(table)
    if names is None:
        header_row = next((r for r in table.iter("tr") if r.find("th") is not None), None)
        names = [_cell_text(cell) for cell in header_row.iterchildren("th", "td")] if header_row is not None else []
        headers[table] = names
    return names


def _own_text(element: etree._Element, separator: str) -> str:
    """``separator.join(element.itertext())``: the element's own text when it has no children (most anchors and
    cells), without walking it."""
    if len(element):
        return separator.join(element.itertext())
    return element.text or ""


def _cell_text(cell: etree._Element) -> str:
    """A cell's text, its title attribute when it has none (a header abbreviated to "IF" says it in full)."""
    text = " ".join(_own_text(cell, " ").split())
    return text or (cell.get("title") or "").strip()


def index_listing(
    page: ParsedPage | str | bytes, base_url: str, k: int, threshold: float, max_nodes: int = DEFAULT_MAX_NODES
) -> ListingIndex:
    """Mine a listing page and index each record's anchors: title, absolute link, ISSNs, XPaths.

    ``page`` is the listing's parsed page (the spider's, when still kept), or its HTML. Only the page's first
    ``max_nodes`` elements are mined: a wider page is mined on the tree of its prefix (:mod:`journals.pages.caps`),
    and the index says how many were left (:attr:`ListingIndex.truncated_nodes`). A spider reading the first
    ``MAX_ANCHORS_PER_PAGE`` anchors finds its journals in that part of a wide page (an anchor and its row are two
    or three elements), and mining costs the prefix's time and memory.
    """
    parsed = as_parsed(page, base_url)
    del page
    root, left_out = parsed.prefix_tree(ELEMENT_TAG, max_nodes)
    index = ListingIndex(truncated_nodes=left_out)
    if root is None:
        return index
    origin = _origin(base_url)
    links = _links_by_element(resolved_links(parsed), root, base_url, origin)
    parsed.forget(ResolvedLinks)  # the index is their last reader
    tree = parsed.kept(tree_rows)  # built by its links pass, on this very tree if on any (see :func:`tree_rows`)
    parsed.forget(tree_rows)
    del parsed  # a page of HTML only: its tree lives on in ``root`` alone
    if not isinstance(tree, TagTree) or not tree.elements or tree.elements[0] is not root:
        tree = TagTree.build(root)
    on_top = root.getparent() is None  # the tree's ancestors are then all its elements' (a prefix's root is)
    del root
    headers: dict[etree._Element, list[str]] = {}
    rows: dict[etree._Element, tuple[tuple[str, str], ...]] = {}
    regions = mine_tag_tree(tree, k, threshold)
    node_at = tree.nodes_by_path()
    for region in regions:
        for mined in region.records:
            text = mined.text
            issns = tuple(issn.upper() for issn in SHOWN_ISSN.findall(text)) if "-" in text else ()
            record: ListingRecord = (issns, text, tuple(mined.xpaths))
            for xpath in mined.xpaths:
                node = node_at[xpath]
                if on_top and tree.reads_all_text(node):  # its anchors, texts and rows read off the tag tree
                    for anchor_node in tree.nodes_of("a", node):
                        anchor = tree.elements[anchor_node]
                        href = anchor.get("href")
                        if not href:
                            continue
                        link = _anchor_link(anchor, href, links, base_url, origin)
                        pieces = tree.pieces(anchor_node)
                        if len(pieces) > 1:  # pieces joined with nothing between them, as the anchor reads
                            title = " ".join(_own_text(anchor, "").split())
                        else:
                            title = " ".join(pieces[0].split()) if pieces else ""
                        _add(index, title, link, record, _tree_row_items(tree, anchor_node, headers, rows))
                    continue
                for anchor in tree.elements[node].iter("a"):
                    href = anchor.get("href")
                    if not href:
                        continue
                    link = _anchor_link(anchor, href, links, base_url, origin)
                    title = " ".join(_own_text(anchor, "").split())
                    _add(index, title, link, record, _row_items(anchor, headers, rows))
    return index


def _anchor_link(
    anchor: etree._Element, href: str, links: dict[etree._Element, str], base_url: str, origin: str
) -> str:
    """The absolute link of ``anchor`` (its ``href``): the links pass's, unless the ``href`` has a fragment (which
    the links pass drops), else :func:`join_link`'s."""
    return (links.get(anchor) if "#" not in href else None) or join_link(base_url, origin, href.strip())


_NO_TREE = TagTree([], "", [], [])
"""The tag tree of a page :func:`tree_rows` builds none for: no node, no row read off it."""
ROWS_BEFORE_TREE = 16
"""Rows whose texts a links pass reads off lxml before it builds the page's tag tree (:func:`tree_rows`): a page of
a few rows (a menu, a home page) is read as it would be without it, and keeps no tag tree."""


def tree_rows(page: ParsedPage, root: etree._Element) -> RowTexts:
    """A reader of the rows' texts of ``page``'s own tree (``root``) for its links pass (``rows`` of
    :func:`~journals.pages.navigation.page_links`): past its first :data:`ROWS_BEFORE_TREE` rows (then None: read
    off lxml), and on a page of no more elements than its index mines (``DEFAULT_MAX_NODES``; a wider one's index
    reads a prefix's tree), the page's :class:`TagTree`, built then and kept with the page for its listing index
    (:func:`index_listing`), which would build it anyway (a page that lists nothing forgets it:
    ``page.forget(tree_rows)``). A row's text is its node's pieces (:meth:`TagTree.pieces`) where those are all its
    element's text (:meth:`TagTree.reads_all_text`), rather than its element's texts read off lxml again."""
    rows_read = 0
    tree: TagTree | None = None
    node_of: dict[etree._Element, int] = {}

    def row_text(row: etree._Element) -> str | None:
        nonlocal rows_read, tree, node_of
        if tree is None:
            rows_read += 1
            if rows_read <= ROWS_BEFORE_TREE:
                return None
            if next(islice(root.iter(), DEFAULT_MAX_NODES, None), None) is not None:
                tree = _NO_TREE  # wider than its index mines: the index reads a prefix's tree of its own
                return None
            tree = page.once(tree_rows, lambda _: TagTree.build(root))  # kept under this reader's name
            if tree.elements and tree.elements[0] is root:
                node_of = dict(zip(tree.elements, range(len(tree.elements)), strict=True))
        node = node_of.get(row)
        if node is None or not tree.reads_all_text(node):
            return None
        return bounded_text(tree.pieces(node), RECORD_TEXT_LIMIT)

    return row_text


def _add(
    index: ListingIndex, title: str, link: str, record: ListingRecord, cells: tuple[tuple[str, str], ...]
) -> None:
    """Index the entry of an anchor reading ``title`` (collapsed) linking to ``link`` in ``record``'s row of
    ``cells``, unless a better region's entry has its link or title already."""
    entry: ListingEntry = (title, link, record, cells)
    index.by_link.setdefault(link_key(link), entry)
    if title:  # collapsed already: its title_key is its case folded
        index.by_title.setdefault(title.casefold(), entry)


def _tree_row_items(
    tree: TagTree,
    anchor: int,
    headers: dict[etree._Element, list[str]],
    rows: dict[etree._Element, tuple[tuple[str, str], ...]],
) -> tuple[tuple[str, str], ...]:
    """:func:`_row_items` of the tag tree's node ``anchor``, its row found and its cells read off the tag tree."""
    row = tree.ancestor("tr", anchor)
    if row < 0:
        return ()
    element = tree.elements[row]
    cells = rows.get(element)
    if cells is None:
        cells = rows[element] = tuple(_tree_row_cells(tree, row, headers).items())
    return cells


def _tree_row_cells(tree: TagTree, row: int, headers: dict[etree._Element, list[str]]) -> dict[str, str]:
    """:func:`_row_cells` of the tag tree's node ``row``: a cell's text is its node's (:meth:`TagTree.text`) when
    that is all its element's (:meth:`TagTree.reads_all_text`)."""
    element = tree.elements[row]
    names = _header_names(element, headers)
    if not any(names) or (element.find("th") is not None and element.find("td") is None):
        return {}
    cells = {}
    for name, cell in zip(names, tree.children_of(row, ("td", "th")), strict=False):
        if name and (text := _node_cell_text(tree, cell)):  # a cell under no header is not read
            cells[name] = text
    return cells


def _node_cell_text(tree: TagTree, cell: int) -> str:
    """:func:`_cell_text` of the tag tree's node ``cell``."""
    if not tree.reads_all_text(cell):
        return _cell_text(tree.elements[cell])
    return tree.text(cell) or (tree.elements[cell].get("title") or "").strip()


def _row_items(
    anchor: etree._Element,
    headers: dict[etree._Element, list[str]],
    rows: dict[etree._Element, tuple[tuple[str, str], ...]],
) -> tuple[tuple[str, str], ...]:
    """:func:`row_cells` as the entries hold them, one tuple per row shared by the row's anchors."""
    row = next(anchor.iterancestors("tr"), None)
    if row is None:
        return ()
    cells = rows.get(row)
    if cells is None:
        cells = rows[row] = tuple(_row_cells(row, headers).items())
    return cells


def _links_by_element(
    resolved: ResolvedLinks | None, root: etree._Element, base_url: str, origin: str
) -> dict[etree._Element, str]:
    """The absolute links the page's links pass resolved (:class:`~journals.pages.navigation.ResolvedLinks`) on this
    very tree, by element, where they are :func:`join_link`'s: relative to the same base, no fragment to keep (the
    links pass drops it: an ``href`` with a fragment is joined again). Empty when the links were read on another
    tree or base, or not at all."""
    if resolved is None or resolved.root is not root or resolved.base != base_url or resolved.origin != origin:
        return {}
    return dict(zip(resolved.elements, resolved.urls, strict=True))
