"""The A–Z navigation heuristics on hand-written pages in the forms real sites use."""

from journals.navigation import page_links

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
