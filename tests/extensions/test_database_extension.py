"""One database per crawl: a real crawl of a sandbox site opens one engine and creates the schema once, shared by the
page cache, the pipelines, resume, the health check and the crawl record, and nothing connects after it is
disposed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import RunningSandbox
from scrapy import Request, Spider
from scrapy.crawler import AsyncCrawlerRunner
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler, get_reactor_settings
from sqlalchemy import event, func, select
from sqlalchemy.pool import Pool

from journals.downloadermiddlewares.httpcache import SQLCacheStorage
from journals.extensions.database import CrawlDatabase, crawl_database, hand_over
from journals.spiders.publisher import PublisherSpider
from journals.store import DatabaseError, open_database
from journals.store.models import Base, CachedPage, CrawlRun, Journal
from settings import default

PROJECT_SETTINGS = {name: getattr(default, name) for name in dir(default) if name.isupper()}


class Opened:
    """Counts, through SQLAlchemy's events, the engines that connect (a pool's first connection) and the schema
    creations (``create_all`` of the project's metadata)."""

    def __init__(self) -> None:
        self.engines = 0
        self.schema_creations = 0

    def first_connect(self, dbapi_connection: Any, record: Any) -> None:
        """A pool, so an engine, connected for the first time."""
        self.engines += 1

    def before_create(self, target: Any, connection: Any, **kw: Any) -> None:
        """``create_all`` ran on the project's tables."""
        self.schema_creations += 1


@pytest.fixture
def opened() -> Iterator[Opened]:
    """Count engines and schema creations for the duration of the test."""
    counts = Opened()
    event.listen(Pool, "first_connect", counts.first_connect)
    event.listen(Base.metadata, "before_create", counts.before_create)
    yield counts
    event.remove(Pool, "first_connect", counts.first_connect)
    event.remove(Base.metadata, "before_create", counts.before_create)


def project_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The project's settings (cache, pipelines, extensions, resume with a JOBDIR) on a fresh SQLite file."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return {
        **PROJECT_SETTINGS,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'journals.db'}",
        "JOBDIR": str(tmp_path / "job"),
        "LOG_LEVEL": "INFO",
    }


@deferred_f_from_coro_f
async def test_a_crawl_opens_one_engine_and_creates_the_schema_once(
    sandbox: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: Opened
) -> None:
    settings = project_settings(tmp_path, monkeypatch)
    crawler = get_crawler(PublisherSpider, settings)
    database = crawl_database(crawler)
    await crawler.crawl_async(start_url=sandbox.start_url("elsevier"))
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "finished"
    assert stats["store/journals"] > 0 and stats["health/failed"] is False
    # Every component used the database: the cache, the store, the crawl record (the health check read it).
    engine = open_database(settings["DATABASE_URL"])
    with engine.connect() as conn:
        journals = conn.scalar(select(func.count()).select_from(Journal))
        cached = conn.scalar(select(func.count()).select_from(CachedPage))
        runs = conn.scalar(select(func.count()).select_from(CrawlRun))
    engine.dispose()
    assert journals == stats["store/journals"] and cached == stats["httpcache/store"] and runs == 1
    # The crawl's engine, then this test's: a connection after the crawl disposed of its engine would be a third.
    assert (opened.engines, opened.schema_creations) == (2, 2)
    with pytest.raises(RuntimeError, match="closed"):
        database.engine  # noqa: B018


class QuietSpider(Spider):
    """One ``data:`` page, no item."""

    name = "quiet_fixture"

    async def start(self):
        """The page."""
        yield Request("data:text/html,<title>x</title>", callback=self.parse)

    def parse(self, response):
        """Nothing to yield."""
        return []


@deferred_f_from_coro_f
async def test_the_crawl_adopts_the_engine_scrapy_crawl_opened_for_its_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: Opened
) -> None:
    settings = {**project_settings(tmp_path, monkeypatch), **get_reactor_settings(), "TELNETCONSOLE_ENABLED": False}
    url = settings["DATABASE_URL"]
    crawler = AsyncCrawlerRunner(settings).create_crawler(QuietSpider)
    checked = open_database(url)
    hand_over(crawler, url, checked)
    await crawler.crawl_async()
    assert crawler.get_extension(CrawlDatabase) is not None
    assert (opened.engines, opened.schema_creations) == (1, 1)
    assert checked.pool.checkedout() == 0


def test_a_component_of_a_crawl_without_the_database_extension_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    unset = get_crawler(QuietSpider, {"EXTENSIONS": {}})
    off = get_crawler(QuietSpider, {"EXTENSIONS": {}, "DATABASE_URL": f"sqlite:///{tmp_path / 'j.db'}"})
    for check in (crawl_database, lambda crawler: SQLCacheStorage(crawler.settings)):
        with pytest.raises(DatabaseError, match="DATABASE_URL is not set"):
            check(unset)
        with pytest.raises(DatabaseError, match="CrawlDatabase, the crawl's database, is not enabled in EXTENSIONS"):
            check(off)
    on = {"EXTENSIONS": {CrawlDatabase: 100}, "DATABASE_URL": f"sqlite:///{tmp_path / 'j.db'}"}
    SQLCacheStorage(get_crawler(QuietSpider, on).settings)  # enabled as a class, not a path: accepted
