"""Data regions (Liu, Grossman, Zhai 2003, §3.2): CombComp, IdentDRs, FindDRs and UnCoveredDRs.

Everything is 0-based. A region keeps its parent node (pitfall P1 of the reconstruction), only the
root's regions are returned (P2), "similar" means a normalised edit distance at most T (P3), the
``TreeDepth >= 3`` test is the subtree height (P4) and an unset region is ``None``, not start 0 (P5).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

from rapidfuzz.distance import Levenshtein

from journals.mdr.tagtree import TagTree


class Region(NamedTuple):
    """A data region as tag-tree node numbers: ``count`` children of ``parent`` from ``start``, ``k`` a GN."""

    parent: int
    k: int
    start: int
    count: int  # type: ignore[assignment]  # the paper's word; shadows tuple.count, which no caller uses


def similar(a: str, b: str, threshold: float) -> bool:
    """Whether two tag strings are within normalised edit distance ``threshold`` (distance / mean length).

    Rejects on length first (the distance is at least the length difference); equal strings are similar without
    rapidfuzz, which otherwise stops at the cutoff: above it it returns ``cutoff + 1``, never the true distance.
    """
    cutoff = int(threshold * (len(a) + len(b)) / 2 + 1e-9)
    if abs(len(a) - len(b)) > cutoff:
        return False
    return a == b or Levenshtein.distance(a, b, score_cutoff=cutoff) <= cutoff


def _slices_similar(tokens: str, start: int, middle: int, end: int, threshold: float) -> bool:
    """:func:`similar` on ``tokens[start:middle]`` and ``tokens[middle:end]``, rejecting on length before slicing."""
    len_a, len_b = middle - start, end - middle
    cutoff = int(threshold * (len_a + len_b) / 2 + 1e-9)
    if (len_a - len_b if len_a > len_b else len_b - len_a) > cutoff:
        return False
    first, second = tokens[start:middle], tokens[middle:end]
    return first == second or Levenshtein.distance(first, second, score_cutoff=cutoff) <= cutoff


def nodes_similar(tree: TagTree, first: int, second: int, threshold: float) -> bool:
    """Whether the subtrees of two nodes have similar tag strings."""
    tokens, ends = tree.tokens, tree.ends
    return similar(tokens[first : ends[first]], tokens[second : ends[second]], threshold)


class _Runs(NamedTuple):
    """For one GN length k and one phase (start index mod k): maximal runs of similar adjacent GN pairs."""

    firsts: list[int]
    lasts: list[int]


def _comb_comp(tree: TagTree, kids: list[int], max_k: int, threshold: float) -> dict[int, dict[int, _Runs]]:
    """Compare every pair of adjacent GNs of every length up to ``max_k`` once (CombComp, Figure 6).

    The results are kept as runs per k and phase (start index mod k), which lets IdentDRs find, for
    any start, the first run of each phase with a binary search instead of rescanning the children.
    The comparison is :func:`similar` written inline (it runs once per GN pair of every node): siblings
    are contiguous in preorder, so a GN's tag string is one slice of the page's; equal strings (most GNs
    of a list) are similar without a call to rapidfuzz.
    """
    size = len(kids)
    tokens = tree.tokens
    ends = tree.ends
    kid_ends = [ends[kid] for kid in kids]
    distance = Levenshtein.distance
    runs: dict[int, dict[int, _Runs]] = {}
    for k in range(1, min(max_k, size // 2) + 1):
        by_phase: dict[int, _Runs] = {}
        for phase in range(k):
            firsts: list[int] = []
            lasts: list[int] = []
            run_first = last = -1
            for j in range(phase, size - 2 * k + 1, k):
                a_start, middle, b_end = kids[j], kids[j + k], kid_ends[j + 2 * k - 1]
                len_a, len_b = middle - a_start, b_end - middle
                cutoff = int(threshold * (len_a + len_b) / 2 + 1e-9)
                if (len_a - len_b if len_a > len_b else len_b - len_a) <= cutoff and (
                    (first_string := tokens[a_start:middle]) == (second_string := tokens[middle:b_end])
                    or distance(first_string, second_string, score_cutoff=cutoff) <= cutoff
                ):
                    if run_first < 0:
                        run_first = j
                    last = j
                elif run_first >= 0:
                    firsts.append(run_first)
                    lasts.append(last)
                    run_first = -1
            if run_first >= 0:
                firsts.append(run_first)
                lasts.append(last)
            if firsts:
                by_phase[phase] = _Runs(firsts, lasts)
        if by_phase:
            runs[k] = by_phase
            if k == 1 and 0 in by_phase and by_phase[0].firsts[0] == 0 and by_phase[0].lasts[0] == size - 2:
                break  # all children in one k = 1 run: no longer GN can cover more (ties go to k = 1)
    return runs


def _ident_drs(size: int, runs: dict[int, dict[int, _Runs]]) -> list[tuple[int, int, int]]:
    """IdentDRs (Figure 8) from ``start = 0``, its tail recursion written as a loop.

    For each k and each phase f = start..start+k-1 the candidate is the first run of similar pairs at
    or after f; the best candidate covers the most children and starts no later than the best so far
    (so ties go to the smallest k, the paper's "smallest length that covers the region"). Only the k
    and phases with a run of similar pairs are looked at.
    """
    regions: list[tuple[int, int, int]] = []
    start = 0
    while start < size:
        best: tuple[int, int, int] | None = None  # (k, start, count)
        for k, by_phase in runs.items():
            for first_phase in range(start, start + k):
                phase_runs = by_phase.get(first_phase % k)
                if phase_runs is None:
                    continue
                lasts = phase_runs.lasts
                index = bisect_left(lasts, first_phase)
                if index == len(lasts):
                    continue
                run_start = max(phase_runs.firsts[index], first_phase)
                count = lasts[index] - run_start + 2 * k
                if best is None or (best[2] < count and run_start <= best[1]):
                    best = (k, run_start, count)
        if best is None:
            break
        regions.append(best)
        start = best[1] + best[2]
    return regions


def _rising_regions(
    kids: list[int], own: list[Region], found: dict[int, list[Region]], nested: list[Region]
) -> list[list[Region]]:
    """UnCoveredDRs: the region lists of the children no region of their parent covers (taken out of
    ``found``); those of covered children go to ``nested``."""
    carrying = found.keys() & kids  # the children with regions of their own or below them, usually none
    if not carrying:
        return []
    if not own:
        return [found.pop(kid) for kid in carrying]
    covered = set()
    for region in own:
        covered.update(kids[region.start : region.start + region.count])
    lists = []
    for kid in carrying:
        if kid in covered:
            nested.extend(found.pop(kid))
        else:
            lists.append(found.pop(kid))
    return lists


def _own_regions(
    tree: TagTree,
    node: int,
    max_k: int,
    threshold: float,
    spans_by_shape: dict[tuple[str, tuple[int, ...]], list[tuple[int, int, int]]],
) -> list[Region]:
    """IdentDRs among the children of a node of three children or more.

    Three children need two comparisons (k = 1 only). More are compared by CombComp once per shape: what IdentDRs
    finds among them depends on their tag strings alone, so ``spans_by_shape`` keeps it per tag strings laid end to
    end and where each child starts (a list's records repeat their shapes).
    """
    kids, tokens, ends = tree.children[node], tree.tokens, tree.ends
    if len(kids) == 3:
        first, second, third = kids
        left = _slices_similar(tokens, first, second, third, threshold)
        right = _slices_similar(tokens, second, third, ends[third], threshold)
        return [Region(node, 1, 0 if left else 1, 2 + (left and right))] if left or right else []
    first = kids[0]
    shape = (tokens[first : ends[kids[-1]]], tuple(map(first.__rsub__, kids)))
    spans = spans_by_shape.get(shape)
    if spans is None:
        runs = _comb_comp(tree, kids, max_k, threshold)
        spans = spans_by_shape[shape] = _ident_drs(len(kids), runs) if runs else []
    return [Region(node, *span) for span in spans]


def find_regions(tree: TagTree, max_k: int, threshold: float) -> list[Region]:
    """FindDRs over the whole tree: the root's data regions, uncovered ones of descendants included."""
    return find_all_regions(tree, max_k, threshold)[0]


def find_all_regions(tree: TagTree, max_k: int, threshold: float) -> tuple[list[Region], list[Region]]:
    """FindDRs over the whole tree: the root's data regions (UnCoveredDRs), and the nested ones.

    Nodes are visited as they end, so every child is done before its parent; a child's regions
    rise to its parent unless one of the parent's own regions covers that child (UnCoveredDRs). The
    regions UnCoveredDRs drops (those inside a generalized node of a region higher up) are returned
    second: a generalized node whose parts are themselves lists of similar records holds them.
    """
    found: dict[int, list[Region]] = {}
    nested: list[Region] = []
    # IdentDRs' regions per shape of a node's children (see _own_regions)
    spans_by_shape: dict[tuple[str, tuple[int, ...]], list[tuple[int, int, int]]] = {}
    children, ends, tokens, parents = tree.children, tree.ends, tree.tokens, tree.parents
    carrying = bytearray(len(ends))  # per node, whether one of its children is in ``found``
    distance = Levenshtein.distance
    for node in tree.branching:  # TreeDepth >= 3, every child done before its parent
        kids = children[node]
        if len(kids) == 1:  # nothing to compare: the only child's regions rise as they are (see below)
            continue
        if len(kids) == 2:  # most nodes: one comparison (:func:`_slices_similar` inline), one possible region
            first, second = kids
            end = ends[second]
            len_a, len_b = second - first, end - second
            cutoff = int(threshold * (len_a + len_b) / 2 + 1e-9)
            if (len_a - len_b if len_a > len_b else len_b - len_a) <= cutoff and (
                (first_string := tokens[first:second]) == (second_string := tokens[second:end])
                or distance(first_string, second_string, score_cutoff=cutoff) <= cutoff
            ):
                own = [Region(node, 1, 0, 2)]
            elif carrying[node]:
                own = []
            else:
                continue
        else:
            own = _own_regions(tree, node, max_k, threshold, spans_by_shape)
        lists = _rising_regions(kids, own, found, nested) if carrying[node] else []
        if not lists and not own:
            continue
        lists.sort(key=len, reverse=True)
        merged = lists[0] if lists else []
        for other in lists[1:]:
            merged.extend(other)
        merged.extend(own)
        holder = node  # the regions rise through parents of one child as they are
        while holder and len(children[parents[holder]]) == 1:
            holder = parents[holder]
        found[holder] = merged
        if holder:
            carrying[parents[holder]] = 1
    root_regions = found.pop(0, [])
    for regions in found.values():
        nested.extend(regions)
    order = lambda region: (region.parent, region.start)  # noqa: E731
    return sorted(root_regions, key=order), sorted(nested, key=order)
