"""The final pipeline: journal items become database rows, in batches written off the reactor thread."""

from __future__ import annotations

import dataclasses
import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import DropItem
from scrapy.utils.asyncio import run_in_thread, sleep
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError

from journals.extensions.database import crawl_database
from journals.items import JournalItem
from journals.items.adapted import journal_record
from journals.scheduler.commits import CommitLedger
from journals.store import Duplicate, WriteResult, write_journals
from journals.store.journal_keys import backfill_journal_keys
from journals.store.models import utcnow

if TYPE_CHECKING:
    from collections.abc import Iterable

    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.defer import Deferred

logger = logging.getLogger(__name__)

DUPLICATES_STAT = "journals/duplicate_journals"
"""Journal items stored under another URL than their own: the same journal of their source, stored once."""


class SQLStorePipeline:
    """Store every journal record through :func:`journals.store.write_journals`: a
    :class:`~journals.items.JournalItem`, or any item kind with its fields (a dict, a ``scrapy.Item``…, read through
    ``itemadapter``: :func:`journals.items.adapted.journal_record`).

    Items are buffered and written ``DATABASE_BATCH_SIZE`` at a time in a worker thread; the item that fills a
    batch waits for the write, which slows the crawl down to the database's pace. Other items pass through
    untouched.

    While the database is unavailable (locked, gone) a write is tried ``DATABASE_WRITE_ATTEMPTS`` times in
    all, ``DATABASE_RETRY_DELAY`` seconds apart and doubling; then the crawl is closed (reason
    ``database_error``). When the database refuses a batch's data instead, its items are written one by one
    and the crawl goes on without those refused. Items not stored are saved at close as JSON lines under
    ``DATABASE_UNSAVED_DIR`` and logged, never dropped silently.

    One journal found under several URLs is stored once (see :func:`journals.store.write_journals`): each item
    stored under another URL than its own is counted in ``journals/duplicate_journals`` and logged at DEBUG, and
    the count is logged once at INFO as the spider closes.

    Every buffered record is numbered in :attr:`commits` and settled once its batch is committed (or its data
    refused for good): the shared frontier releases a request's lease only then, so a batch that dies in memory
    with its worker is redone by another. A spider that goes idle commits its partial batch at once, so that
    its leases do not wait for the close.

    Stats: ``store/journals``, ``store/attribute_rows``, ``store/batches``, ``store/write_retries``,
    ``store/refused_items``, ``store/unsaved_items``, ``journals/duplicate_journals``.
    """

    def __init__(
        self,
        crawler: Crawler,
        *,
        batch_size: int = 200,
        write_attempts: int = 4,
        retry_delay: float = 1.0,
        unsaved_dir: str = ".",
    ) -> None:
        """Keep the settings; the crawl's database is taken in :meth:`open_spider`."""
        self.crawler = crawler
        self.batch_size = max(1, batch_size)
        self.write_attempts = max(1, write_attempts)
        self.retry_delay = retry_delay
        self.unsaved_dir = Path(unsaved_dir)
        self.pending_items: list[JournalItem] = []
        self.refused_items: list[JournalItem] = []
        self.failed = False
        self.commits = CommitLedger()
        """The acknowledgements of committed records (:mod:`journals.scheduler.commits`)."""
        self._numbers: dict[int, int] = {}
        """``id(record)`` → its number in :attr:`commits`, for the records buffered and not settled."""
        self._idle_flush: Deferred[None] | None = None
        self._spider_closing = False
        self._engine: Engine | None = None
        # The close we asked for, referenced so that it is not garbage-collected while it runs.
        self._stopping: Deferred[None] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build the pipeline from the crawler's settings; :class:`~journals.store.DatabaseError` when the crawl has
        no database (:func:`journals.extensions.database.crawl_database`)."""
        settings = crawler.settings
        crawl_database(crawler)
        pipeline = cls(
            crawler,
            batch_size=settings.getint("DATABASE_BATCH_SIZE"),
            write_attempts=settings.getint("DATABASE_WRITE_ATTEMPTS"),
            retry_delay=settings.getfloat("DATABASE_RETRY_DELAY"),
            unsaved_dir=settings.get("DATABASE_UNSAVED_DIR"),
        )
        crawler.signals.connect(pipeline.spider_idle, signal=signals.spider_idle)
        return pipeline

    async def open_spider(self) -> None:
        """Take the crawl's database and give its journals stored before ``journal_keys`` existed their keys (so
        that a re-crawl finding one under another URL updates it), in a worker thread."""
        self._engine = crawl_database(self.crawler).engine
        if backfilled := await run_in_thread(backfill_journal_keys, self._engine):
            logger.info("Gave %d identity keys to the journals stored before journal_keys existed", backfilled)

    async def process_item(self, item: Any) -> Any:
        """Buffer a journal item and write the buffer once it holds a batch; return every item as it came, but
        drop from the feeds a journal a re-crawl found unchanged (its rows are only marked re-confirmed)."""
        record = journal_record(item)
        if record is not None:
            self.pending_items.append(record)
            self._numbers[id(record)] = self.commits.buffered()
            if len(self.pending_items) >= self.batch_size and not self.failed:
                await self._flush()
            if record.unchanged:
                raise DropItem(f"unchanged since the last crawl: {record.url}", log_level="DEBUG")
        return item

    async def close_spider(self) -> None:
        """Write what is left (one more try after a failure), save what still cannot be; the crawl disposes of the
        database after."""
        self._spider_closing = True
        if self._idle_flush is not None:
            await maybe_deferred_to_future(self._idle_flush)
        if self.pending_items:
            await self._flush()
        if self.pending_items or self.refused_items:
            self._save_unsaved()
        if duplicates := self.stats.get_value(DUPLICATES_STAT):
            logger.info(
                "%d journal items were journals stored already under another URL of their source "
                "(same title and ISSN): each was stored once (%s)",
                duplicates,
                DUPLICATES_STAT,
            )
        self._engine = None

    def spider_idle(self) -> None:
        """Commit the partial batch of a spider with nothing else to do (one write at a time)."""
        if self.pending_items and not self.failed and (self._idle_flush is None or self._idle_flush.called):
            self._idle_flush = deferred_from_coro(self._flush())

    async def _flush(self) -> None:
        """Write the buffered items as one batch.

        When the database is unavailable (after the retries), the batch goes back to the buffer and the crawl
        stops. When it refuses the batch's data, the items are written one by one and only those it refuses
        are set aside, so that one odd record does not stop a crawl.
        """
        # Take the batch before awaiting: items processed meanwhile start the next one.
        batch, self.pending_items = self.pending_items, []
        try:
            result = await self._write_with_retries(batch)
        except Exception as exc:
            if _is_unavailable(exc):
                self.pending_items[:0] = batch
                self._fail(exc)
                return
            result = await self._write_one_by_one(batch, exc)
        waiting = {id(item) for item in self.pending_items}  # put back after an outage: not committed
        self._settle([item for item in batch if id(item) not in waiting])
        self.stats.inc_value("store/batches")
        self.stats.inc_value("store/journals", result.journals)
        self.stats.inc_value("store/attribute_rows", result.attribute_rows)
        self._count_duplicates(result.duplicates)

    def _settle(self, records: list[JournalItem]) -> None:
        """Acknowledge records the database committed or refused for good."""
        self.commits.settle(self._numbers.pop(id(record)) for record in records if id(record) in self._numbers)

    def _count_duplicates(self, duplicates: Iterable[Duplicate]) -> None:
        """Count and log each item that was stored under another URL than its own."""
        for duplicate in duplicates:
            self.stats.inc_value(DUPLICATES_STAT)
            logger.debug(
                "Journal %s of %s is the journal stored under %s: stored once, there",
                duplicate.url,
                duplicate.source,
                duplicate.stored_url,
            )

    async def _write_one_by_one(self, batch: list[JournalItem], batch_error: Exception) -> WriteResult:
        """Write each item of a refused batch alone; set aside the items refused again."""
        logger.warning(
            "The database refused a batch of %d journals (%s): writing them one by one",
            len(batch),
            _first_line(batch_error),
        )
        journals = attribute_rows = 0
        duplicates: list[Duplicate] = []
        for position, item in enumerate(batch):
            try:
                result = await self._write_with_retries([item])
            except Exception as exc:
                if _is_unavailable(exc):
                    self.pending_items[:0] = batch[position:]
                    self._fail(exc)
                    break
                logger.error("The database refused journal %s of %s: %s", item.url, item.source, _first_line(exc))
                self.refused_items.append(item)
                self.stats.inc_value("store/refused_items")
                continue
            journals += result.journals
            attribute_rows += result.attribute_rows
            duplicates.extend(result.duplicates)
        return WriteResult(journals=journals, attribute_rows=attribute_rows, duplicates=tuple(duplicates))

    async def _write_with_retries(self, batch: list[JournalItem]) -> WriteResult:
        """Write ``batch`` in a worker thread, retrying while the database is unavailable (doubling delay)."""
        if self._engine is None:
            raise RuntimeError("SQLStorePipeline used before open_spider()")
        attempt = 1
        while True:
            try:
                return await run_in_thread(write_journals, self._engine, batch, utcnow())
            except Exception as exc:
                if attempt >= self.write_attempts or not _is_unavailable(exc):
                    raise
                delay = self.retry_delay * 2 ** (attempt - 1)
                logger.warning(
                    "Database write of %d journals failed (attempt %d of %d), retrying in %.1f s: %s",
                    len(batch),
                    attempt,
                    self.write_attempts,
                    delay,
                    _first_line(exc),
                )
                self.stats.inc_value("store/write_retries")
                await sleep(delay)
                attempt += 1

    def _fail(self, exc: Exception) -> None:
        """Log the failure and, the first time, close the spider cleanly; later items wait in the buffer."""
        logger.error(
            "Database write failed after %d attempts, %d journals not stored yet: %s",
            self.write_attempts,
            len(self.pending_items),
            _first_line(exc),
        )
        already_stopping = self.failed or self._spider_closing
        self.failed = True
        engine = self.crawler.engine
        if not already_stopping and engine is not None and engine.spider is not None:
            logger.error("Stopping the crawl: the database does not accept writes (reason database_error)")
            self._stopping = deferred_from_coro(engine.close_spider_async(reason="database_error"))

    def _save_unsaved(self) -> None:
        """Write the items not stored as JSON lines, so that nothing is lost silently."""
        unsaved = self.refused_items + self.pending_items
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        name = self.crawler.spider.name if self.crawler.spider else "crawl"
        path = self.unsaved_dir / f"unsaved-journals-{name}-{stamp}.jsonl"
        self.unsaved_dir.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as lines:
            for item in unsaved:
                # ASCII JSON: escapes keep even text the database refused (lone surrogates) writable.
                lines.write(json.dumps(dataclasses.asdict(item), default=str) + "\n")
        self.stats.inc_value("store/unsaved_items", len(unsaved))
        logger.error("%d journals could not be stored; they are saved in %s", len(unsaved), path)
        self.pending_items = []
        self.refused_items = []

    @property
    def stats(self) -> StatsCollector:
        """The crawler's stats, read when used (they do not exist yet when the pipeline is built)."""
        return self.crawler.stats


def _is_unavailable(exc: Exception) -> bool:
    """Whether ``exc`` says the database cannot be used now (locked, gone, disconnected), not that it
    refuses the data: only then is a retry worth it."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, (OperationalError, DisconnectionError))


def _first_line(exc: BaseException) -> str:
    """The driver's message without SQLAlchemy's statement dump and background links."""
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__
