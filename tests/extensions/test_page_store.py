"""The crawl's one page store: parsed pages, listings, journal pages waiting for their metrics hop, the cache behind."""

from __future__ import annotations

import pytest
from scrapy.utils.test import get_crawler

from journals.extensions.page_store import PageStore, page_store
from journals.items import FetchedPage
from journals.pages.parsed import ParsedPage
from tests.conftest import project_defaults


def _store() -> PageStore:
    return PageStore(None, parsed_chars=1_000, listing_chars=1_000)


def test_the_store_is_reached_through_the_crawler_and_sized_by_its_settings() -> None:
    crawler = get_crawler(settings_dict=project_defaults(PARSED_PAGES_CHARS=123, LISTING_MEMORY_CHARS=456))
    store = page_store(crawler)
    assert store is page_store(crawler), "one store per crawl"
    assert (store.parsed.max_chars, store.listings.max_chars) == (123, 456)


def test_a_crawl_without_the_extension_is_told_so() -> None:
    with pytest.raises(RuntimeError, match="PageStore"):
        page_store(get_crawler())


def test_a_listing_is_read_parsed_while_kept_then_as_html() -> None:
    store = _store()
    listing = ParsedPage("https://e.org/a", "<ul><li><a href='/j'>Acta</a></li></ul>" + " " * 600)
    store.keep_listing(listing)
    assert store.listing(listing.url) is listing
    store.keep(ParsedPage("https://e.org/j", "<p>" + "x" * 600 + "</p>"))  # pushes the listing's tree out
    assert store.listing(listing.url) == listing.text, "its HTML outlives its tree"
    assert store.listing("https://e.org/b") is None
    assert store.cached_text("https://e.org/b") is None, "no page cache without a crawler"


def test_a_journal_is_its_waiting_home_page_and_its_metrics_page() -> None:
    store = _store()
    home = FetchedPage(url="https://e.org/j", html="<h1>Acta</h1>", role="home")
    store.await_metrics(home)
    metrics = FetchedPage(url="https://e.org/j/m", html="<p>IF 2</p>", role="metrics")
    hop = {"home_url": home.url, "home_from_cache": False, "listing_url": "https://e.org/a", "listing_title": "Acta"}
    journal = store.journal("e", **hop, metrics=metrics)
    assert (journal.url, journal.pages) == (home.url, [home, metrics])
    assert store.journal("e", **hop, metrics=None).pages == [], "the home page is handed over once"
