"""FindDRs and CombComp pinned to the paper's straightforward form on labelled and hand-written pages.

The module's versions skip work (nodes of one child, equal tag strings compared without rapidfuzz, children of one
shape compared once); the references here do all of it, so any difference in what is found fails."""

import gzip
from pathlib import Path

import pytest

from journals.mdr import regions
from journals.mdr.regions import Region, find_all_regions, similar
from journals.mdr.tagtree import TagTree
from journals.pages.parsed import parse_html

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "mdr"
LABELLED = [
    "nexteval-mdr/html/1.html.gz",
    "nexteval-mdr/html/10.html.gz",
    "nexteval-mdr/html/100.html.gz",
    "scrapinghub-mdr/htmlpage0.html",
    "pydepta-mdr/resources/3.html",
    "pydepta-mdr/resources/5.html",
]
SETTINGS = [(10, 0.3), (5, 0.2), (10, 0.5), (3, 0.0)]


def _reference_comb_comp(tree, kids, max_k, threshold):
    """CombComp as Figure 6 writes it: every pair of adjacent GNs of every length compared with :func:`similar`."""
    tokens, ends = tree.tokens, tree.ends
    runs = {}
    for k in range(1, min(max_k, len(kids) // 2) + 1):
        by_phase = {}
        for phase in range(k):
            flags = [
                similar(tokens[kids[j] : kids[j + k]], tokens[kids[j + k] : ends[kids[j + 2 * k - 1]]], threshold)
                for j in range(phase, len(kids) - 2 * k + 1, k)
            ]
            firsts, lasts = [], []
            for index, flag in enumerate(flags):
                j = phase + index * k
                if flag and (index == 0 or not flags[index - 1]):
                    firsts.append(j)
                if flag and (index == len(flags) - 1 or not flags[index + 1]):
                    lasts.append(j)
            if firsts:
                by_phase[phase] = regions._Runs(firsts, lasts)
        if by_phase:
            runs[k] = by_phase
            if k == 1 and 0 in by_phase and by_phase[0].firsts[0] == 0 and by_phase[0].lasts[0] == len(kids) - 2:
                break
    return runs


def _reference_find_all_regions(tree, max_k, threshold):
    """FindDRs visiting every node of height 3 or more, one child or many, each child's regions handed up one level."""
    found: dict[int, list[Region]] = {}
    nested: list[Region] = []
    for node in reversed(range(len(tree.tokens))):
        kids = tree.children[node]
        if tree.heights[node] < 3:
            continue
        if len(kids) == 1:
            if kids[0] in found:
                found[node] = found.pop(kids[0])
            continue
        runs = _reference_comb_comp(tree, kids, max_k, threshold)
        own = [Region(node, *span) for span in regions._ident_drs(len(kids), runs)] if runs else []
        lists = regions._rising_regions(kids, own, found, nested)
        if lists or own:
            found[node] = [region for found_list in lists for region in found_list] + own
    order = lambda region: (region.parent, region.start)  # noqa: E731
    rest = [region for node, found_list in found.items() if node for region in found_list]
    return sorted(found.get(0, []), key=order), sorted(nested + rest, key=order)


def _tree(name: str) -> TagTree:
    html = (DATA / name).read_bytes()
    return TagTree.build(parse_html(gzip.decompress(html) if name.endswith(".gz") else html), keep_elements=False)


@pytest.mark.parametrize("name", LABELLED)
def test_find_all_regions_is_the_reference_on_labelled_pages(name):
    tree = _tree(name)
    for max_k, threshold in SETTINGS:
        assert find_all_regions(tree, max_k, threshold) == _reference_find_all_regions(tree, max_k, threshold)


@pytest.mark.parametrize("name", LABELLED)
def test_comb_comp_is_the_reference_on_labelled_pages(name):
    tree = _tree(name)
    wide = [kids for kids in tree.children if len(kids) >= 4]
    assert wide
    for max_k, threshold in SETTINGS:
        for kids in wide:
            assert regions._comb_comp(tree, kids, max_k, threshold) == _reference_comb_comp(tree, kids, max_k, threshold)


def test_regions_rise_through_chains_of_one_child():
    row = "<div><p><b>x</b><i>y</i></p></div>"
    body = f"<div><div><div><section>{row * 4}</section></div></div></div><div><div>{row * 3}</div></div>"
    tree = TagTree.build(parse_html(f"<html><body>{body}</body></html>"))
    top, nested = find_all_regions(tree, 10, 0.3)
    assert (top, nested) == _reference_find_all_regions(tree, 10, 0.3)
    assert [(tree.tag(region.parent), region.count) for region in top] == [("section", 4), ("div", 3)]


def test_children_of_one_shape_under_several_parents_each_give_their_own_regions():
    """The comparisons of children shaped alike are made once, and the regions they give are each parent's own."""
    card = "<div><h3>t</h3><p>a</p></div><div><h3>u</h3><p>b</p></div><div><h3>v</h3><p>c</p></div><span>x</span>"
    odd = "<div><h3>t</h3></div><div><h3>u</h3><p>b</p><p>c</p></div><div><p>v</p></div><span>x</span>"
    body = f"<section>{card}</section><section>{odd}</section><section>{card}</section>"
    tree = TagTree.build(parse_html(f"<html><body>{body}</body></html>"))
    for max_k, threshold in SETTINGS:
        assert find_all_regions(tree, max_k, threshold) == _reference_find_all_regions(tree, max_k, threshold)
    top, nested = find_all_regions(tree, 10, 0.3)
    sections = tree.children[tree.children[0][-1]]
    assert [(region.parent, region.start, region.count) for region in top] == [(tree.children[0][-1], 0, 3)]
    assert [(region.parent, region.start, region.count) for region in nested if region.parent in sections] == [
        (sections[0], 0, 3),
        (sections[2], 0, 3),
    ]
