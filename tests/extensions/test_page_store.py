"""The crawl's one page store: parsed pages, listings, journal pages waiting for their metrics hop, the cache behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy import signals
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.extensions.page_store import PageStore, page_store
from journals.items import FetchedPage
from journals.pages.parsed import ParsedPage
from journals.spiders.publisher import PublisherSpider
from settings import default
from tests.conftest import RunningSandbox, project_defaults

PROJECT_SETTINGS = {name: getattr(default, name) for name in dir(default) if name.isupper()}


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


@pytest.mark.parametrize("in_process", [True, False])
def test_journal_pages_are_kept_parsed_only_for_an_extraction_in_the_crawl_s_process(in_process: bool) -> None:
    crawler = get_crawler(settings_dict=project_defaults(EXTRACTION_PROCESS=in_process))
    store = page_store(crawler)
    listing = ParsedPage("https://e.org/a", "<ul><li><a href='/j'>Acta</a></li></ul>")
    journal = ParsedPage("https://e.org/j", "<p>ISSN 0000-0019</p>")
    store.keep_listing(listing)
    store.keep(journal)
    assert store.listing(listing.url) is listing, "a listing's tree is kept for the MDR pipeline either way"
    assert store.take_parsed(journal.url) is (None if in_process else journal)


def test_a_journal_is_its_waiting_home_page_and_its_metrics_page() -> None:
    store = _store()
    home = FetchedPage(url="https://e.org/j", html="<h1>Acta</h1>", role="home")
    store.await_metrics(home)
    metrics = FetchedPage(url="https://e.org/j/m", html="<p>IF 2</p>", role="metrics")
    hop = {"home_url": home.url, "home_from_cache": False, "listing_url": "https://e.org/a", "listing_title": "Acta"}
    journal = store.journal("e", **hop, metrics=metrics)
    assert (journal.url, journal.pages) == (home.url, [home, metrics])
    assert store.journal("e", **hop, metrics=None).pages == [], "the home page is handed over once"


def test_a_home_page_in_neither_memory_nor_a_cache_is_none_and_one_given_is_taken() -> None:
    store = _store()
    hop = {"home_url": "https://e.org/j", "home_from_cache": False, "listing_url": "https://e.org/a", "listing_title": "A"}
    assert store.home_page("https://e.org/j", from_cache=False) is None
    fetched_again = FetchedPage(url="https://e.org/j", html="<p>ISSN 1234-5679</p>", role="home")
    assert store.journal("e", **hop, metrics=None, home=fetched_again).pages == [fetched_again]


@deferred_f_from_coro_f
async def test_pages_gone_from_memory_are_read_back_from_the_page_cache(
    sandbox: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With room for one listing and no parsed page, the MDR pipeline reads the listings from the crawl's page cache
    (a real SQLite one): every journal still gets its listing record."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings = {
        **PROJECT_SETTINGS,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'journals.db'}",
        "LISTING_MEMORY_CHARS": 1,
        "PARSED_PAGES_CHARS": 1,
        "PROGRESS_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }
    crawler = get_crawler(PublisherSpider, settings)
    read_back: list[bool] = []

    def listing_in_the_cache(item: Any) -> None:
        if not read_back:
            listing = next(page["url"] for page in item.pages if page["role"] == "listing")
            read_back.append(page_store(crawler).cached_text(listing) is not None)

    crawler.signals.connect(listing_in_the_cache, signal=signals.item_scraped)
    await crawler.crawl_async(start_url=sandbox.start_url("elsevier"))
    stats = crawler.stats.get_stats()
    assert stats["item_scraped_count"] > 10
    assert read_back == [True]
    assert "mdr/listing_unavailable" not in stats
    assert "journals/journal_page_unavailable" not in stats
