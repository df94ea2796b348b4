"""The wide-listing site of issue 14's measurement: its pages have the shape the measurement claims."""

from journals.pages.caps import ANCHOR_TAG
from journals.pages.entries import find_journal_list
from journals.pages.navigation import page_links
from lab.reliability.wide import LETTERS, WideWeb, journal_title, listing_page

DOWNLOAD_MAXSIZE = 16 * 1024 * 1024


def test_a_listing_holds_its_journals_among_a_farm_of_article_links() -> None:
    page = listing_page("C", journals=150, anchors=3000).decode()
    assert len(ANCHOR_TAG.findall(page)) == 3000
    links = page_links(page, "http://wide.example/az/c")
    assert [a.text for a in links.letters] == list(LETTERS)
    found = find_journal_list(links.content, letter="C")
    assert found is not None
    assert [a.text for a in found.anchors] == [journal_title("C", n) for n in range(150)]
    assert len({a.text for a in found.anchors}) == 150


def test_a_full_listing_is_200_000_anchors_under_scrapys_download_limit() -> None:
    page = listing_page("A")
    assert len(ANCHOR_TAG.findall(page.decode())) == 200_000
    assert len(page) < DOWNLOAD_MAXSIZE


def test_the_site_serves_listings_and_journals_and_counts_articles_asked_for() -> None:
    web = WideWeb(journals=3, anchors=100)
    assert web.respond("/az/b", "", "h").status == 200
    assert journal_title("B", 2).encode() in web.respond("/journal/b2", "", "h").body
    assert web.respond("/journal/b3", "", "h").status == 404
    assert web.respond("/article/b7", "", "h").status == 404
    assert web.served == {"listing": 1, "journal": 1, "other": 1, "article": 1}
    assert len(web.expected_titles()) == 3 * len(LETTERS)
