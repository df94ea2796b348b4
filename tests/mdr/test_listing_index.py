"""A listing page's records indexed by their links, mined up to a cap of elements on a wide page."""

from urllib.parse import urldefrag, urljoin

import pytest

from journals.mdr import DEFAULT_MAX_NODES
from journals.mdr.listing import ROWS_BEFORE_TREE, _origin, index_listing, join_link, link_key, tree_rows
from journals.mdr.tagtree import TagTree
from journals.pages.entries import ListingMemory
from journals.pages.navigation import ResolvedLinks, page_links, resolved_links
from journals.pages.parsed import ParsedPage
from journals.pages.reading import read_page

BASE = "http://pub.example/az/a"


def _listing(journals: int, farm: int) -> str:
    entries = "".join(
        f'<li><a href="/journal/j{n}">Annals of Topic {n}</a> <span>ISSN 1234-56{n:02d}</span></li>'
        for n in range(journals)
    )
    articles = "".join(f'<li><a href="/article/{n}">a finding about cells number {n}</a></li>' for n in range(farm))
    return f'<html><body><ul class="journals">{entries}</ul><ul class="latest">{articles}</ul></body></html>'


def test_a_listing_within_the_cap_is_mined_whole() -> None:
    index = index_listing(_listing(journals=20, farm=30), BASE, 10, 0.3)
    assert index.truncated_nodes == 0
    record = index.find("http://pub.example/journal/j7")
    assert record["title"] == "Annals of Topic 7" and record["issns"] == ["1234-5607"]
    assert record["xpaths"] == ["/html/body/ul[1]/li[8]"] and record["cells"] == {}
    assert index.find("http://pub.example/article/29")["title"] == "a finding about cells number 29"
    assert index.find("http://pub.example/nowhere", "Annals of Topic 3")["link"] == "http://pub.example/journal/j3"


def test_over_the_cap_the_first_elements_are_mined_and_the_rest_counted() -> None:
    page = _listing(journals=20, farm=400)
    elements = 4 + 20 * 3 + 400 * 2  # html, body, two lists; li, a, span per journal; li, a per article
    index = index_listing(page, BASE, 10, 0.3, max_nodes=200)
    assert index.truncated_nodes == elements - 200
    assert index.find("http://pub.example/journal/j19")["xpaths"] == ["/html/body/ul[1]/li[20]"]
    assert index.find("http://pub.example/article/10"), "the farm's first records are in the mined part"
    assert index.find("http://pub.example/article/399") == {}, "its last ones are not"
    assert DEFAULT_MAX_NODES >= 3 * 10_356, "over three times the largest real list saved"


@pytest.mark.parametrize(
    "base", ["https://www.example.org/journals/a-z", "http://Example.ORG:8080/x?y#z", "ftp://h/x", ""]
)
@pytest.mark.parametrize(
    "href",
    [
        "/journal/acta",
        "/a?x=1#f",
        "/a#",
        "/a?#",
        "/a?",
        "/a#b#c",
        "/a;p",
        "/a/./b",
        "/a/../b",
        "//cdn.org/a",
        "/a\tb",
        "/",
        "/..",
        "/a//b",
        "/%2e/",
        "/ä",
        "acta.html",
        "../acta",
        "?q",
        "#top",
        "",
    ],
)
def test_a_joined_link_is_urljoins(base: str, href: str) -> None:
    """Links joined by concatenation where ``urljoin`` would leave them as they are, by ``urljoin`` elsewhere."""
    assert join_link(base, _origin(base), href) == urljoin(base, href)
    assert link_key(urljoin(base, href)) == urldefrag(urljoin(base, href))[0].split("://", 1)[-1].rstrip("/")


def _linked_listing(base_tag: str) -> str:
    entries = "".join(
        f'<li><a href="{href}">Annals of Topic {n}</a> <span>ISSN 1234-56{n:02d}</span></li>'
        for n, href in enumerate(
            ["/journal/j0", "j1", "../journal/j2#top", "http://pub.example/journal/j3", "//pub.example/journal/j4"]
            + [f"/journal/j{n}?view=home" for n in range(5, 12)]
        )
    )
    return f"<html><head>{base_tag}</head><body><ul>{entries}</ul></body></html>"


@pytest.mark.parametrize("base_tag", ["", '<base href="http://mirror.example/list/">'])
def test_the_links_pass_anchors_give_the_index_its_own_links(base_tag: str) -> None:
    """A listing whose links were read (the crawl reads its links first, on the same parsed page) is indexed as its
    HTML alone is: the links pass's URLs are taken only where they are the ones the index joins."""
    html = _linked_listing(base_tag)
    page = ParsedPage(BASE, html)
    page_links(page, BASE)
    resolved = resolved_links(page)
    assert resolved is not None and len(resolved.urls) == 12
    shared = index_listing(page, BASE, 10, 0.3)
    assert shared == index_listing(html, BASE, 10, 0.3)
    assert resolved_links(page) is None, "the index is their last reader: they are not kept after it"
    assert shared.find("http://pub.example/journal/j2#top")["link"] == "http://pub.example/journal/j2#top"
    assert shared.find("http://pub.example/az/j1")["title"] == "Annals of Topic 1"


def test_a_page_whose_links_were_not_read_is_not_read_for_them() -> None:
    page = ParsedPage(BASE, _listing(journals=5, farm=0))
    index_listing(page, BASE, 10, 0.3)
    assert resolved_links(page) is None


def test_the_index_reads_the_links_pass_urls_rather_than_joining_again() -> None:
    page = ParsedPage(BASE, _linked_listing(""))
    page_links(page, BASE)
    resolved = resolved_links(page)
    assert resolved is not None
    page.forget(ResolvedLinks)
    page.once(ResolvedLinks, lambda _: resolved._replace(urls=[f"{url}?read" for url in resolved.urls]))
    index = index_listing(page, BASE, 10, 0.3)
    assert index.find("http://pub.example/journal/j0?read")["title"] == "Annals of Topic 0"
    assert index.find("http://pub.example/journal/j2#top")["link"] == "http://pub.example/journal/j2#top", (
        "a link with a fragment is joined: the links pass dropped it"
    )


def test_a_listing_s_tag_tree_is_built_by_its_links_pass_and_taken_by_its_index() -> None:
    """Read with ``tree_rows``, a page that lists journals in more rows than :data:`ROWS_BEFORE_TREE` keeps the tag
    tree of its own tree for its index, which takes it and indexes as it would alone; a page that lists none, or
    has few rows, keeps nothing."""
    html = _listing(journals=ROWS_BEFORE_TREE + 2, farm=5)
    read = read_page(html.encode(), "text/html; charset=utf-8", BASE, 1000, memory=ListingMemory(), rows=tree_rows)
    assert read.group is not None
    kept = read.page.kept(tree_rows)
    assert isinstance(kept, TagTree) and kept.elements[0] is read.page.tree
    index = index_listing(read.page, BASE, 10, 0.3)
    assert read.page.kept(tree_rows) is None
    assert index == index_listing(html, BASE, 10, 0.3)
    assert index.find("http://pub.example/journal/j7")["title"] == "Annals of Topic 7"
    empty = read_page(b"<html><body><p>Nothing here</p></body></html>", "text/html", BASE, 1000,
                      memory=ListingMemory(), rows=tree_rows)  # fmt: skip
    assert empty.group is None and empty.page.kept(tree_rows) is None
    few = read_page(_listing(journals=ROWS_BEFORE_TREE - 6, farm=5).encode(), "text/html", BASE, 1000,
                    memory=ListingMemory(), rows=tree_rows)  # fmt: skip
    assert few.group is not None and few.page.kept(tree_rows) is None


def test_a_listing_wider_than_its_index_mines_keeps_no_tag_tree() -> None:
    """A page of more elements than the index mines is indexed on a prefix's tree: its links pass builds no tag
    tree of the whole page for it."""
    html = _listing(journals=20, farm=DEFAULT_MAX_NODES // 2)
    read = read_page(html.encode(), "text/html; charset=utf-8", BASE, 50_000, memory=ListingMemory(), rows=tree_rows)
    assert read.group is not None and read.page.kept(tree_rows) is None
    index = index_listing(read.page, BASE, 10, 0.3)
    assert index.truncated_nodes > 0 and index == index_listing(html, BASE, 10, 0.3)
