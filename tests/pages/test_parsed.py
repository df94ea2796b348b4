"""One parsed page: decoded once, parsed once with one parser set-up, derived views computed once."""

from __future__ import annotations

from lxml import etree

from journals.mdr.mining import MainRegions, mine_data_regions
from journals.pages.caps import ANCHOR_TAG, ELEMENT_TAG
from journals.pages.navigation import page_links
from journals.pages.parsed import MAX_DEPTH, ParsedPage, RecentPages, as_parsed, parse_html, parse_tree

LIST = (
    "<html><head><title>Journals</title></head><body><div id='side'><a href='/x'>x</a></div><ul class='journals'>"
    + "".join(f"<li><a href='/j/{n}'>Journal {n}</a> <span>ISSN 1234-567{n}</span></li>" for n in range(6))
    + "</ul></body></html>"
)


def test_a_body_is_decoded_once_as_decode_html_decodes_it() -> None:
    body = "<html><head><meta charset='utf-8'></head><body><p>für</p></body></html>".encode("cp1252")
    page = ParsedPage.from_body("https://example.org/", body, "text/html; charset=utf-8")
    assert page.charset == "cp1252"
    assert page.charset_corrected, "declared UTF-8, valid only in Windows-1252"
    assert page.tree is not None
    assert page.tree.xpath("string(//p)") == "für"


def test_the_tree_is_parsed_once_and_shared() -> None:
    page = ParsedPage("https://example.org/", LIST)
    assert page.tree is page.tree
    assert page.prefix_tree(ANCHOR_TAG, 100).root is page.tree, "a page under the cap is read on its own tree"
    assert page.prefix_tree(ELEMENT_TAG, 10_000).root is page.tree


def test_a_page_over_a_cap_is_read_on_its_prefix_alone() -> None:
    page = ParsedPage("https://example.org/", LIST)
    root, left_out = page.prefix_tree(ANCHOR_TAG, 3)
    assert left_out == 4
    assert root is not page.tree
    assert root is not None
    assert len(root.xpath("//a")) == 3


def test_one_parser_set_up_for_text_and_bytes() -> None:
    html = "<html><body><?php echo 1 ?><p>a<!-- c -->b</p></body></html>"
    for root in (parse_html(html), parse_html(html.encode())):
        assert root is not None
        assert not root.xpath("//processing-instruction()"), "PIs dropped: they split text nodes"
        assert root.xpath("//comment()"), "comments kept: the extraction reads around them"
        assert root.getroottree().docinfo.doctype == "", "no made-up DOCTYPE"
        assert isinstance(root, etree._Element)
    assert parse_html("") is None
    assert ParsedPage("u", "").tree is None


def test_derived_views_are_computed_once() -> None:
    page = ParsedPage("https://example.org/", LIST)
    calls: list[str] = []

    def compute(parsed: ParsedPage) -> int:
        calls.append(parsed.url)
        return len(parsed.text)

    assert page.once("length", compute) == page.once("length", compute) == len(LIST)
    assert calls == ["https://example.org/"]


def test_navigation_mdr_and_main_regions_read_the_same_tree() -> None:
    page = ParsedPage("https://example.org/", LIST)
    links = page_links(page, page.url)
    assert [a.url for a in links.journals] == [f"https://example.org/j/{n}" for n in range(6)]
    regions = mine_data_regions(page)
    assert regions[0].parent == "/html/body/ul"
    tree = page.tree
    assert tree is not None
    for record in regions[0].records:
        for xpath in record.xpaths:
            assert tree.xpath(xpath), "MDR's XPaths resolve on the tree they were found on"
    finder = MainRegions(count=1)
    assert finder(page) == ["/html/body/ul"]
    assert finder(page) is finder(page), "mined once per page and set-up"


def test_as_parsed_decodes_bytes_and_keeps_pages() -> None:
    page = ParsedPage("u", LIST)
    assert as_parsed(page) is page
    assert as_parsed(LIST, "u").text == LIST
    assert as_parsed("é".encode("latin-1"), "u").text == "é"


def test_recent_pages_are_bounded_and_taken_once() -> None:
    pages = RecentPages(max_chars=10)
    first, second, third = (ParsedPage(f"u{n}", "x" * 4) for n in range(3))
    for page in (first, second, third):
        pages.keep(page)
    assert len(pages) == 2
    assert pages.get("u0") is None, "the oldest page is dropped past the bound"
    assert pages.get("u1") is second
    assert pages.take("u1") is second
    assert pages.take("u1") is None
    big = ParsedPage("big", "x" * 100)
    pages.keep(big)
    assert pages.get("big") is big, "the latest page is kept whatever its size"
    assert len(pages) == 1


def _nested(depth: int, inner: str) -> str:
    return "<html><body>" + "<div>" * depth + inner + "</div>" * depth + "</body></html>"


def test_a_page_nested_deeper_than_libxml2s_default_is_parsed_whole() -> None:
    listing = (
        "<ul>" + "".join(f'<li><a href="/journal/{n}">Journal of Nesting {n}</a></li>' for n in range(5)) + "</ul>"
    )
    page = ParsedPage("http://deep.example/az/j", _nested(300, listing))
    assert page.tree is not None
    assert len(page.tree.xpath("//a")) == 5
    assert not page.depth_cut


def test_a_page_deeper_than_the_cap_keeps_its_text_and_says_it_was_cut() -> None:
    page = ParsedPage("http://deep.example/j", _nested(MAX_DEPTH + 600, "<p>ISSN <b>1234-5679</b></p>"))
    assert page.tree is not None
    assert page.depth_cut
    assert "ISSN 1234-5679" in "".join(page.tree.itertext())
    deepest = max(len(list(element.iterancestors())) for element in page.tree.iter())
    assert deepest < MAX_DEPTH


def test_a_page_past_libxml2s_hard_limit_is_said_to_be_cut() -> None:
    assert parse_tree(_nested(3000, "<p>lost</p>")).depth_cut
    assert not parse_tree(_nested(20, "<p>kept</p>")).depth_cut


def test_a_wide_page_read_by_its_prefix_answers_its_depth_without_a_whole_parse() -> None:
    anchors = "".join(f'<li><a href="/journal/{n}">Journal {n}</a></li>' for n in range(20))
    shallow = ParsedPage("http://wide.example/az/a", f"<html><body><ul>{anchors}</ul></body></html>")
    assert shallow.prefix_tree(ANCHOR_TAG, 5).left_out == 15
    assert not shallow.depth_cut
    assert "tree" not in shallow.__dict__, "the whole page was parsed to say how deep it is"
    deep = ParsedPage("http://wide.example/az/b", _nested(MAX_DEPTH + 100, f"<ul>{anchors}</ul>"))
    assert deep.prefix_tree(ANCHOR_TAG, 5).left_out == 15
    assert deep.depth_cut, "the prefix read was cut at MAX_DEPTH"
    assert "tree" not in deep.__dict__


def test_a_page_no_tree_was_read_of_is_parsed_to_say_how_deep_it_is() -> None:
    page = ParsedPage("http://deep.example/j", _nested(MAX_DEPTH + 10, "<p>x</p>"))
    assert page.depth_cut
    assert page.tree is not None


def test_a_utf8_body_is_parsed_as_its_text_is_whatever_charset_it_declares() -> None:
    # Ł is C5 81 in UTF-8, and 81 is no character of Windows-1252: the page is UTF-8 whatever its <meta> says.
    html = '<html><head><meta charset="windows-1252"><title>Revue d’écologie, Łódź</title></head><body>Ω</body></html>'
    body = html.encode("utf-8")
    page = ParsedPage.from_body("https://example.org/", body, "text/html")
    assert page._utf8 is body  # kept to be parsed in place of the text encoded again
    tree = page.tree
    assert page._utf8 is None  # parsed: the text alone is kept
    assert etree.tostring(tree) == etree.tostring(parse_tree(page.text).root)
    assert tree.findtext(".//title") == "Revue d’écologie, Łódź"


def test_a_body_not_exactly_its_texts_utf8_is_parsed_from_the_text() -> None:
    body = b"<p>caf\xe9 \x01</p>"
    page = ParsedPage.from_body("https://example.org/", body, "text/html; charset=windows-1252")
    assert page._utf8 is None
    assert page.tree.findtext(".//p") == "café "
