"""Journal entries of an A–Z listing page: MDR's records, indexed by the links they hold."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urljoin

from lxml import etree

from journals.mdr.mining import mine_tag_tree
from journals.mdr.tagtree import TagTree, parse_html

ISSN = re.compile(r"\b\d{4}-\d{3}[\dXx]\b")
"""An ISSN as shown: ``NNNN-NNNC`` (check digit not validated here)."""
_SPACES = re.compile(r"\s+")


def link_key(url: str) -> str:
    """A URL compared loosely: no fragment, no scheme, no trailing slash."""
    url = urldefrag(url)[0]
    return url.split("://", 1)[-1].rstrip("/")


def title_key(title: str) -> str:
    """A title compared loosely: case and whitespace folded."""
    return _SPACES.sub(" ", title).strip().casefold()


@dataclass
class ListingIndex:
    """The records of a listing page, findable by the link of an entry or by its anchor text."""

    by_link: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per :func:`link_key` of an anchor's absolute URL, the listing record (best region first wins)."""
    by_title: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per :func:`title_key` of an anchor's text, the same records."""

    def find(self, url: str, title: str = "") -> dict[str, Any]:
        """The record linking to ``url``, else the one whose anchor reads ``title``; ``{}`` if none."""
        found = self.by_link.get(link_key(url))
        if found is None and title:
            found = self.by_title.get(title_key(title))
        return dict(found) if found else {}


def row_cells(anchor: etree._Element, headers: dict[etree._Element, list[str]]) -> dict[str, str]:
    """The cells of the table row holding ``anchor``, by their column's header text (``{}`` outside a table
    with a header row): a listing that is a table shows each journal's ISSN and metrics in its row.

    ``headers`` caches each table's header texts: every row of a table asks for them.
    """
    row = next((a for a in anchor.iterancestors("tr")), None)
    table = next((a for a in row.iterancestors("table")), None) if row is not None else None
    if table is None:
        return {}
    names = headers.get(table)
    if names is None:
        header_row = next((r for r in table.iter("tr") if r.find("th") is not None), None)
        names = [_cell_text(cell) for cell in header_row.iterchildren("th", "td")] if header_row is not None else []
        headers[table] = names
    if row.find("th") is not None and row.find("td") is None:
        return {}
    cells = [_cell_text(cell) for cell in row.iterchildren("td", "th")]
    return {name: text for name, text in zip(names, cells, strict=False) if name and text}


def _cell_text(cell: etree._Element) -> str:
    """A cell's text, its title attribute when it has none (a header abbreviated to "IF" says it in full)."""
    text = _SPACES.sub(" ", " ".join(cell.itertext())).strip()
    return text or (cell.get("title") or "").strip()


def index_listing(html: str | bytes, base_url: str, k: int, threshold: float) -> ListingIndex:
    """Mine a listing page and index each record's anchors: title, absolute link, ISSNs, XPaths."""
    index = ListingIndex()
    root = parse_html(html)
    if root is None:
        return index
    tree = TagTree.build(root)
    element_at = {tree.xpath(node): element for node, element in enumerate(tree.elements)}
    headers: dict[etree._Element, list[str]] = {}
    for region in mine_tag_tree(tree, k, threshold):
        for record in region.records:
            issns = [issn.upper() for issn in ISSN.findall(record.text)]
            for xpath in record.xpaths:
                for anchor in element_at[xpath].iter("a"):
                    href = anchor.get("href")
                    if not href:
                        continue
                    link = urljoin(base_url, href.strip())
                    title = _SPACES.sub(" ", "".join(anchor.itertext())).strip()
                    entry = {
                        "title": title,
                        "link": link,
                        "issns": issns,
                        "text": record.text,
                        "xpaths": record.xpaths,
                        "cells": row_cells(anchor, headers),
                    }
                    index.by_link.setdefault(link_key(link), entry)
                    if title:
                        index.by_title.setdefault(title_key(title), entry)
    return index

