"""The journal's identity outside the content: copyright lines, footers' ISSNs, site names, article pages."""

from __future__ import annotations

import pytest

from journals.extraction import LearnedRules, extract_journal
from journals.items import FetchedPage


def _extract(body: str, head: str = "") -> dict[str, object]:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    extraction = extract_journal([FetchedPage(url="https://example.org/j", html=html, role="home")], LearnedRules())
    return {name: found.value for name, found in extraction.values.items()}


SISTERS = (
    "<footer><span><i>Acta Testica</i> ISSN: 2167-8359</span> <span><i>Acta Testica B</i> ISSN: 2376-5992</span>"
    " <span><i>Acta Testica Letters</i> ISSN: 2167-9843</span></footer>"
)


def test_a_footer_of_sister_journals_gives_the_one_after_the_journals_own_name() -> None:
    values = _extract(f"<main><h1>Acta Testica B</h1><p>Aims and scope.</p></main>{SISTERS}")
    assert values["issn"] == "2376-5992"


def test_a_footer_of_sister_journals_gives_nothing_when_none_is_this_journal() -> None:
    values = _extract(f"<main><h1>Other Journal</h1><p>Aims and scope.</p></main>{SISTERS}")
    assert "issn" not in values and "eissn" not in values


def test_a_footers_lone_issn_without_print_or_online_is_the_issn() -> None:
    values = _extract(
        "<main><h1>Journal of Tests</h1></main>"
        "<footer><small>© 2019 Tests Publications Ltd. Subject to a licence. ISSN:&nbsp;2050-084X</small></footer>"
    )
    assert values["issn"] == "2050-084X"
    assert "eissn" not in values
    assert values["publisher"] == "Tests Publications Ltd."


@pytest.mark.parametrize(("qualifier", "attribute"), [("(online)", "eissn"), ("(electronic)", "eissn"), ("(print)", "issn")])
def test_a_footers_qualified_issn(qualifier: str, attribute: str) -> None:
    values = _extract(
        "<main><h1>Nature of Tests</h1></main>"
        f"<footer><p><span>Nature of Tests</span> <span>ISSN <span>1476-4687</span> {qualifier}</span></p></footer>"
    )
    assert values == {"title": "Nature of Tests", attribute: "1476-4687"}


def test_an_unlabelled_issn_in_content_is_the_issn() -> None:
    values = _extract("<main><h1>Journal of Tests</h1><p>ISSN 2050-084X</p></main>")
    assert values["issn"] == "2050-084X" and "eissn" not in values


@pytest.mark.parametrize(
    ("line", "publisher"),
    [
        ("<p>© 2020 Testing Nature Limited</p>", "Testing Nature Limited"),
        ("<div>Copyright © 2012 <a href='/'>Testvier B.V.</a> All rights reserved.</div>", "Testvier B.V."),
        ("<p>© Testing Press, part of Testing Group</p>", "Testing Press"),
    ],
)
def test_a_copyright_line_names_the_publisher(line: str, publisher: str) -> None:
    values = _extract(f"<main><h1>Journal of Tests</h1></main><footer>{line}</footer>")
    assert values["publisher"] == publisher


@pytest.mark.parametrize(
    "line", ["<p>Copyright: © 2019 Zhang et al. This is an open access article.</p>", "<p>© 2026 Testbrand.</p>"]
)
def test_authors_and_bare_brands_are_no_publisher(line: str) -> None:
    values = _extract(f"<main><h1>Journal of Tests</h1>{line}</main>")
    assert "publisher" not in values


def test_a_copyright_in_a_comment_or_script_is_nothing() -> None:
    values = _extract(
        "<main><h1>Journal of Tests</h1></main><!-- © 2020 Hidden Publishing Ltd -->"
        "<script>var c = '© 2020 Script Publishing Ltd';</script><p style='display:none'>© 2020 Unseen Press</p>"
    )
    assert "publisher" not in values


def test_the_visible_publisher_wins_over_a_disagreeing_meta_tag() -> None:
    head = '<meta name="dc.publisher" content="Old Name Group">'
    values = _extract("<main><h1>Journal of Tests</h1></main><footer><p>© 2020 New Name Limited</p></footer>", head)
    assert values["publisher"] == "New Name Limited"


def test_a_meta_tag_naming_the_same_publisher_gives_its_full_form() -> None:
    head = '<meta name="dc.publisher" content="Tests Publications Limited">'
    values = _extract("<main><h1>Journal of Tests</h1></main><footer><p>© 2020 Tests Publications Ltd.</p></footer>", head)
    assert values["publisher"] == "Tests Publications Limited"


ARTICLE_HEAD = (
    '<meta property="og:type" content="article"><meta property="og:site_name" content="eTests">'
    '<meta property="og:title" content="A study of things">'
)


def test_on_an_article_page_the_site_name_is_the_title_and_the_heading_is_not() -> None:
    values = _extract("<main><header><h1>A study of things</h1></header><p>Text.</p></main>", ARTICLE_HEAD)
    assert values["title"] == "eTests"


def test_a_platforms_site_name_is_no_title() -> None:
    head = '<meta property="og:type" content="article"><meta property="og:site_name" content="ScienceDirect">'
    values = _extract("<main><h1>A study of things</h1></main>", head)
    assert "title" not in values


def test_on_an_article_page_a_bare_editor_is_the_articles_not_the_editor_in_chief() -> None:
    body = "<main><h1>A study of things</h1><p><strong>Editor: </strong>Eric Lau, University of Tests</p></main>"
    assert "editor_in_chief" not in _extract(body, ARTICLE_HEAD)
    assert _extract(body)["editor_in_chief"] == "Eric Lau, University of Tests"


def test_an_editor_menu_link_is_no_editor() -> None:
    values = _extract(
        "<main><h1>Journal of Tests</h1><ul class='menu'><li><a href='/editors'>Editors</a></li>"
        "<li><a href='/board'>Editorial Board</a></li><li><a href='/submit'>Olga Petrov</a></li></ul>"
        "<p>Impact Factor: 2.5</p></main>"
    )
    assert "editor_in_chief" not in values
    assert values["impact_factor"] == 2.5


def test_a_heading_is_cut_to_the_journals_name() -> None:
    values = _extract("<main><h1>Acta Testica, Volume 21, Number 6 / November 2008 - SpringerLink</h1></main>")
    assert values["title"] == "Acta Testica"


def test_dc_source_names_the_journal_without_its_year() -> None:
    head = '<meta name="dc.source" content="Testing 2020"><meta name="citation_title" content="A study">'
    assert _extract("<main><h1>A study</h1></main>", head)["title"] == "Testing"


def test_a_platforms_copyright_for_every_page_is_no_publisher() -> None:
    values = _extract(
        "<main><h1>Journal of Tests</h1><p>ISSN 2050-084X</p></main>"
        "<footer><p>© 2026 Quillbase Ltd unless otherwise stated</p></footer>"
    )
    assert "publisher" not in values


def test_a_copyright_holder_ends_at_a_middle_dot() -> None:
    values = _extract("<main><h1>Journal of Tests</h1></main><footer><p>© 2026 Kestrel University Press · Privacy</p></footer>")
    assert values["publisher"] == "Kestrel University Press"
