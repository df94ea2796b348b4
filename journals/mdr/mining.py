"""``mine_data_regions``: a page's data regions and their records, best first, as plain data."""

from __future__ import annotations

from dataclasses import dataclass

from journals.mdr.records import region_records
from journals.mdr.regions import Region, find_regions
from journals.mdr.tagtree import TagTree, parse_html

DEFAULT_MAX_NODE_LENGTH = 10
"""K: most nodes in a generalized node (the paper's value; the project setting is ``MDR_MAX_NODE_LENGTH``)."""
DEFAULT_THRESHOLD = 0.3
"""T: most normalised edit distance between similar GNs (the project setting is ``MDR_THRESHOLD``)."""


@dataclass(frozen=True)
class DataRecord:
    """One data record: the element or elements that describe one object."""

    xpaths: list[str]
    """Absolute XPaths of the record's elements, in document order, as ``getroottree().getpath()`` gives
    them on ``lxml.html``'s parse of the unmodified page."""
    text: str
    """The record's visible text, whitespace collapsed."""


@dataclass(frozen=True)
class DataRegion:
    """A data region: adjacent similar generalized nodes under one parent, with its records."""

    parent: str
    """Absolute XPath of the parent element whose children make up the region."""
    k: int
    """Number of sibling elements per generalized node: IdentDRs' length, or the shorter one the region
    is cut into when GNs of that length are similar (records of varying length, pitfall P7)."""
    start: int
    """Index of the region's first element among the parent's children (0-based; scripts, styles,
    comments and processing instructions are not counted)."""
    count: int
    """Number of the parent's children the region covers (a multiple of ``k``)."""
    score: float
    """How much content the region carries: the characters of its records' text. Regions are ranked by it."""
    records: list[DataRecord]
    """The region's data records in document order (§3.3), those found next to it by §3.4 included."""


def mine_data_regions(
    html: str | bytes, k: int = DEFAULT_MAX_NODE_LENGTH, threshold: float = DEFAULT_THRESHOLD
) -> list[DataRegion]:
    """Mine a page's data regions (MDR, Liu, Grossman and Zhai, KDD 2003), best first.

    ``k`` is the longest generalized node, ``threshold`` the normalised edit distance under which two
    generalized nodes are similar. An empty or unparsable page has no regions.
    """
    root = parse_html(html)
    if root is None:
        return []
    return mine_tag_tree(TagTree.build(root), k, threshold)


def mine_tag_tree(tree: TagTree, k: int, threshold: float) -> list[DataRegion]:
    """Mine an already built tag tree (see :func:`mine_data_regions`)."""
    regions = find_regions(tree, k, threshold)
    taken = bytearray(len(tree.elements))
    for region in regions:
        for kid in tree.children[region.parent][region.start : region.start + region.count]:
            taken[kid] = 1
    mined = [_describe(tree, region, *region_records(tree, region, threshold, taken)) for region in regions]
    return sorted(mined, key=lambda region: (-region.score, -len(region.records)))


def _describe(tree: TagTree, region: Region, k: int, records: list[list[int]]) -> DataRegion:
    described = [
        DataRecord(
            xpaths=[tree.xpath(node) for node in nodes],
            text=" ".join(filter(None, (tree.text(node) for node in nodes))),
        )
        for nodes in records
    ]
    return DataRegion(
        parent=tree.xpath(region.parent),
        k=k,
        start=region.start,
        count=region.count,
        score=float(sum(len(record.text) for record in described)),
        records=described,
    )
