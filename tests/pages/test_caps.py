"""Cutting a wide page before its N+1-th anchor or element: the prefix parses to the full tree's first part."""

import lxml.html

from journals.pages.caps import ANCHOR_TAG, ELEMENT_TAG, page_prefix

PAGE = (
    '<html><body><abbr>x</abbr><A HREF="/1">1</A><a href="/2">2</a><area href="/m"><ul><li><a\nhref="/3">3</a></li>'
    "<li><a>4</a></li></ul></body></html>"
)


def test_the_cut_comes_before_the_first_anchor_left_out_and_counts_the_rest() -> None:
    prefix = page_prefix(PAGE, ANCHOR_TAG, 2)
    assert prefix.page == PAGE[: PAGE.index("<ul><li><a") + len("<ul><li>")]
    assert prefix.left_out == 2
    assert page_prefix(PAGE, ANCHOR_TAG, 4) == (PAGE, 0)
    assert page_prefix(PAGE.encode(), ANCHOR_TAG, 2) == (prefix.page.encode(), 2)


def test_the_prefix_tree_is_the_first_part_of_the_full_tree_with_the_same_paths() -> None:
    full = lxml.html.document_fromstring(PAGE)
    cut = lxml.html.document_fromstring(page_prefix(PAGE, ELEMENT_TAG, 7).page)
    paths = [cut.getroottree().getpath(element) for element in cut.iter()]
    assert paths == [full.getroottree().getpath(element) for element in full.iter()][: len(paths)]
    assert len(paths) == 7
