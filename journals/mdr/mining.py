"""``mine_data_regions``: a page's data regions and their records, best first, as plain data."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from journals.gc_pause import cyclic_gc_paused
from journals.mdr.records import may_split, region_records
from journals.mdr.regions import Region, find_all_regions
from journals.mdr.tagtree import TagTree
from journals.pages.caps import ELEMENT_TAG, page_prefix
from journals.pages.parsed import ParsedPage, as_parsed, parse_html

DEFAULT_MAX_NODE_LENGTH = 10
"""K: most nodes in a generalized node (the paper's value; the project setting is ``MDR_MAX_NODE_LENGTH``)."""
DEFAULT_THRESHOLD = 0.3
"""T: most normalised edit distance between similar GNs (the project setting is ``MDR_THRESHOLD``)."""
DEFAULT_MAX_NODES = 40_000
"""Elements of a listing page mined, the first in document order (the project setting is ``MDR_MAX_NODES``):
well above the largest real list saved and the largest labelled page, and a tenth of what a listing of 200,000
anchors holds, whose whole mining would take too much memory and time (docs/ARCHITECTURE.md, "Measurements behind
the design")."""


@dataclass(frozen=True)
class DataRecord:
    """One data record: the element or elements that describe one object."""

    xpaths: list[str]
    """Absolute XPaths of the record's elements, in document order, as ``getroottree().getpath()`` gives
    them on the page's one tree (:class:`journals.pages.parsed.ParsedPage`), the unmodified page's."""
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
    """The region's data records in document order (§3.3), those found next to it by §3.4 included; records
    without any text, and records a better-scored region reports already, are left out."""


def mine_data_regions(
    page: ParsedPage | str | bytes,
    k: int = DEFAULT_MAX_NODE_LENGTH,
    threshold: float = DEFAULT_THRESHOLD,
    pause_collector: bool = True,
    navigation: bool = False,
    *,
    max_nodes: int | None = None,
) -> list[DataRegion]:
    """Mine a page's data regions (MDR, Liu, Grossman and Zhai, KDD 2003), best first.

    ``page`` is a parsed page (its tree is parsed now if it was not yet, and kept), or HTML parsed here. ``k`` is
    the longest generalized node, ``threshold`` the normalised edit distance under which two generalized nodes are
    similar. An empty or unparsable page has no regions. With ``pause_collector``, the cyclic garbage collector is
    off while the page is mined (:mod:`journals.gc_pause`: mining makes no cycles, its passes cost about 5%); the
    crawl, mining in worker threads beside the reactor, keeps it on, since a process-wide switch held by threads
    that often overlap would starve it. Regions inside a ``<nav>`` are left out unless ``navigation`` (see
    :func:`mine_tag_tree`). With ``max_nodes`` (e.g. :data:`DEFAULT_MAX_NODES`), only the first ``max_nodes``
    elements are mined: a wider page is mined on the tree of its prefix (:meth:`ParsedPage.prefix_tree`).
    """
    with cyclic_gc_paused() if pause_collector else nullcontext():
        root = _root(page, max_nodes)
        del page  # lxml's tree is freed with ``root`` when the page was only HTML
        if root is None:
            return []
        tree = TagTree.build(root, keep_elements=False)
        del root
        regions = mine_tag_tree(tree, k, threshold, navigation)
        del tree  # before the collector is back: its first pass would walk the tag tree's lists, about to be freed
    return regions


def _root(page: ParsedPage | str | bytes, max_nodes: int | None) -> etree._Element | None:
    """The tree mined: the parsed page's (of its prefix past ``max_nodes`` elements). Bytes are parsed as libxml2
    reads them, sniffing their charset (the labelled sets' pages); a crawl's pages arrive decoded and parsed."""
    if isinstance(page, bytes):
        return parse_html(page_prefix(page, ELEMENT_TAG, max_nodes).page if max_nodes is not None else page, ids=False)
    parsed = as_parsed(page)
    return parsed.prefix_tree(ELEMENT_TAG, max_nodes)[0] if max_nodes is not None else parsed.tree


@dataclass(frozen=True)
class MainRegions:
    """The XPaths of the parents of a page's best data regions: what the extraction searches first for labels.

    Called on a parsed page, it mines the page once per set-up (:meth:`ParsedPage.once`); the extraction asks only
    when it learns a page by its labels (a new template, a new page shape), not for pages its rules read.
    """

    k: int = DEFAULT_MAX_NODE_LENGTH
    """The longest generalized node (``MDR_MAX_NODE_LENGTH``)."""
    threshold: float = DEFAULT_THRESHOLD
    """The normalised edit distance under which generalized nodes are similar (``MDR_THRESHOLD``)."""
    count: int = 3
    """Regions given, best first (``MDR_MAIN_REGIONS``)."""
    max_nodes: int | None = DEFAULT_MAX_NODES
    """Elements of a page mined at most (``MDR_MAX_NODES``)."""

    def __call__(self, page: ParsedPage) -> list[str]:
        """The page's main regions, best first."""
        return page.once(self, self._mine)

    def _mine(self, page: ParsedPage) -> list[str]:
        regions = mine_data_regions(page, self.k, self.threshold, False, max_nodes=self.max_nodes)
        return [region.parent for region in regions[: self.count]]


def mine_tag_tree(tree: TagTree, k: int, threshold: float, navigation: bool = False) -> list[DataRegion]:
    """Mine an already built tag tree (see :func:`mine_data_regions`).

    The root's regions (UnCoveredDRs) are reported, and so are the regions nested inside their records
    when those are themselves lists of substantial records (see :func:`_kept`). A record without
    any text describes no object and is left out; a region left with fewer than three records, or a region
    of k > 1 nodes left with three, is left out too. Each record is reported once (see :func:`_reported_once`).
    Unless ``navigation``, a region inside a ``<nav>`` is left out: its author marked it as the site's menus,
    not as data (on the 164 labelled pages it removes 3,805 records found, 237 of them labelled).
    """
    top, nested = find_all_regions(tree, k, threshold)
    taken = bytearray(len(tree.tokens))
    for region in top + nested:
        for kid in tree.children[region.parent][region.start : region.start + region.count]:
            taken[kid] = 1
    mined: list[_Mined] = []
    text_bound = tree.text_bound
    in_navigation = tree.within("nav") if not navigation and (top or nested) else bytearray()
    for regions, is_nested in ((top, False), (nested, True)):
        for region in regions:
            if not navigation and in_navigation[region.parent]:
                continue
            if region.k == 1 and region.count < MIN_RECORDS and not any(
                may_split(tree, kid) for kid in tree.children[region.parent][region.start : region.start + region.count]
            ):
                continue  # a pair of nodes that stays a pair: fewer records than any region needs
            region, region_k, records = region_records(tree, region, threshold, taken)  # noqa: PLW2901
            bounds = [text_bound(nodes[0]) if len(nodes) == 1 else sum(map(text_bound, nodes)) for nodes in records]
            records = [nodes for nodes, bound in zip(records, bounds, strict=True) if bound]
            tags = sum(tree.ends[node] - node for nodes in records for node in nodes)
            if not _kept(region_k, len(records), sum(bounds), tags, is_nested):
                continue  # not kept even with the most text its records can have: spare computing it
            texts = [(nodes, _record_text(tree, nodes)) for nodes in records]
            score = sum(len(text) for _, text in texts)
            if _kept(region_k, len(texts), score, tags, is_nested):
                mined.append(_Mined(region, region_k, texts, score, is_nested))
    return _reported_once(tree, mined)


class _Mined(NamedTuple):
    """A region kept, with its GN length, its records and their text, before it is described."""

    region: Region
    k: int
    texts: list[tuple[list[int], str]]
    score: int
    is_nested: bool


def _reported_once(tree: TagTree, mined: list[_Mined]) -> list[DataRegion]:
    """The regions as plain data, best first, each record in the best-scored region that has it only.

    A node that FindRecords-1 splits into its children and the region nested in that node give the same
    records twice; so do two overlapping nested regions. A region left without enough records once those
    are gone (:func:`_kept`) is left out.
    """
    reported: set[tuple[int, ...]] = set()
    described = []
    for region, k, texts, score, is_nested in sorted(mined, key=lambda found: (-found.score, -len(found.texts))):
        unseen = [(nodes, text) for nodes, text in texts if tuple(nodes) not in reported]
        if len(unseen) < len(texts):
            score = sum(len(text) for _, text in unseen)  # noqa: PLW2901
            tags = sum(tree.ends[node] - node for nodes, _ in unseen for node in nodes)
            if not _kept(k, len(unseen), score, tags, is_nested):
                continue
        reported.update(tuple(nodes) for nodes, _ in unseen)
        described.append(_describe(tree, region, k, unseen, score))
    return sorted(described, key=lambda region: (-region.score, -len(region.records)))


MIN_RECORDS = 3
"""Fewest records (with text) of a reported region: two similar neighbours are weak evidence of a list."""
MIN_TEXT = 20
"""Fewest characters of text per record, on average, of a reported nested region."""
MIN_TAGS = 4
"""Fewest tags per record, on average, of a reported nested region."""


def _kept(k: int, count: int, score: int, tags: int, is_nested: bool) -> bool:
    """Whether a region of ``count`` records with text, ``score`` characters of text and ``tags`` elements
    in its records, its GNs ``k`` nodes long, is a data region worth reporting.

    Two similar generalized nodes are weak evidence: two records, or three records of several nodes each,
    are mostly halves of a page, a pair of buttons or of columns. A list nested in a record is reported
    only when its records are substantial (four tags and 20 characters of text each, on average; chosen
    on the 164-page set from a coarse grid): a product's colour swatches or a review's tag links stay
    part of their record.
    """
    if count < MIN_RECORDS or (k > 1 and count <= 3):
        return False
    return not is_nested or (score >= MIN_TEXT * count and tags >= MIN_TAGS * count)


def _record_text(tree: TagTree, nodes: list[int]) -> str:
    if len(nodes) == 1:  # most records: the node's own text
        return tree.text(nodes[0])
    return " ".join(filter(None, map(tree.text, nodes)))


def _describe(
    tree: TagTree, region: Region, k: int, records: list[tuple[list[int], str]], score: int
) -> DataRegion:
    """The region as plain data, from its records with their text."""
    described = [DataRecord(xpaths=list(map(tree.xpath, nodes)), text=text) for nodes, text in records]
    return DataRegion(
        parent=tree.xpath(region.parent),
        k=k,
        start=region.start,
        count=region.count,
        score=float(score),
        records=described,
    )
