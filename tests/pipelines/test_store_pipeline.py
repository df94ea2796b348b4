"""The store pipeline inside real crawls: batches, pass-through, idempotent re-crawls, a locked database."""

from __future__ import annotations

import json
import sqlite3

import pytest
from scrapy import Field, Item, Request, Spider, signals
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler
from sqlalchemy import func, select

from journals.items import JournalItem
from journals.store import engine_from_url
from journals.store.models import AttributeValue, Journal
from tests.conftest import project_defaults


class JournalsSpider(Spider):
    """Yields ``count`` journal items and one plain dict from one ``data:`` page (no network)."""

    name = "journals_fixture"

    def __init__(self, count: int = 25, odd: str = "", **kwargs):
        super().__init__(**kwargs)
        self.count = int(count)
        self.odd = odd
        self.passed_items = []

    async def start(self):
        """One page; its items come from the callback, as in a real crawl."""
        yield Request("data:text/html,<title>listing</title>", callback=self.parse)

    def parse(self, response):
        """The items."""
        yield {"not": "a journal"}
        for n in range(self.count):
            yield JournalItem(
                source="sandbox",
                url=f"https://example.org/j/{n}",
                title=self.odd if n == 7 and self.odd else f"Journal {n}",
                impact_factor=n / 10,
                attributes={"h_index": n},
            )


def collect(item, spider):
    """Keep what reached the end of the pipelines (a named receiver: signals hold receivers weakly)."""
    spider.passed_items.append(item)


@pytest.fixture
def settings(tmp_path, monkeypatch):
    """Crawl settings writing into a fresh SQLite file, in batches of 10."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return {
        **project_defaults(),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'journals.db'}",
        "DATABASE_BATCH_SIZE": 10,
        "DATABASE_RETRY_DELAY": 0.01,
        "DATABASE_UNSAVED_DIR": str(tmp_path / "unsaved"),
        "ITEM_PIPELINES": {"journals.pipelines.store.SQLStorePipeline": 900},
        "EXTENSIONS": {"journals.extensions.database.CrawlDatabase": 100},
    }


async def crawl(settings, count=25, odd=""):
    """Run the fixture spider once (journal 7 titled ``odd`` if given); return its crawler."""
    crawler = get_crawler(JournalsSpider, settings)
    crawler.signals.connect(collect, signal=signals.item_scraped)
    await crawler.crawl_async(count=count, odd=odd)
    return crawler


def count_rows(url, model):
    """Rows in ``model``'s table of the database at ``url``."""
    engine = engine_from_url(url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(model)).scalar()
    finally:
        engine.dispose()


@deferred_f_from_coro_f
async def test_items_are_stored_in_batches_and_pass_through(settings):
    crawler = await crawl(settings)
    stats = crawler.stats.get_stats()
    assert stats["store/journals"] == 25
    assert stats["store/attribute_rows"] == 75
    assert stats["store/batches"] == 3
    assert "store/unsaved_items" not in stats
    assert stats["finish_reason"] == "finished"
    assert len(crawler.spider.passed_items) == 26
    assert count_rows(settings["DATABASE_URL"], Journal) == 25
    assert count_rows(settings["DATABASE_URL"], AttributeValue) == 75


class RecordItem(Item):
    """A journal record declared the ``scrapy.Item`` way."""

    source = Field()
    url = Field()
    title = Field()
    impact_factor = Field()


class DictJournalsSpider(JournalsSpider):
    """Yields its journals as dicts and ``scrapy.Item`` objects, as a spider without our dataclasses would."""

    name = "dict_journals_fixture"

    def parse(self, response):
        """The items: even journals as dicts, odd ones as ``scrapy.Item``."""
        yield {"not": "a journal"}
        for n in range(self.count):
            record = {"source": "sandbox", "url": f"https://example.org/j/{n}", "title": f"Journal {n}"}
            yield {**record, "impact_factor": n / 10} if n % 2 == 0 else RecordItem(**record, impact_factor=n / 10)


@deferred_f_from_coro_f
async def test_journal_records_of_any_item_kind_are_stored_and_pass_through_as_they_came(settings):
    crawler = get_crawler(DictJournalsSpider, settings)
    crawler.signals.connect(collect, signal=signals.item_scraped)
    await crawler.crawl_async(count=12)
    assert crawler.stats.get_value("store/journals") == 12
    assert count_rows(settings["DATABASE_URL"], Journal) == 12
    assert count_rows(settings["DATABASE_URL"], AttributeValue) == 24  # title and impact factor of each
    passed = crawler.spider.passed_items
    assert sum(isinstance(item, dict) for item in passed) == 7 and sum(isinstance(item, RecordItem) for item in passed) == 6


@deferred_f_from_coro_f
async def test_recrawl_adds_no_duplicate_rows(settings):
    await crawl(settings)
    crawler = await crawl(settings)
    assert crawler.stats.get_value("store/journals") == 25
    assert count_rows(settings["DATABASE_URL"], Journal) == 25
    assert count_rows(settings["DATABASE_URL"], AttributeValue) == 75


@deferred_f_from_coro_f
async def test_environment_database_url_wins(settings, tmp_path, monkeypatch):
    other = f"sqlite:///{tmp_path / 'other.db'}"
    monkeypatch.setenv("DATABASE_URL", other)
    await crawl(settings, count=3)
    assert count_rows(other, Journal) == 3


async def crawl_with_database_locked(settings, db_file, count):
    """Crawl ``count`` items while another connection holds the SQLite file exclusively (2 short attempts)."""
    await crawl(settings, count=1)
    settings["DATABASE_URL"] = f"sqlite:///{db_file}?timeout=0.05"
    settings["DATABASE_WRITE_ATTEMPTS"] = 2
    holder = sqlite3.connect(db_file, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        return await crawl(settings, count=count)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@deferred_f_from_coro_f
async def test_locked_database_stops_the_crawl_and_keeps_the_items(settings, tmp_path):
    crawler = await crawl_with_database_locked(settings, tmp_path / "journals.db", count=25)
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "database_error"
    assert stats["store/write_retries"] >= 1
    assert "store/journals" not in stats
    (saved,) = (tmp_path / "unsaved").glob("unsaved-journals-journals_fixture-*.jsonl")
    saved_items = [json.loads(line) for line in saved.read_text().splitlines()]
    # The crawl stopped early, but every journal it yielded is either stored or saved.
    assert stats["store/unsaved_items"] == len(saved_items) == 25
    assert sorted(item["url"] for item in saved_items) == sorted(f"https://example.org/j/{n}" for n in range(25))
    assert saved_items[0]["attributes"]["h_index"] in range(25)
    assert count_rows(settings["DATABASE_URL"], Journal) == 1


@deferred_f_from_coro_f
async def test_refused_record_is_set_aside_and_the_crawl_goes_on(settings, tmp_path):
    # A lone surrogate (text decoded with surrogateescape) is not UTF-8: SQLite's driver refuses it.
    crawler = await crawl(settings, odd="broken \udcff title")
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "finished"
    assert stats["store/refused_items"] == 1
    assert stats["store/journals"] == 24
    assert "store/write_retries" not in stats
    assert count_rows(settings["DATABASE_URL"], Journal) == 24
    (saved,) = (tmp_path / "unsaved").glob("*.jsonl")
    assert [json.loads(line)["url"] for line in saved.read_text().splitlines()] == ["https://example.org/j/7"]
    assert stats["store/unsaved_items"] == 1


@deferred_f_from_coro_f
async def test_database_locked_at_close_saves_the_last_batch(settings, tmp_path):
    crawler = await crawl_with_database_locked(settings, tmp_path / "journals.db", count=5)
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "finished"
    assert stats["store/unsaved_items"] == 5
    assert len(list((tmp_path / "unsaved").glob("*.jsonl"))) == 1


class SessionIdSpider(Spider):
    """Yields ``journals`` journals each under ``sessions`` URLs (a session id in every link), interleaved so that
    one journal's URLs fall in several batches; ``odd`` titles the second URL of journal 0 with text the database
    refuses."""

    name = "session_ids"
    ISSNS = ("0140-6736", "0959-8138", "0028-0836", "0036-8075", "0092-8674")

    def __init__(self, journals: int = 5, sessions: int = 5, first_session: int = 0, odd: str = "", **kwargs):
        super().__init__(**kwargs)
        self.journals, self.sessions, self.first_session, self.odd = journals, sessions, first_session, odd
        self.passed_items = []

    async def start(self):
        """One page; its items come from the callback, as in a real crawl."""
        yield Request("data:text/html,<title>listing</title>", callback=self.parse)

    def parse(self, response):
        """Every journal under every session."""
        for session in range(self.first_session, self.first_session + self.sessions):
            for n in range(self.journals):
                odd = self.odd and n == 0 and session == self.first_session + 1
                yield JournalItem(
                    source="trap",
                    url=f"https://trap.example/j/{n}?sid={session}",
                    title=self.odd if odd else f"Journal {n}" if session % 2 else f"JOURNAL  {n}",
                    issn=self.ISSNS[n],
                    impact_factor=float(session),
                )


async def crawl_sessions(settings, **kwargs):
    """Run :class:`SessionIdSpider` once; return its crawler."""
    crawler = get_crawler(SessionIdSpider, settings)
    crawler.signals.connect(collect, signal=signals.item_scraped)
    await crawler.crawl_async(**kwargs)
    return crawler


def stored_journals(url):
    """``url`` → impact factor of every journal stored in the database at ``url``."""
    engine = engine_from_url(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(Journal.url, AttributeValue.value)
                .join(AttributeValue)
                .where(AttributeValue.attribute == "impact_factor")
            )
            return dict(rows.all())
    finally:
        engine.dispose()


@deferred_f_from_coro_f
async def test_a_journal_under_many_session_urls_is_stored_once_across_batches_and_crawls(settings, caplog):
    from journals.store.crawl_history import crawl_since
    from journals.store.models import utcnow

    caplog.set_level("DEBUG", logger="journals.pipelines.store")
    crawler = await crawl_sessions(settings)
    stats = crawler.stats.get_stats()
    # Five journals written once per batch of ten items: three batches, fifteen journal writes, five rows.
    assert (stats["store/batches"], stats["journals/duplicate_journals"], stats["store/journals"]) == (3, 20, 15)
    # One row per journal, under one of its URLs (batches flushed at once commit in either order), updated last
    # by session 4's item.
    first_urls = stored_journals(settings["DATABASE_URL"])
    assert sorted(url.split("?")[0] for url in first_urls) == [f"https://trap.example/j/{n}" for n in range(5)]
    assert set(first_urls.values()) == {"4.0"}
    # The items go on as found: the feeds export the URL the spider saw.
    assert {item.url for item in crawler.spider.passed_items} == {
        f"https://trap.example/j/{n}?sid={s}" for n in range(5) for s in range(5)
    }
    logged = [r for r in caplog.records if "is the journal stored under" in r.getMessage()]
    assert len(logged) == 20
    assert {r.levelname for r in logged} == {"DEBUG"}
    assert len({r.getMessage() for r in logged}) == 20
    summary = [r for r in caplog.records if r.levelname == "INFO" and "journals/duplicate_journals" in r.getMessage()]
    assert len(summary) == 1
    assert summary[0].getMessage().startswith("20 journal items")

    # A re-crawl with other session ids updates the five journals stored first.
    started = utcnow()
    crawler = await crawl_sessions(settings, first_session=10, sessions=2)
    assert crawler.stats.get_value("journals/duplicate_journals") == 10
    assert stored_journals(settings["DATABASE_URL"]) == dict.fromkeys(first_urls, "11.0")
    engine = engine_from_url(settings["DATABASE_URL"])
    try:
        assert crawl_since(engine, started)["trap"].journals == 5  # what the health check counts for the source
    finally:
        engine.dispose()


@deferred_f_from_coro_f
async def test_duplicates_are_counted_when_a_refused_batch_is_written_one_by_one(settings):
    crawler = await crawl_sessions(settings, odd="broken \udcff title")
    stats = crawler.stats.get_stats()
    assert stats["store/refused_items"] == 1
    assert stats["journals/duplicate_journals"] == 19
    assert len(stored_journals(settings["DATABASE_URL"])) == 5


def keep_commit_ledger(spider):
    """At spider_closed (after the pipelines closed): keep the store pipeline's acknowledgements on the spider."""
    (store,) = [c for c in spider.crawler.engine.scraper.itemproc.middlewares if hasattr(c, "commits")]
    spider.commits = store.commits


@deferred_f_from_coro_f
async def test_records_are_acknowledged_only_once_committed(settings, tmp_path):
    crawler = get_crawler(JournalsSpider, settings)
    crawler.signals.connect(keep_commit_ledger, signal=signals.spider_closed)
    await crawler.crawl_async(count=25, odd="broken \udcff title")
    commits = crawler.spider.commits
    # 25 buffered: 24 committed and one refused for good (set aside), all acknowledged.
    assert commits.ticket() == 24 and commits.unsettled == 0

    db_file = tmp_path / "journals.db"
    settings = {**settings, "DATABASE_URL": f"sqlite:///{db_file}?timeout=0.05", "DATABASE_WRITE_ATTEMPTS": 2}
    locked = get_crawler(JournalsSpider, settings)
    locked.signals.connect(keep_commit_ledger, signal=signals.spider_closed)
    holder = sqlite3.connect(db_file, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        await locked.crawl_async(count=25)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # Nothing committed: nothing acknowledged, so the frontier's leases of these pages are not released.
    assert locked.spider.commits.unsettled == 25
