"""Large pages are tested for structured data on their tree, small ones on their text: both find the same."""

from __future__ import annotations

import pytest

from journals.extraction.structured import TREE_TEST_FROM, has_structured_data, structured_values
from journals.pages.parsed import parse_html

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


ARTICLE_WITH_PERIODICAL = """<html><head><title>x</title></head><body>
<div itemscope itemtype="http://schema.org/ScholarlyArticle"><h1 itemprop="name">An article <b>bold</b></h1>
<span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Ann Smith</span></span>
<div itemprop="isPartOf" itemscope itemtype="http://schema.org/Periodical">
 <span itemprop="name">Journal of  Tests</span> <span itemprop="issn">1234-5679</span><span itemprop="issn">2049-3630</span>
 <div itemprop="publisher" itemscope itemtype="http://schema.org/Organization"><span itemprop="name">Test Press
 <i>Ltd</i></span></div>
 <span itemprop="editor">Bob <script>x</script>Jones</span>
 <meta itemprop="isAccessibleForFree" content="true">
</div></div></body></html>"""


def test_microdata_texts_read_only_when_asked_are_extructs() -> None:
    """A property's text is read lazily (only a periodical's are ever used), as extruct reads it: scripts left
    out, nested items' names, lists of ISSNs, a meta's content."""
    root = parse_html(ARTICLE_WITH_PERIODICAL)
    assert root is not None
    assert structured_values(ARTICLE_WITH_PERIODICAL, root) == {
        "title": ("Journal of Tests", "microdata"),
        "issn": ("1234-5679", "microdata"),
        "eissn": ("2049-3630", "microdata"),
        "publisher": ("Test Press Ltd", "microdata"),
        "editor_in_chief": ("Bob Jones", "microdata"),
        "open_access": ("Open access", "microdata"),
    }
