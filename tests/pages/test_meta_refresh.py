"""A page's meta refresh, read off its parsed tree as w3lib reads it off the text Scrapy scans."""

from __future__ import annotations

import pytest
from w3lib.html import get_meta_refresh

from journals.pages.meta_refresh import MetaRefresh, RefreshRule, meta_refresh
from journals.pages.parsed import ParsedPage
from tests.pages.test_visibility import corpus_pages

URL = "http://publisher.example/journals/acta"


def page(head: str, body: str = "<p>Moved</p>") -> ParsedPage:
    html = f"<html><head><title>Acta</title>{head}</head><body>{body}</body></html>"
    return ParsedPage.from_body(URL, html.encode(), "text/html; charset=utf-8")


@pytest.mark.parametrize(
    "head",
    [
        '<meta http-equiv="refresh" content="0; url=/journal/acta/home">',
        "<meta http-equiv='Refresh' content='5;URL=\"../acta/home?a=1&amp;b=2\"'>",
        '<noscript><meta http-equiv="refresh" content="0; url=/no-script"></noscript>'
        '<meta http-equiv="refresh" content="0; url=/journal/acta/home">',
        '<meta http-equiv="refresh" content="30">',
        '<meta http-equiv="refresh" content="soon; url=/x">',
        '<base href="http://other.example/dir/"><meta http-equiv="refresh" content="1.5; url=page">',
        '<meta name="refresh" content="0; url=/not-http-equiv">',
        "",
    ],
)
def test_the_refresh_is_the_one_w3lib_finds(head: str) -> None:
    read = meta_refresh(page(head))
    html = f"<html><head><title>Acta</title>{head}</head><body><p>Moved</p></body></html>"
    base = "http://other.example/dir/" if "<base" in head else URL
    expected = get_meta_refresh(html, base, "utf-8", ignore_tags=["noscript"])
    found = (read.seconds, read.url) if read is not None else (None, None)
    assert found == expected


def test_a_refresh_inside_an_ignored_tag_is_not_the_pages() -> None:
    inside = page('<noscript><meta http-equiv="refresh" content="0; url=/no-script"></noscript>')
    assert meta_refresh(inside) is None
    assert meta_refresh(inside, ()) == MetaRefresh(0.0, "http://publisher.example/no-script")


def test_a_refresh_in_the_body_is_read_too() -> None:
    body = page("", '<div><meta http-equiv="refresh" content="0; url=/journal/acta/home"></div>')
    assert meta_refresh(body) == MetaRefresh(0.0, "http://publisher.example/journal/acta/home")


def test_the_rule_follows_a_refresh_due_within_the_maximum_delay_only() -> None:
    rule = RefreshRule(("noscript",), max_delay=100)
    assert rule.followed(page('<meta http-equiv="refresh" content="99; url=/soon">')) is not None
    assert rule.followed(page('<meta http-equiv="refresh" content="100; url=/later">')) is None
    assert rule.followed(page("")) is None


def test_a_page_that_never_says_refresh_is_not_parsed_to_find_none() -> None:
    page = ParsedPage("http://example.org/a-z/", "<html><body>" + "<a href='/j/1'>Acta</a>" * 1000 + "</body></html>")
    assert meta_refresh(page) is None
    assert "tree" not in vars(page)  # the whole tree of a wide listing is never built for its refresh
    refreshing = ParsedPage("http://example.org/", '<meta http-equiv="REFRESH" content="0; url=/a-z/">')
    assert meta_refresh(refreshing) == MetaRefresh(0.0, "http://example.org/a-z/")


def test_refresh_is_found_in_any_case_and_a_page_saying_it_only_otherwise_is_parsed_for_none() -> None:
    for spelling in ("refresh", "ReFrEsH", "REFRESH"):
        page = ParsedPage("http://example.org/", f'<meta http-equiv="{spelling}" content="0; url=/a-z/">')
        assert meta_refresh(page) == MetaRefresh(0.0, "http://example.org/a-z/")
    said = ParsedPage("http://example.org/", "<p>Refresh the page to see the latest issues</p>")
    assert meta_refresh(said) is None and "tree" in vars(said), "a page that says it is read for a refresh meta"


def test_a_parsed_page_is_read_off_its_tree_with_the_refresh_its_text_gives() -> None:
    refreshing = page('<meta http-equiv="refresh" content="0; url=/journal/acta/home">')
    for shown in (*corpus_pages(), refreshing):
        unparsed = ParsedPage(shown.url, shown.text)
        parsed = ParsedPage(shown.url, shown.text)
        assert parsed.tree is not None and parsed.has_tree and not unparsed.has_tree
        assert meta_refresh(parsed) == meta_refresh(unparsed), shown.url


def test_a_parsed_page_shows_a_refresh_its_markup_spells_with_character_references() -> None:
    spelled = ParsedPage("http://example.org/", '<meta http-equiv="&#82;efresh" content="0; url=/a-z/"><p>Moved</p>')
    assert meta_refresh(spelled) is None  # its text never says "refresh": not parsed to look
    parsed = ParsedPage("http://example.org/", spelled.text)
    parsed.tree  # noqa: B018 - parsed, as a journal page is before its refresh is looked for
    assert meta_refresh(parsed) == MetaRefresh(0.0, "http://example.org/a-z/")
