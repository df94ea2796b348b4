"""Data records of a data region (§3.3 and §3.4 of the paper, as reconstructed).

A generalized node (GN) is not always one record:
- when empty separators (``br``, spacer rows) break the period of multi-node records, the region's other
  nodes are cut into those records;
- one node whose children are similar to one another is a list of records, one per child, unless it is a
  data row (a ``tr``, or a node whose children are all leaves: a row of cells);
- when most GNs of fewer nodes than the region's k are similar to one typical GN, the region is cut
  into those (pitfall P7: reviews of varying length break the k = 1 chain, and a longer GN covers them);
- several nodes with the same number of children, each node's children similar, are rows of a table
  holding several objects side by side: record c is the c-th child of every node (non-contiguous);
- otherwise the GN is one record.
When a k = 1 region's records are the children of its GNs, children of the parent's uncovered nodes that
are similar to a record are records too (§3.4).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from journals.mdr.regions import Region, nodes_similar, similar
from journals.mdr.tagtree import TagTree

Record = list[int]
"""The tag-tree nodes that make up one record, in document order."""


def _all_similar(tree: TagTree, nodes: list[int], threshold: float) -> bool:
    """Whether each node is similar to the next one."""
    return all(nodes_similar(tree, a, b, threshold) for a, b in pairwise(nodes))


def _is_data_row(tree: TagTree, node: int) -> bool:
    return tree.tag(node) == "tr"


_MIN_SPLIT = 3
"""Fewest similar children for FindRecords-1 to take them as records: two similar children (a name and a
price, a label and a value) are mostly two fields of one record."""


def may_split(tree: TagTree, node: int) -> bool:
    """Whether FindRecords-1 could take a GN of this one node apart (cheap: no comparison, no text)."""
    children = tree.children
    while len(children[node]) == 1:
        node = children[node][0]
    return len(children[node]) >= _MIN_SPLIT


def _records_of_node(tree: TagTree, node: int, threshold: float) -> list[Record]:
    """FindRecords-1: the node's children when three or more are similar records, each with some text (a
    row of star icons or colour swatches is part of one record), else the node itself.

    A node whose only child is an element wrapping everything is looked through: its records are
    those of the innermost wrapped element's children.
    """
    children = tree.children
    inner = node
    while len(children[inner]) == 1:
        inner = children[inner][0]
    kids = children[inner]
    if (
        len(kids) >= _MIN_SPLIT
        and not _is_data_row(tree, inner)
        and all(map(tree.text_bound, kids))
        and _all_similar(tree, kids, threshold)
    ):
        return [[kid] for kid in kids]
    return [[node]]


def _mostly_similar(tree: TagTree, gns: list[list[int]], threshold: float) -> bool:
    """Whether some typical GN is similar to at least two thirds of ``gns`` (after pydepta's 80% rule, P7).

    The typical GN is looked for among the few GNs of median tag-string length, so the test costs a
    few passes over the region, not a quadratic number of comparisons; each distinct tag string is compared once,
    counted as often as it occurs (a list's GNs mostly share theirs), and each distinct candidate once.
    """
    tokens, ends = tree.tokens, tree.ends
    strings = [tokens[gn[0] : ends[gn[-1]]] for gn in gns]
    by_length = sorted(strings, key=len)
    middle = max(0, len(by_length) // 2 - _TYPICAL_CANDIDATES // 2)
    needed = 2 * len(strings) / 3
    counts = Counter(strings)
    tried = set()
    for typical in by_length[middle : middle + _TYPICAL_CANDIDATES]:
        if typical in tried:
            continue
        tried.add(typical)
        if sum(count for string, count in counts.items() if similar(typical, string, threshold)) >= needed:
            return True
    return False


_TYPICAL_CANDIDATES = 5


def _generalized_nodes(tree: TagTree, region: Region, threshold: float) -> list[list[int]]:
    """The region's GNs, cut shorter when GNs of fewer nodes are mostly similar to a typical one.

    Records of varying length break the chain of similar pairs at their true length, and a longer
    combination covers more of the region, so IdentDRs picks it (pitfall P7); this undoes that.
    """
    covered = tree.children[region.parent][region.start : region.start + region.count]
    for size in range(1, region.k):
        if region.count % size == 0:
            gns = [covered[first : first + size] for first in range(0, region.count, size)]
            if _mostly_similar(tree, gns, threshold):
                return gns
    return [covered[first : first + region.k] for first in range(0, region.count, region.k)]


def _records_of_combination(tree: TagTree, nodes: list[int], threshold: float) -> list[Record]:
    """FindRecords-n: the GN's nodes column by column when they are rows of objects, else the GN."""
    width = len(tree.children[nodes[0]])
    if (
        width >= 2
        and all(len(tree.children[node]) == width for node in nodes)
        and all(_all_similar(tree, tree.children[node], threshold) for node in nodes)
    ):
        return [[tree.children[node][column] for node in nodes] for column in range(width)]
    return [list(nodes)]


def _parts_are_records(tree: TagTree, covered: list[int], k: int, threshold: float) -> bool:
    """Whether the nodes of a region cut into GNs of ``k > 1`` nodes are really one record each.

    Records of varying structure (3 to 50 tags each) break the chain of similar pairs at k = 1, and a
    longer GN then covers them because the sums of a few records even out. Such a region has no period:
    its nodes all share one tag and a node is similar to the next one at least half as often as to the
    node ``k`` further, the same place in the next GN. A real k-node record (a heading row and a detail
    row, a divider and a review) is periodic: its parts differ from their neighbours, not from the next GN's.
    """
    tag = tree.tag(covered[0])
    if any(tree.tag(node) != tag for node in covered):
        return False
    tokens, ends = tree.tokens, tree.ends
    strings = [tokens[node : ends[node]] for node in covered]
    next_similar = sum(similar(a, b, threshold) for a, b in pairwise(strings))
    period_similar = sum(similar(a, b, threshold) for a, b in zip(strings, strings[k:], strict=False))
    next_rate = next_similar / (len(strings) - 1)
    period_rate = period_similar / max(1, len(strings) - k)
    return next_rate >= period_rate / 2


def region_records(
    tree: TagTree, region: Region, threshold: float, taken: bytearray
) -> tuple[Region, int, list[Record]]:
    """The region (widened, see below), the GN length it is cut into, and its records in document order
    (§3.4's included).

    ``taken`` marks, per node, the parent's children that some region covers, so §3.4 only looks at
    children no region of that parent claims. A region of k > 1 nodes cut into single nodes
    (:func:`_generalized_nodes`, :func:`_parts_are_records`) ends where its k-node GNs stopped fitting,
    not where its records do: it is widened over the few unclaimed siblings on either side that are
    each similar to their neighbour.
    """
    if region.k > 2:
        chunks = _records_between_separators(tree, region, threshold)
        if chunks:
            return region, region.k, chunks
    gns = _generalized_nodes(tree, region, threshold)
    k = len(gns[0])
    if k > 1:
        covered = [node for gn in gns for node in gn]
        if not _parts_are_records(tree, covered, k, threshold):
            return region, k, [record for gn in gns for record in _records_of_combination(tree, gn, threshold)]
        region = _widened(tree, region, threshold, taken)
        kids = tree.children[region.parent]
        return region, 1, [[node] for node in kids[region.start : region.start + region.count]]
    if region.k > 1:  # cut into single nodes: the region may go on where its k-node GNs stopped
        region = _widened(tree, region, threshold, taken)
        kids = tree.children[region.parent]
        gns = [[node] for node in kids[region.start : region.start + region.count]]
    records = [record for gn in gns for record in _records_of_node(tree, gn[0], threshold)]
    if len(records) == len(gns):
        return region, k, records
    model = records[0][0]
    records.extend(
        [grandkid]
        for kid in tree.children[region.parent]
        if not taken[kid]
        for grandkid in tree.children[kid]
        if nodes_similar(tree, grandkid, model, threshold)
    )
    return region, k, sorted(records)


def _records_between_separators(tree: TagTree, region: Region, threshold: float) -> list[Record]:
    """The region's records of j nodes, 1 < j < k, when empty separators (a ``br``, an empty spacer: no
    children, no text) break their period and IdentDRs covered them with longer GNs; else none.

    Three two-node products and a ``br`` after them repeat as GNs of 7 nodes; left without the separators, the
    nodes fall into chunks of j nodes each similar to the next. A record of one node after a separator (a
    divider and a review) is left to the GN: j = 1 is not tried.
    """
    covered = tree.children[region.parent][region.start : region.start + region.count]
    ends = tree.ends
    nodes = [node for node in covered if ends[node] > node + 1 or tree.text_bound(node)]
    if len(nodes) == len(covered):
        return []
    tokens = tree.tokens
    for size in range(2, region.k):
        if len(nodes) % size or len(nodes) < 2 * size or _parts_are_records(tree, nodes, size, threshold):
            continue
        chunks = [nodes[first : first + size] for first in range(0, len(nodes), size)]
        strings = ["".join(tokens[node : ends[node]] for node in chunk) for chunk in chunks]
        if all(similar(a, b, threshold) for a, b in pairwise(strings)):
            return chunks
    return []


def _widened(tree: TagTree, region: Region, threshold: float, taken: bytearray) -> Region:
    """The region with the unclaimed siblings before and after it that are similar to their neighbour, at
    most ``k - 1`` on each side: the leftover that a whole k-node GN no longer covered."""
    kids = tree.children[region.parent]
    start, stop = region.start, region.start + region.count
    lowest, highest = max(0, start - region.k + 1), min(len(kids), stop + region.k - 1)
    while start > lowest and not taken[kids[start - 1]] and nodes_similar(tree, kids[start - 1], kids[start], threshold):  # noqa: E501
        start -= 1
    while stop < highest and not taken[kids[stop]] and nodes_similar(tree, kids[stop - 1], kids[stop], threshold):
        stop += 1
    return Region(region.parent, 1, start, stop - start)
