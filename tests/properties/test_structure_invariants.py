"""Invariants of the tag tree, MDR and the A–Z navigation on tag soup and hostile shapes."""

from __future__ import annotations

from urllib.parse import urlsplit

from hypothesis import HealthCheck, given, settings

from journals.mdr import mine_data_regions
from journals.mdr.tagtree import TagTree
from journals.pages.navigation import anchors, classify
from journals.pages.parsed import parse_html
from lab.fuzz import BASE_URL, html_text

SOME = settings(max_examples=40, deadline=5_000, database=None, suppress_health_check=[HealthCheck.too_slow])
PAGES = html_text(max_size=1500)


@SOME
@given(PAGES)
def test_tag_tree_xpaths_are_lxmls_and_subtrees_nest(page):
    root = parse_html(page)
    if root is None:
        return
    tree = TagTree.build(root)
    document = root.getroottree()
    size = len(tree.elements)
    assert len(tree.tokens) == size == len(tree.ends) == len(tree.heights)
    for node in range(0, size, max(1, size // 50)):
        assert tree.xpath(node) == document.getpath(tree.elements[node])
        assert node < tree.ends[node] <= size
        for child in tree.children[node]:
            assert node < child < tree.ends[child] <= tree.ends[node]
            assert tree.heights[child] < tree.heights[node]


@SOME
@given(PAGES)
def test_mdr_records_are_elements_of_the_page_inside_their_region(page):
    root = parse_html(page)
    for region in mine_data_regions(page):
        assert region.count % region.k == 0 and region.count >= region.k
        assert region.records and region.score == sum(len(record.text) for record in region.records)
        for record in region.records:
            for xpath in record.xpaths:
                assert len(root.xpath(xpath)) == 1


@SOME
@given(PAGES)
def test_navigation_sorts_each_followable_anchor_at_most_once(page):
    found = anchors(page, BASE_URL)
    for anchor in found:
        parts = urlsplit(anchor.url)
        assert parts.scheme in ("http", "https") and not parts.fragment and "#" not in anchor.url
    links = classify(found)
    kinds = links.letters + links.pages + links.journals + links.browse + links.metrics
    assert len(kinds) <= len(found)
    assert all(anchor in found for anchor in kinds)
