"""Pipelines take any kind of item through itemadapter: a journal's pages or a journal record as a dict, a
dataclass or a ``scrapy.Item``, and anything else untouched."""

from __future__ import annotations

import dataclasses

import scrapy

from journals.items import FetchedPage, JournalItem, JournalPages
from journals.items.adapted import journal_pages, journal_record


class RecordItem(scrapy.Item):
    """A journal record declared the ``scrapy.Item`` way."""

    source = scrapy.Field()
    url = scrapy.Field()
    title = scrapy.Field()
    impact_factor = scrapy.Field()


def test_a_journal_record_of_any_kind_becomes_a_journal_item() -> None:
    as_dict = {"source": "site", "url": "https://example.org/j/1", "title": "Journal 1", "impact_factor": 2.5}
    for item in (as_dict, RecordItem(**as_dict), JournalItem(**as_dict)):
        record = journal_record(item)
        assert record == JournalItem(**as_dict)
    same = JournalItem(**as_dict)
    assert journal_record(same) is same


def test_a_journal_s_pages_of_any_kind_become_journal_pages() -> None:
    fields = {
        "source": "site",
        "url": "https://example.org/j/1",
        "listing_url": "https://example.org/az",
        "listing_title": "Journal 1",
    }
    page = FetchedPage(url="https://example.org/j/1", html="<h1>Journal 1</h1>")
    expected = JournalPages(**fields, pages=[page])
    assert journal_pages({**fields, "pages": [dataclasses.asdict(page)]}) == expected
    assert journal_pages({**fields, "pages": [page]}) == expected
    assert journal_pages(expected) is expected


def test_other_items_are_neither() -> None:
    pages = {"source": "s", "url": "u", "listing_url": "l", "listing_title": "t"}
    for other in ({"not": "a journal"}, {"url": "u"}, {"source": "s", "url": "u", "price": 3}, "text", 3):
        assert journal_record(other) is None
        assert journal_pages(other) is None
    assert journal_record(pages) is None  # a journal's pages are not a record: they have a listing_url
    assert journal_pages({"source": "s", "url": "u", "title": "T"}) is None
