"""The MDR pipeline: listing records, one mining per listing, off the reactor thread."""

from __future__ import annotations

import asyncio
import threading

from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

import journals.pipelines.mdr as mdr_pipeline
from journals.extensions.page_store import PageStore, page_store
from journals.items import FetchedPage, JournalItem, JournalPages
from journals.pages.parsed import ParsedPage
from journals.pipelines.mdr import MDRPipeline
from tests.conftest import project_defaults

LISTING_URL = "https://publisher.example/journals/a-z"
ENTRIES = [
    ("Acta Example", "/j/acta", "1234-5678"),
    ("Annals of Tests", "/j/annals", "2049-363X"),
    ("Archive of Things", "/j/archive", "0000-0019"),
    ("Atlas Review", "/j/atlas", "1111-2222"),
]
LISTING = (
    "<html><body><nav><ul><li><a href='/'>Home</a></li><li><a href='/about'>About</a></li></ul></nav>"
    "<ul class='journals'>"
    + "".join(
        f"<li><h3><a href='{link}'>{title}</a></h3><p>ISSN <span>{issn}</span> · Open access</p></li>"
        for title, link, issn in ENTRIES
    )
    + "</ul></body></html>"
)
HOME = (
    "<html><body><div id='side'><a href='/x'>x</a></div><div id='metrics'>"
    + "<div class='metric'><span>Impact factor</span><b>3.1</b><i>2024</i></div>" * 4
    + "</div></body></html>"
)


def _item(title: str, link: str, listing_url: str = LISTING_URL) -> JournalPages:
    url = "https://publisher.example" + link
    return JournalPages(
        source="example",
        url=url,
        listing_url=listing_url,
        listing_title=title,
        pages=[FetchedPage(url=url, html=HOME, role="home")],
    )


def _pipeline(**kwargs) -> MDRPipeline:
    """A pipeline reading the listing pages from memory, as in a crawl."""
    pages = PageStore(None, parsed_chars=1_000_000, listing_chars=1_000_000)
    pages.listings.keep(LISTING_URL, LISTING)
    for n in range(4):
        pages.listings.keep(f"{LISTING_URL}?page={n}", LISTING)
    return MDRPipeline(pages=pages, **kwargs)


def test_from_crawler_reads_settings():
    crawler = get_crawler(settings_dict=project_defaults(MDR_MAX_NODE_LENGTH=4, MDR_THRESHOLD=0.2))
    pipeline = MDRPipeline.from_crawler(crawler)
    assert (pipeline.k, pipeline.threshold) == (4, 0.2)


@deferred_f_from_coro_f
async def test_listing_record():
    item = await _pipeline().process_item(_item("Annals of Tests", "/j/annals"))
    assert item.listing_record["title"] == "Annals of Tests"
    assert item.listing_record["link"] == "https://publisher.example/j/annals"
    assert item.listing_record["issns"] == ["2049-363X"]
    assert item.listing_record["xpaths"] == ["/html/body/ul/li[2]"]
    assert item.pages[0].html == HOME, "journal pages are not mined here: the extraction mines the ones it learns"


@deferred_f_from_coro_f
async def test_each_listing_is_mined_once_off_the_reactor_thread(monkeypatch):
    calls: list[str] = []
    original = mdr_pipeline.index_listing

    def counting(*args, **kwargs):
        calls.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(mdr_pipeline, "index_listing", counting)
    pipeline = _pipeline()
    items = [_item(title, link) for title, link, _ in ENTRIES]
    done = await asyncio.gather(*(pipeline.process_item(item) for item in items))
    assert [item.listing_record["title"] for item in done] == [title for title, _, _ in ENTRIES]
    assert len(calls) == 1
    assert calls[0] != threading.main_thread().name


@deferred_f_from_coro_f
async def test_listing_cache_is_bounded():
    pipeline = _pipeline(cache_size=2)
    for n in range(4):
        await pipeline.process_item(_item("Acta Example", "/j/acta", f"{LISTING_URL}?page={n}"))
    assert list(pipeline._listings) == [f"{LISTING_URL}?page=2", f"{LISTING_URL}?page=3"]


@deferred_f_from_coro_f
async def test_unlisted_journal_and_other_items_pass():
    item = await _pipeline().process_item(_item("Unknown", "/j/unknown"))
    assert item.listing_record == {}
    gone = await _pipeline().process_item(_item("Acta Example", "/j/acta", "https://publisher.example/gone"))
    assert gone.listing_record == {}, "a listing in neither memory nor the page cache gives no record"
    other = JournalItem(source="example", url="https://publisher.example/j/x")
    assert await MDRPipeline().process_item(other) is other
    assert await MDRPipeline().process_item({"a": 1}) == {"a": 1}


@deferred_f_from_coro_f
async def test_mdr_max_nodes_caps_the_listing_mined():
    """``MDR_MAX_NODES`` reaches the listing's mining: the fourth entry is past a cap of 25 elements."""
    pipeline = MDRPipeline.from_crawler(get_crawler(settings_dict=project_defaults(MDR_MAX_NODES=25)))
    assert pipeline.max_nodes == 25
    pipeline.pages = _pipeline().pages
    first = await pipeline.process_item(_item("Acta Example", "/j/acta"))
    assert first.listing_record["title"] == "Acta Example"
    last = await pipeline.process_item(_item("Atlas Review", "/j/atlas"))
    assert last.listing_record == {}


@deferred_f_from_coro_f
async def test_the_listing_the_spider_parsed_is_mined_on_its_tree(monkeypatch):
    parsed = ParsedPage(LISTING_URL, LISTING)
    crawler = get_crawler(settings_dict=project_defaults())
    page_store(crawler).keep_listing(parsed)
    mined: list[object] = []
    original = mdr_pipeline.index_listing

    def recording(page, *args, **kwargs):
        mined.append(page)
        return original(page, *args, **kwargs)

    monkeypatch.setattr(mdr_pipeline, "index_listing", recording)
    item = await MDRPipeline.from_crawler(crawler).process_item(_item("Annals of Tests", "/j/annals"))
    assert item.listing_record["xpaths"] == ["/html/body/ul/li[2]"]
    assert mined == [parsed]
    assert page_store(crawler).listing(LISTING_URL) is parsed, "a listing stays kept for its other journals"
