"""A journal's title by agreement of the places that name it, and side panels headed as the journal's own."""

from __future__ import annotations

import html

import pytest

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.titles import TitleCandidate, agreed_title, title_candidates, unwrapped
from journals.items import FetchedPage
from journals.pages.parsed import parse_html


def _extract(body: str, head: str = "", listing_title: str | None = None) -> dict[str, object]:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    page = FetchedPage(url="https://example.org/j", html=html, role="home")
    extraction = extract_journal([page], LearnedRules(), listing_title=listing_title)
    return {name: found.value for name, found in extraction.values.items()}


def test_the_title_tag_logo_and_heading_agree_past_section_and_issue_words() -> None:
    head = "<title>Home : Optics Quarterly</title>"
    body = (
        '<div class="masthead"><a href="/"><img src="/img/logo.png" alt="Optics Quarterly homepage"></a></div>'
        "<div><h2>Optics Quarterly - Current issue : January 2011 - Vol 3 No 1</h2><p>Articles</p></div>"
    )
    assert _extract(body, head)["title"] == "Optics Quarterly"


def test_a_site_address_is_never_a_title() -> None:
    root = parse_html('<html><head><meta name="DC.source" content="http://journals.example.org"></head></html>')
    assert root is not None
    assert agreed_title(title_candidates(root), "http://journals.example.org") is None


def test_a_former_title_in_the_meta_tags_is_outvoted_with_its_issn() -> None:
    head = (
        '<meta name="citation_journal_title" content="Archives of Tests"><meta name="citation_issn" content="0003-9926">'
        '<meta name="citation_title" content="A Study of Things"><meta property="og:type" content="article">'
        "<title>A Study of Things | Jul 13, 2009 | New Tests Medicine | Tests Network</title>"
    )
    body = '<div id="top"><a href="/">[New Tests Medicine]</a></div><main><h1>A Study of Things</h1></main>'
    values = _extract(body, head)
    assert values["title"] == "New Tests Medicine"
    assert "issn" not in values


def test_one_place_alone_does_not_overturn_the_heading_and_the_list_entry() -> None:
    body = (
        "<main><h1>Journal of Rocks</h1><p>ISSN 2050-084X</p></main>"
        '<div class="box"><h3>Annals of Sand</h3><p>Read our sister journal</p></div>'
    )
    assert _extract(body, "<title>Journal of Rocks</title>", listing_title="Journal of Rocks")["title"] == (
        "Journal of Rocks"
    )


def test_ties_go_to_the_name_with_a_journal_word_then_the_most_trusted_place() -> None:
    candidates = [TitleCandidate("heading", "Announcements"), TitleCandidate("logo", "Annals of Sand")]
    assert agreed_title(candidates, None) == "Annals of Sand"
    assert agreed_title([TitleCandidate("heading", "Sand"), TitleCandidate("logo", "Rocks")], None) == "Rocks"


def test_a_side_panel_headed_as_the_journals_own_is_read_and_a_teaser_is_not() -> None:
    body = (
        "<main><h1>Journal of Rocks</h1><p>Editor-in-Chief: Ada Stone</p></main>"
        '<aside><h2>Journal metrics</h2><div><span class="v">4.117</span> <span>Impact Factor</span></div></aside>'
        '<aside><h2>Featured journal</h2><a href="/sand">Annals of Sand</a><p>CiteScore 9.9</p></aside>'
    )
    values = _extract(body)
    assert values["impact_factor"] == 4.117
    assert "citescore" not in values


def test_a_metrics_table_with_a_column_per_year_gives_the_latest_years_value() -> None:
    oldest_first = (
        "<table><tr><th>Metric</th><th>2022</th><th>2023</th><th>2024</th></tr>"
        "<tr><td>Impact Factor</td><td>3.508</td><td>3.4</td><td>3.232</td></tr>"
        "<tr><td>CiteScore</td><td>2.3</td><td>2.8</td><td>3.0</td></tr></table>"
    )
    newest_first = oldest_first.replace("2022</th><th>2023</th><th>2024", "2024</th><th>2023</th><th>2022")
    for table, impact, citescore in ((oldest_first, 3.232, 3.0), (newest_first, 3.508, 2.3)):
        values = _extract(f"<main><h1>Journal of Rocks</h1>{table}</main>")
        assert (values["impact_factor"], values["citescore"]) == (impact, citescore)


HOSTILE_TITLES = [
    '"><img src=x onerror=alert(1)> Journal of Images',
    "-2+3+cmd|' /C calc'!A0 Journal",
    "— Poems of the Sea",
    "Journal of Rocks (Online)",
    "(a) Notes on Sand (b)",
    "'s Review of Tests",
]


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_a_title_is_kept_as_the_page_shows_it(title: str) -> None:
    shown = html.escape(title)
    body = f"<main><h1>{shown}</h1><p>ISSN 2050-084X</p></main>"
    assert _extract(body, f"<title>{shown}</title>")["title"] == title


def test_only_marks_wrapping_a_whole_name_are_dropped() -> None:
    assert unwrapped('"Journal of Rocks"') == "Journal of Rocks"
    assert unwrapped("[ (Journal of Rocks) ]") == "Journal of Rocks"
    assert unwrapped('"><img src=x> Journal') == '"><img src=x> Journal'
    assert unwrapped("(a) b (c)") == "(a) b (c)"
    assert unwrapped('"a" and "b"') == '"a" and "b"'
