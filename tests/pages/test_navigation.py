"""The A–Z navigation heuristics on hand-written pages in the forms real sites use."""

import itertools
import math
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from journals.pages.navigation import (
    ANCHOR_TEXT_LIMIT,
    UNSEEN_TAGS,
    WALKED_LIMIT,
    _base_and_origin,
    absolute_url,
    anchors,
    bounded_text,
    metrics_links,
    page_links,
    resolved_links,
    visible_text,
)
from journals.pages.parsed import ParsedPage
from journals.pages.script_signs import UNSEEN_WITH_SCRIPTS
from journals.pages.visibility import is_hidden
from journals.replay.pages import DEFAULT_REAL_PAGES
from lab.extraction.bench import sample_pages
from tests.pages.test_visibility import corpus_pages, is_hidden_plainly, odd_markup, odd_trees

PAGE = """<html><body>
<header><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/journals">Browse journals A–Z</a></nav></header>
<main>
  <div class="az"><a href="?letter=a">A</a> <a href="b.html">B</a> <a href="http://other.example/c">C</a>
    <a href="/az/0-9">0-9</a> <a href="/az/ab">Ab</a></div>
  <ul class="list"><li class="j"><a href="/j/acta">Acta Botanica</a></li><li class="j"><a href="/j/abc">ABC Letters</a></li></ul>
  <p>See also <a href="/news/1">a news item</a></p>
  <div class="pages"><a href="?letter=a&amp;page=2">2</a> <a href="?letter=a&amp;page=2">Next ›</a>
    <a href="/az/a?start=41">41-80</a></div>
  <a href="javascript:void(0)">Z</a> <a href="mailto:x@y">Mail</a>
</main>
<aside><a href="/j/featured">Featured: A Very Long Journal Title Used As A Decoy In The Sidebar</a></aside>
<footer><a href="/privacy">Privacy</a></footer></body></html>"""


def test_letters_absolute_relative_query_and_sub_letters() -> None:
    links = page_links(PAGE, "http://site.example/az/index.html")
    assert [a.url for a in links.letters] == [
        "http://site.example/az/index.html?letter=a",
        "http://site.example/az/b.html",
        "http://other.example/c",
        "http://site.example/az/0-9",
        "http://site.example/az/ab",
    ]


def test_pagination_and_journal_entries_not_chrome() -> None:
    links = page_links(PAGE, "http://site.example/az/index.html")
    assert {a.url for a in links.pages} == {
        "http://site.example/az/index.html?letter=a&page=2",
        "http://site.example/az/a?start=41",
    }
    assert [a.text for a in links.journals] == ["Acta Botanica", "ABC Letters"]
    assert [a.url for a in links.browse] == ["http://site.example/journals"]


def test_metrics_hop_and_base_href() -> None:
    page = (
        '<html><head><base href="http://cdn.example/x/"></head><body><main><h1>Acta</h1>'
        '<a href="about">About the journal</a><a href="m">Journal Metrics</a></main></body></html>'
    )
    links = page_links(page, "http://site.example/j/acta")
    assert [a.url for a in links.metrics] == ["http://cdn.example/x/about", "http://cdn.example/x/m"]


def test_empty_and_broken_pages_give_no_links() -> None:
    assert page_links("", "http://x.example/").letters == []
    assert page_links(b"\x00\xff\xfe binary", "http://x.example/").journals == []
    assert page_links("<a href='/a'>A", "http://x.example/").letters[0].url == "http://x.example/a"


def test_metrics_hop_in_a_journal_menu_comes_after_content_links_and_the_sites_about_is_no_hop() -> None:
    page = ('<html><body><header><nav><a href="/about">About</a></nav></header><main><h1>Acta</h1>'
            '<nav class="journal-nav"><a href="/j/acta/info">Journal information</a></nav>'
            '<p><a href="/j/acta/metrics">Journal metrics</a></p></main></body></html>')
    links = page_links(page, "http://site.example/j/acta")
    assert [a.url for a in links.metrics] == ["http://site.example/j/acta/metrics", "http://site.example/j/acta/info"]


def test_a_language_menu_is_not_an_index_but_sub_letters_are() -> None:
    page = (
        '<html><body><div class="lang"><a href="/en/">EN</a> <a href="/de/">DE</a> <a href="/fr/">FR</a></div>'
        '<div class="sub"><a href="/az/aa">Aa</a> <a href="/az/ab">Ab</a> <a href="/az/ac">Ac</a></div></body></html>'
    )
    assert [a.text for a in page_links(page, "http://site.example/az/a").letters] == ["Aa", "Ab", "Ac"]
    lone = '<html><body><div class="sub"><a href="/az/i/in">In</a></div></body></html>'
    assert [a.text for a in page_links(lone, "http://site.example/az/i").letters] == ["In"]


def _wide_listing(farm: int, journals: int = 12, farm_first: bool = False) -> str:
    """A letter's listing with a journal list and a "latest articles" link farm of ``farm`` anchors."""
    letters = "".join(f'<a href="/az/{c.lower()}">{c}</a> ' for c in "ABCDEF")
    entries = "".join(
        f'<li class="j"><a href="/journal/a{n}">Annals of Topic {n}</a> ISSN 1234-567{n % 10}</li>'
        for n in range(journals)
    )
    articles = "".join(f'<li><a href="/article/{n}">a finding about cells number {n}</a></li>' for n in range(farm))
    parts = [f'<ul class="journals">{entries}</ul>', f'<ul class="latest">{articles}</ul>']
    if farm_first:
        parts.reverse()
    return f'<html><body><div class="az">{letters}</div>{"".join(parts)}</body></html>'


def test_a_page_over_the_anchor_cap_is_read_up_to_the_cap_and_says_how_many_were_left() -> None:
    page = _wide_listing(farm=500)
    links = page_links(page, "http://site.example/az/a", max_anchors=100)
    read = links.letters + links.pages + links.content + links.browse
    assert len(read) == 100
    assert links.truncated_anchors == 6 + 12 + 500 - 100
    assert [a.text for a in links.letters] == list("ABCDEF")
    assert len(links.journals) == 12, "the list before the farm is read whole"
    assert page_links(page.encode(), "http://site.example/az/a", max_anchors=100).truncated_anchors == 418
    assert page_links(page, "http://site.example/az/a").truncated_anchors == 0


def test_over_the_cap_a_list_after_the_farm_is_not_read() -> None:
    """The cap keeps the first anchors in document order: what follows is left out, and counted."""
    links = page_links(_wide_listing(farm=500, farm_first=True), "http://site.example/az/a", max_anchors=100)
    assert links.truncated_anchors == 418
    assert links.journals == []


def test_hostile_shapes_keep_their_groups_columns_and_bounded_texts() -> None:
    """A row of 3,000 cells, a list nested 100 deep, an anchor around a long text and a row longer than a record:
    the columns are numbered right, the deep anchors share one group string, and no long text is copied."""
    cells = "<!-- a comment counts as a column, as index() counts it -->" + "".join(
        f'<td><a href="/c/{n}">Cell {n}</a></td>' for n in range(3000)
    )
    deep = "".join(f'<a href="/d/{n}">Deep {n}</a>' for n in range(3))
    nested = '<ul class="n"><li>' * 100 + deep + "</li></ul>" * 100
    long_text = "word " * 2000
    page = (
        f"<html><body><table><tr>{cells}</tr></table>{nested}"
        f'<p><a href="/long">{long_text}</a></p><ul><li><a href="/row">Row</a> {long_text}</li></ul></body></html>'
    )
    by_path = {urlsplit(a.url).path: a for a in anchors(page, "http://site.example/")}
    assert by_path["/c/0"].shape.endswith("/tr/td[1]") and by_path["/c/2999"].shape.endswith("/tr/td[3000]")
    assert by_path["/d/0"].group.count("ul.n/li.") == 100
    assert by_path["/d/0"].group is by_path["/d/2"].group, "one string per group, not a copy per anchor"
    assert by_path["/long"].text == long_text[:ANCHOR_TEXT_LIMIT].strip()
    assert by_path["/row"].record_text == "", "a row longer than a record has no record text"
    assert by_path["/c/7"].record_text == "", "nor has a row of 3,000 cells"


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.sampled_from(["http://a.example/x/y.html?q=1", "https://A.Example:8080/", "http://h/p/", "http://u@h/a;b?c#d"]),
    st.text(alphabet="/.?#;:a%\t\n &=", max_size=14).map(lambda s: "/" + s) | st.text(alphabet="/.?#;:a", max_size=8),
)
def test_absolute_urls_are_urljoins_without_the_fragment(base: str, href: str) -> None:
    """...unless the fragment is a script's route (``#/…``, ``#!/…``), which names a view of its own."""
    href = href.strip()
    parts = urlsplit(base)
    origin = f"{parts.scheme}://{parts.netloc}"
    joined = urljoin(base, href)
    _, hash_sign, fragment = href.partition("#")
    route = bool(hash_sign) and fragment.startswith(("/", "!/"))
    assert absolute_url(href, base, origin) == (joined if route else joined.split("#", 1)[0])


def test_a_hash_route_is_a_link_of_its_own_and_a_place_in_the_page_is_not() -> None:
    base = "http://h.example/app/#!/browse/A"
    assert absolute_url("#!/journal/acta", base, "http://h.example") == "http://h.example/app/#!/journal/acta"
    assert absolute_url("#/journals/B/2", base, "http://h.example") == "http://h.example/app/#/journals/B/2"
    assert absolute_url("/about#team", base, "http://h.example") == "http://h.example/about"
    assert absolute_url("#top", base, "http://h.example") == "http://h.example/app/"


def test_a_journal_pages_metrics_links_are_those_page_links_finds() -> None:
    """The metrics hops alone, read without rows, groups or shapes, are the ones the full reading finds."""
    pages = [(f"http://127.0.0.1:8000{page.url}", page.html) for _, page in sample_pages(per_site=10)]
    pages.append(
        (
            "https://example.org/journal/acta",
            "<html><body><nav><a href='/about'>About</a></nav><main><a href='/journal/acta/about'>About the journal"
            "</a><a href='/az'>Browse journals A-Z</a><a href='/journal/acta/metrics'>Journal metrics</a></main>"
            "<footer><a href='/journal/acta/info'>Information</a></footer></body></html>",
        )
    )
    hops = 0
    for url, html in pages:
        full = page_links(html, url).metrics
        light = metrics_links(html, url)
        assert [(a.url, a.text, a.chrome) for a in light.metrics] == [(a.url, a.text, a.chrome) for a in full]
        assert not (light.letters or light.pages or light.content or light.browse)
        hops += len(full)
    assert hops > 20, "the sandbox's home pages link their metrics pages"
    assert [a.url for a in metrics_links(pages[-1][1], pages[-1][0]).metrics] == [
        "https://example.org/journal/acta/about",
        "https://example.org/journal/acta/metrics",
        "https://example.org/journal/acta/info",
    ]


SCRIPT_LETTERS = {
    "onclick": '<a href="javascript:void(0)" onclick="window.location.href=\'/az/{x}\'; return false">{x}</a>',
    "button": "<button type=\"button\" onclick=\"location='journals.php?letter={x}'\">{x}</button>",
    "javascript href": "<a href=\"javascript:goTo('/az/{x}')\">{x}</a>",
    "data-href": '<span class="letter" data-href="/az/{x}">{x}</span>',
    "image map": '<map name="az"><area shape="rect" coords="0,0,9,9" href="/az/{x}" alt="{x}"></map>',
}
"""A–Z letters that are no links but go to their URL, by script or as an image map's areas, in the forms sites
use; ``{x}`` is the letter."""


def script_index(letters: str) -> str:
    """A page whose letters are ``letters`` (one markup each) and a one-journal list."""
    return f"<html><body><div class='az'>{letters}</div><ul><li><a href='/j/1'>Journal One</a></li></ul></body></html>"


def test_letters_that_are_no_links_are_read_off_the_markup() -> None:
    for name, markup in SCRIPT_LETTERS.items():
        links = page_links(script_index("".join(markup.format(x=x) for x in "ABC")), "http://s.example/list/")
        expected = "journals.php?letter={x}" if name == "button" else "/az/{x}"
        assert [a.url for a in links.letters] == [
            urljoin("http://s.example/list/", expected.format(x=x)) for x in "ABC"
        ], name
        assert [a.text for a in links.letters] == list("ABC"), name


def test_a_select_of_letters_goes_to_its_values_or_submits_its_get_form() -> None:
    options = "".join(f'<option value="/az/{x}">{x}</option>' for x in "AB")
    chosen = page_links(script_index(f'<select onchange="location=this.value"><option value="">Choose</option>{options}</select>'), "http://s.example/")
    assert [a.url for a in chosen.letters] == ["http://s.example/az/A", "http://s.example/az/B"]

    form = '<form action="/browse" {method}><select name="l" onchange="this.form.submit()"><option>A</option><option>0-9</option></select></form>'
    submitted = page_links(script_index(form.format(method="")), "http://s.example/")
    assert [a.url for a in submitted.letters] == ["http://s.example/browse?l=A", "http://s.example/browse?l=0-9"]
    assert page_links(script_index(form.format(method='method="post"')), "http://s.example/").letters == []


def test_script_controls_without_a_url_and_journal_anchors_stay_as_they_were() -> None:
    """A letter that filters the page in place (``showLetter('B')``) has no URL to follow; a script control that is
    no letter adds nothing, and a journal page's links are read without script controls."""
    in_place = "".join(f"<a href=\"javascript:showLetter('{x}')\">{x}</a>" for x in "ABC")
    assert page_links(script_index(in_place), "http://s.example/").letters == []
    menu = "<button onclick=\"location='/login'\">Sign in</button><select><option value='/j/2'>Journal Two</option></select>"
    links = page_links(script_index(menu), "http://s.example/")
    assert [a.url for a in links.content] == ["http://s.example/j/1"]
    assert [a.url for a in anchors(script_index(SCRIPT_LETTERS["onclick"].format(x="A")), "http://s.example/")] == [
        "http://s.example/j/1"
    ]


def test_script_letters_are_looked_for_only_where_no_letter_is_a_link() -> None:
    linked = "".join(f'<a href="/az/{x}">{x}</a>' for x in "ABC")
    select = '<select onchange="location=this.value"><option value="/other/a">A</option></select>'
    links = page_links(script_index(linked + select), "http://s.example/")
    assert [a.url for a in links.letters] == [f"http://s.example/az/{x}" for x in "ABC"]


def test_a_pages_resolved_links_are_kept_with_it_for_its_listing_index() -> None:
    """The crawl reads a list page's links, then its listing index, on one parsed page: the URLs the links pass
    resolved are kept with the page, by element, for the index to read rather than join again."""
    page = ParsedPage("http://site.example/az/index.html", PAGE)
    assert resolved_links(page) is None
    links = page_links(page, page.url)
    resolved = resolved_links(page)
    assert resolved is not None and resolved.root is page.tree and resolved.base == page.url
    assert all(element.tag == "a" for element in resolved.elements)
    by_url = dict(zip(resolved.urls, resolved.elements, strict=True))
    assert [by_url[a.url].get("href") for a in links.letters] == ["?letter=a", "b.html", "http://other.example/c",
                                                                   "/az/0-9", "/az/ab"]  # fmt: skip
    assert "javascript:void(0)" not in {e.get("href") for e in resolved.elements}, "followable anchors only"


def test_a_wide_pages_links_read_on_its_prefix_keep_no_tree_alive() -> None:
    """A page of more anchors than the cap is read on the tree of its prefix, which is this pass's alone (the
    listing index reads a prefix of its own): it is not kept with the page, where it would live until the index."""
    page = ParsedPage("http://site.example/az/index.html", PAGE)
    links = page_links(page, page.url, max_anchors=3)
    assert links.truncated_anchors > 0
    assert resolved_links(page) is None
    assert page_links(page, page.url).truncated_anchors == 0 and resolved_links(page) is not None


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.text(alphabet="ab \n\t\u3000", max_size=12), max_size=12), st.integers(0, 30))
def test_row_text_is_the_words_while_they_are_few(pieces: list[str], limit: int) -> None:
    words = " ".join(pieces).split()
    expected = " ".join(words) if sum(map(len, words)) <= limit and len(" ".join(words)) <= limit else ""
    assert bounded_text(iter(pieces), limit) == expected


@pytest.mark.parametrize("page_url", ["http://site.example/az/index.html", "https://Site.example:8443/a/../b?x=1#f",
                                      "http://site.example/p?", "file:///tmp/page.html", "http://[::1]:8000/az/"])  # fmt: skip
def test_the_base_of_every_saved_page_is_urljoins(page_url: str) -> None:
    """A page's links are relative to its first ``<base href>``, else to itself, as ``urljoin`` joins them: the
    base and its origin are the standard library's on every saved real page and base written in odd forms."""
    pages = [path.read_bytes() for path in sorted(DEFAULT_REAL_PAGES.parent.glob("**/*.htm*"))[:60]]
    pages += [f'<html><head><base href="{h}"></head><body><base href="/x/"></body></html>'.encode()
              for h in ("/j/", "//other.example/p/", "../up/", "https://other.example", "", "?q=1#top")]  # fmt: skip
    pages.append(b"<html><body><base target=_blank><base href='http://late.example/'></body></html>")
    for html in pages:
        root = ParsedPage(page_url, html.decode("utf-8", "replace")).tree
        if root is None:
            continue
        expected = urljoin(page_url, root.xpath("string(//base/@href)") or page_url)
        scheme, netloc = urlsplit(expected)[:2]
        assert _base_and_origin(root, page_url) == (
            expected, f"{scheme}://{netloc}" if scheme in ("http", "https") else ""
        )  # fmt: skip


def _letters_read(element: etree._Element, parts: list[str], budget: float) -> float:
    """The plain reader ``visible_text`` must agree with: every piece's letters counted as it is read, reading
    stopped after the piece that takes them past the budget (what is left of it; below 0: stopped)."""
    pieces = [(element.text, None)] + [(child, child.tail) for child in element]
    for child, tail in pieces:
        if isinstance(child, str):
            parts.append(child)
            budget -= sum(map(len, child.split()))
        elif child is not None and isinstance(child.tag, str) and child.tag not in UNSEEN_TAGS and not is_hidden(child):
            budget = _letters_read(child, parts, budget)
        if budget < 0:
            return budget
        if tail:
            parts.append(tail)
            budget -= sum(map(len, tail.split()))
            if budget < 0:
                return budget
    return budget


_PIECES = st.text(alphabet="ab \n\u3000", max_size=40)
_MARKUP = st.sampled_from(["<b>", "</b>", "<i hidden>", "</i>", "<script>", "</script>", '<span class="sr-only">',
                           "</span>", "<!-- c -->", "<br>"])  # fmt: skip


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.one_of(_PIECES, _MARKUP), max_size=30), st.sampled_from([None, 0, 1, 5, 64, 80, 200]),
       st.sampled_from(["", " "]))  # fmt: skip
def test_visible_text_stops_where_counting_every_letter_stops(markup: list[str], limit: int | None, sep: str) -> None:
    """Counting pieces by their length until they come near the limit, and their letters only then, reads the
    same pieces as counting every piece's letters, whatever the spaces, hidden parts and limit."""
    element = lxml.html.fragment_fromstring(f"<a>{''.join(markup)}</a>")
    parts: list[str] = []
    _letters_read(element, parts, limit if limit is not None else math.inf)
    expected = " ".join(sep.join(parts).split())
    assert visible_text(element, limit, separator=sep) == (expected[:limit].rstrip() if limit is not None else expected)


def _read_plainly(element: etree._Element, unseen: frozenset[str], parts: list[str]) -> None:
    """The plain reader of a whole element: every child looked at, by the plain rule of hiding."""
    if element.text:
        parts.append(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in unseen and not is_hidden_plainly(child):
            _read_plainly(child, unseen, parts)
        if child.tail:
            parts.append(child.tail)


def _visible_text_plainly(element: etree._Element, limit: int | None, unseen: frozenset[str], separator: str) -> str:
    parts: list[str] = []
    _read_plainly(element, unseen, parts)
    text = " ".join(separator.join(parts).split())
    return text[:limit].rstrip() if limit is not None else text


_READINGS = [(limit, unseen, separator) for limit in (None, 200_000, 5_000, WALKED_LIMIT + 1, WALKED_LIMIT, 80, 1)
             for unseen in (UNSEEN_TAGS, UNSEEN_WITH_SCRIPTS) for separator in ("", " ")]  # fmt: skip
"""Readings whole (no limit, or above :data:`WALKED_LIMIT`) and walked, of each set of unseen tags, joined both ways."""


def test_the_visible_text_of_every_saved_and_sandbox_page_is_the_plain_readers() -> None:
    """A page's visible text, read whole in C around its left-out elements or walked, is the plain reader's, for
    the page and its body at every limit, and for every 20th element read whole and walked."""
    for parsed in corpus_pages():
        if parsed.tree is None:
            continue
        readings = [(element, _READINGS) for element in (parsed.tree, *parsed.tree.iter("body"))]
        sampled = itertools.islice(parsed.tree.iter(etree.Element), 0, None, 20)
        readings += [(element, _READINGS[5:7] + _READINGS[-6:-4]) for element in sampled]
        for element, element_readings in readings:
            for limit, unseen, separator in element_readings:
                expected = _visible_text_plainly(element, limit, unseen, separator)
                assert visible_text(element, limit, unseen, separator) == expected, (parsed.url, limit)


@settings(max_examples=400, deadline=None, database=None)
@given(odd_markup)
def test_the_visible_text_of_odd_markup_is_the_plain_readers(markup: str) -> None:
    """Hidden elements by every rule, nested, unseen ones, comments, processing instructions, entities, tails and
    breaks: every element's visible text, read whole or walked, is the plain reader's."""
    for tree in odd_trees(markup):
        for element in tree.iter(etree.Element):
            for limit, unseen, separator in [*_READINGS[::3], (None, UNSEEN_TAGS, ""), (4, UNSEEN_WITH_SCRIPTS, " ")]:
                expected = _visible_text_plainly(element, limit, unseen, separator)
                assert visible_text(element, limit, unseen, separator) == expected, etree.tostring(element)
