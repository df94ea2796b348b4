"""What counts as the page's text: hidden elements, boxes about other journals, logos and page-wide forms."""

from __future__ import annotations

import pytest

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.content import first_h1, page_text_nodes, teaser_blocks, visible_strings
from journals.extraction.labels import default_matcher
from journals.items import FetchedPage
from journals.pages.parsed import parse_html
from journals.pages.visibility import is_hidden
from journals.replay.pages import DEFAULT_REAL_PAGES
from lab.extraction.bench import sample_pages


def _extract(body: str, head: str = "") -> dict[str, object]:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    extraction = extract_journal([FetchedPage(url="https://example.org/j", html=html, role="home")], LearnedRules())
    return {name: found.value for name, found in extraction.values.items()}


@pytest.mark.parametrize(
    "attributes",
    [
        'style="display:none"',
        'style="color:red; visibility: hidden"',
        "hidden",
        'aria-hidden="true"',
        'class="sr-only"',
        'class="u-visually-hidden"',
        'class="note hidden"',
        'class="d-none"',
    ],
)
def test_hidden_elements_are_no_text(attributes: str) -> None:
    values = _extract(
        f"<main><h1>Journal of Tests<span {attributes}> (opens in a new window)</span></h1>"
        f"<p {attributes}>Impact Factor: 9.999</p><p>CiteScore: 3.1</p></main>"
    )
    assert values["title"] == "Journal of Tests"
    assert "impact_factor" not in values
    assert values["citescore"] == 3.1


def test_classes_that_only_mention_hidden_do_not_hide() -> None:
    root = parse_html('<html><body><div class="overflow-hidden">x</div><div class="hidden-gem">y</div></body></html>')
    assert root is not None
    assert not any(is_hidden(div) for div in root.iter("div"))


def test_a_heading_split_by_hidden_text_gives_no_joined_title() -> None:
    values = _extract('<main><h1>Journal <span class="sr-only">skip</span>of Tests</h1><p>ISSN 2050-084X</p></main>')
    assert values.get("title") in (None, "Journal of Tests")
    assert values["issn"] == "2050-084X"


@pytest.mark.parametrize("heading", ["Featured journal", "Most read", "More from our publisher", "Related journals"])
def test_a_box_headed_as_another_journals_is_skipped(heading: str) -> None:
    values = _extract(
        "<main><h1>Journal of Tests</h1><p>ISSN: 2050-084X</p>"
        f"<div><h3>{heading}</h3><p>Journal of Other Things</p><p>Impact Factor: 7.250</p>"
        "<p>Editor-in-Chief: Vera Quinn</p></div></main>"
    )
    assert values["issn"] == "2050-084X"
    assert "impact_factor" not in values
    assert "editor_in_chief" not in values


def test_a_box_naming_the_journal_itself_is_read() -> None:
    values = _extract(
        "<form id='page'><div class='head'><h1>Acta Testica</h1></div>"
        "<div><a href='/volumes/2'>Volume 2</a> <a href='/collections/earth'>Earth and Space</a>"
        "<dl><dt>Title</dt><dd>Acta Testica</dd><dt>ISSN</dt><dd>1000-9116 (Print)<br>1993-1344 (Online)</dd></dl>"
        "</div></form>"
    )
    assert (values["title"], values["issn"], values["eissn"]) == ("Acta Testica", "1000-9116", "1993-1344")


def test_a_logo_heading_is_not_the_title() -> None:
    root = parse_html(
        '<html><body><h1 id="Logo"><a href="/">PlatformName</a></h1><div><h1>Acta Testica</h1></div></body></html>'
    )
    assert root is not None
    h1 = first_h1(root)
    assert h1 is not None and h1.text == "Acta Testica"


def test_a_header_inside_main_holds_the_content_heading() -> None:
    root = parse_html("<html><body><header><p>Site</p></header><main><header><h1>Acta</h1></header></main></body></html>")
    assert root is not None
    h1 = first_h1(root)
    assert h1 is not None and h1.text == "Acta"


def test_a_template_never_learns_the_featured_journals_figures() -> None:
    learned_rules = LearnedRules()
    for n in range(8):
        html = (
            f"<html><body><main><div><h1>Journal {n}</h1><p>ISSN: {['2050-084X', '1476-4687'][n % 2]}</p></div>"
            f"<section><h2>Featured journal</h2><p>Journal of Other Things</p><p>Impact Factor: {n}.250</p>"
            "</section></main></body></html>"
        )
        extraction = extract_journal([FetchedPage(url=f"https://e.org/{n}", html=html, role="home")], learned_rules, source="s")
        assert extraction.value("impact_factor") is None
        assert extraction.value("title") == f"Journal {n}"


def test_mdr_regions_in_a_footer_or_inside_the_title_region_leave_the_title_region_read() -> None:
    """MDR often mines the footer's list of sister journals and the journal's menu: neither replaces the content."""
    html = (
        "<html><body><main><h1>Acta Testica</h1><ul class='menu'><li><a href='/e'>Editors</a></li>"
        "<li><a href='/a'>Aims</a></li></ul><p>ISSN 1234-5679 (print)</p><dl><dt>Impact Factor</dt><dd>4.117</dd></dl>"
        "</main><footer><ul class='sisters'><li><a href='/o'>Other Journal</a> <span>ISSN 0028-0836</span></li>"
        "<li><a href='/p'>Third Journal</a> <span>ISSN 1476-4687</span></li></ul></footer></body></html>"
    )
    page = FetchedPage(url="https://example.org/j", html=html, role="home")
    regions = {page.url: ["/html/body/footer/ul", "/html/body/main/ul"]}
    extraction = extract_journal([page], LearnedRules(), regions)
    assert extraction.value("issn") == "1234-5679"
    assert extraction.value("impact_factor") == 4.117


def test_a_teaser_box_is_the_smallest_around_its_link_and_the_first_label_after_it() -> None:
    root = parse_html(
        "<html><body><main><h1>Journal of Own Things</h1>"
        "<div id='row'><div id='own'><p>Impact Factor: 9.9</p></div>"
        "<div id='box'><p><a href='/other'>Journal of Other Things</a> <span>read more</span></p>"
        "<ul><li><b>since 1990</b></li><li><em>Impact Factor</em> 1.5</li></ul></div></div>"
        "<div id='plain'><a href='/x'>Other Journal Here</a><p>no figures at all</p></div>"
        "</main></body></html>"
    )
    searched: list[str] = []

    def mentions(text: str) -> bool:
        searched.append(text)
        return default_matcher().mentions(text)

    teasers = teaser_blocks(first_h1(root), mentions)
    assert [box.get("id") for box in teasers] == ["box"]
    assert len(searched) == len(set(searched)), "a text leaf was searched twice"


def test_a_label_in_the_links_own_tail_makes_its_parent_the_box() -> None:
    root = parse_html(
        "<html><body><main><h1>Journal of Own Things</h1>"
        "<section><p id='teaser'><a href='/other'>Journal of Other Things</a> Impact Factor 2.1</p></section>"
        "</main></body></html>"
    )
    assert [box.get("id") for box in teaser_blocks(first_h1(root), default_matcher().mentions)] == ["teaser"]


def test_visible_strings_are_the_text_nodes_texts_on_every_saved_page() -> None:
    """The readers that join a region's text take :func:`visible_strings`, the texts of :func:`page_text_nodes`
    without the nodes: the same strings in the same order, hidden parts, scripts and blank nodes left out, on
    every real and sandbox page kept (headings and footers are read this way on every page)."""
    pages = [entry.read_bytes() for entry in sorted(DEFAULT_REAL_PAGES.parent.glob("**/*.htm*"))][:400]
    pages += [page.html.encode() for _, page in sample_pages(per_site=2)]
    assert len(pages) > 100
    compared = 0
    for html in pages:
        root = parse_html(html)
        if root is None:
            continue
        for element in [root, *root.iter("h1", "h2", "footer", "div")][:40]:
            assert list(visible_strings(element)) == [node.text for node in page_text_nodes(element)]
            compared += 1
    assert compared > 1000
