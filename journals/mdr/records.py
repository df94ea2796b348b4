"""Data records of a data region (§3.3 and §3.4 of the paper, as reconstructed).

A generalized node (GN) is not always one record:
- one node whose children are similar to one another is a list of records, one per child, unless it is a
  data row (a ``tr``, or a node whose children are all leaves: a row of cells);
- when most nodes of a region with k > 1 are similar to one typical node, each node is a record (pitfall
  P7: reviews of varying length break the k = 1 chain, and a longer GN covers them);
- several nodes with the same number of children, each node's children similar, are rows of a table
  holding several objects side by side: record c is the c-th child of every node (non-contiguous);
- otherwise the GN is one record.
When a k = 1 region's records are the children of its GNs, children of the parent's uncovered nodes that
are similar to a record are records too (§3.4).
"""

from __future__ import annotations

from itertools import pairwise

from journals.mdr.regions import Region, nodes_similar
from journals.mdr.tagtree import TagTree

Record = list[int]
"""The tag-tree nodes that make up one record, in document order."""


def _all_similar(tree: TagTree, nodes: list[int], threshold: float) -> bool:
    """Whether each node is similar to the next one."""
    return all(nodes_similar(tree, a, b, threshold) for a, b in pairwise(nodes))


def _is_data_row(tree: TagTree, node: int) -> bool:
    return tree.tag(node) == "tr" or tree.heights[node] <= 2


def _records_of_node(tree: TagTree, node: int, threshold: float) -> list[Record]:
    """FindRecords-1: the node's children when they are similar records, else the node itself."""
    kids = tree.children[node]
    if len(kids) >= 2 and not _is_data_row(tree, node) and _all_similar(tree, kids, threshold):
        return [[kid] for kid in kids]
    return [[node]]


def _split_into_nodes(tree: TagTree, nodes: list[int], threshold: float) -> bool:
    """Whether some typical node is similar to at least 80% of ``nodes`` (pydepta's rule for P7).

    The typical node is looked for among the few nodes of median tag-string length, so the test
    costs a few passes over the region, not a quadratic number of comparisons.
    """
    by_length = sorted(nodes, key=lambda node: tree.ends[node] - node)
    middle = len(by_length) // 2
    needed = 0.8 * len(nodes)
    return any(
        sum(nodes_similar(tree, typical, node, threshold) for node in nodes) >= needed
        for typical in by_length[max(0, middle - _TYPICAL_CANDIDATES // 2) :][:_TYPICAL_CANDIDATES]
    )


_TYPICAL_CANDIDATES = 3


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


def region_records(tree: TagTree, region: Region, threshold: float, taken: bytearray) -> list[Record]:
    """The records of one region, in document order, §3.4's records around it included.

    ``taken`` marks, per node, the parent's children that some region covers, so §3.4 only looks at
    children no region of that parent claims.
    """
    kids = tree.children[region.parent]
    stop = region.start + region.count
    gns = [kids[first : first + region.k] for first in range(region.start, stop, region.k)]
    if region.k > 1:
        covered = kids[region.start : region.start + region.count]
        if _split_into_nodes(tree, covered, threshold):
            return [[node] for node in covered]
        return [record for gn in gns for record in _records_of_combination(tree, gn, threshold)]
    records = [record for gn in gns for record in _records_of_node(tree, gn[0], threshold)]
    if len(records) == len(gns):
        return records
    model = records[0][0]
    records.extend(
        [grandkid]
        for kid in kids
        if not taken[kid]
        for grandkid in tree.children[kid]
        if nodes_similar(tree, grandkid, model, threshold)
    )
    return sorted(records)
