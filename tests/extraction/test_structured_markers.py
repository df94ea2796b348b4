"""Large pages are tested for structured data on their tree, small ones on their text: both find the same."""

from __future__ import annotations

import pytest

from journals.extraction.structured import TREE_TEST_FROM, has_structured_data, structured_values
from journals.page import parse_html

FILLER = "<div class='nav'>" + "<a href='/x'>Menu entry</a>" * (TREE_TEST_FROM // 20) + "</div>"
CASES = {
    "nothing": ("", "", False),
    "citation meta": ('<meta name="citation_issn" content="3372-1653">', "", True),
    "DC meta in capitals": ('<meta name="DC.publisher" content="Lumen">', "", True),
    "json-ld": ("", '<script type="application/ld+json">{"@type": "Periodical", "name": "J"}</script>', True),
    "microdata": (
        "",
        '<div itemscope itemtype="https://schema.org/Periodical"><span itemprop="name">J</span></div>',
        True,
    ),
    "plain script": ("<script>var a = 1;</script>", "", False),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("large", [False, True])
def test_markers_are_found_in_tree_and_text_alike(case: str, large: bool) -> None:
    head, body, expected = CASES[case]
    html = f"<html><head>{head}</head><body>{FILLER if large else ''}<main><h1>J</h1>{body}</main></body></html>"
    root = parse_html(html)
    assert root is not None
    assert (len(html) >= TREE_TEST_FROM) == large
    assert has_structured_data(html, root) is expected
    if expected and case != "DC meta in capitals":
        assert structured_values(html, root)
