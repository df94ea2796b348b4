"""The extraction pipeline: turns a spider's :class:`JournalPages` into a clean :class:`JournalItem`.

The extraction itself is :mod:`journals.extraction` (pure code). This pipeline keeps the learned rules of
every source for the whole crawl, loads them from the database the first time a source is met and saves the
templates that changed, so the next crawl starts with what this one learned.
"""

from __future__ import annotations

import logging
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Protocol, Self

from scrapy.exceptions import DropItem
from scrapy.settings import BaseSettings
from scrapy.utils.asyncio import run_in_thread
from sqlalchemy.exc import SQLAlchemyError

from journals.extensions.database import crawl_database
from journals.extensions.page_store import PageStore, page_store
from journals.extraction.confirmation import confirmation
from journals.items import JournalItem, JournalPages
from journals.items.adapted import journal_pages
from journals.mdr.mining import MainRegions
from journals.pipelines.extraction_worker import (
    ChangedRules,
    ExtractionProcess,
    ExtractionThread,
    ExtractorCall,
    JournalExtractor,
)
from journals.store import load_rules, save_rules
from journals.vocabulary import load_attributes

if TYPE_CHECKING:
    from collections.abc import Mapping

    from scrapy.crawler import Crawler
    from sqlalchemy import Engine

    from journals.extraction import Extraction
    from journals.extraction.templates import PositionStats
    from journals.pages.parsed import ParsedPage

logger = logging.getLogger(__name__)
UNCONFIRMED_EXAMPLES = 3
"""Unconfirmed pages named per source in the crawl's closing summary."""


class RuleStore(Protocol):
    """Where learned rules live between crawls."""

    def load(self, source: str) -> dict[str, dict[str, str]]:
        """Template → attribute → XPath for ``source``."""
        ...

    def save(self, source: str, template: str, rules: Mapping[str, str]) -> None:
        """Insert or replace the rules of one template."""
        ...


class SQLRuleStore:
    """Learned rules in the ``extraction_rules`` table (:mod:`journals.store.rules`) of the crawl's database."""

    def __init__(self, engine: Engine) -> None:
        """Read and write through ``engine``, the crawl's (:func:`journals.extensions.database.crawl_database`)."""
        self.engine = engine

    def load(self, source: str) -> dict[str, dict[str, str]]:
        """The rules stored for ``source``."""
        return load_rules(self.engine, source)

    def save(self, source: str, template: str, rules: Mapping[str, str]) -> None:
        """Store the rules of one template."""
        save_rules(self.engine, source, template, rules)


def unchanged_since_last_crawl(item: JournalPages, settings: BaseSettings) -> bool:
    """Whether a re-crawl may skip extracting ``item``: ``EXTRACT_UNCHANGED_PAGES`` is off and every page of the
    journal (not the listing) came from the page cache, fresh or revalidated with 304, so its rows are already
    stored; the store then only marks them re-confirmed (``JournalItem.unchanged``).

    Off by default: an offline replay from the cache exists precisely to re-extract every page.
    """
    if settings.getbool("EXTRACT_UNCHANGED_PAGES"):
        return False
    journal_pages = [page for page in item.pages if page.role != "listing"]
    return bool(journal_pages) and all(page.from_cache for page in journal_pages)


class ExtractionPipeline:
    """Extract a journal's attributes from its pages; other items pass through.

    A journal's pages arrive parsed: the spider parsed each in its analysis thread and keeps it by URL in the crawl's
    :class:`~journals.extensions.page_store.PageStore`; the item carries only their text, and a page no longer kept
    is parsed again from it. Extraction runs off the reactor, in one worker process of its own by default
    (``EXTRACTION_PROCESS``: the crawl's own process is bound to one core by its GIL, and an offline replay by what
    that core does), else in one thread; either way the learned rules stay single-threaded (loading them in, reading
    and learning pages, taking the changed ones all happen there), and a page learned by its labels is mined by MDR
    for its main regions (:class:`~journals.mdr.mining.MainRegions`, settings ``MDR_MAX_NODE_LENGTH``,
    ``MDR_THRESHOLD``, ``MDR_MAIN_REGIONS``, ``MDR_MAX_NODES``) there too, only then. A worker process that dies
    leaves the rest of the crawl to the thread (``extraction/process_lost``). Loading and saving rules (database
    I/O) run in a worker thread of the crawl's process. ``EXTRACTION_RULES_PERSIST = False`` keeps them in memory.

    Stats: ``extraction/pages_learned`` (pages searched by their labels), ``extraction/pages_by_rule``
    (pages read with a learned template's rules), and of those ``extraction/pages_by_position`` (read by a
    positional reader, :mod:`journals.extraction.positions`), ``extraction/position_audits`` and
    ``extraction/position_disagreements`` (audited reads where the reader and the rules differed).
    """

    def __init__(
        self,
        rule_store: RuleStore | None = None,
        crawler: Crawler | None = None,
        main_regions: MainRegions | None = None,
        pages: PageStore | None = None,
        *,
        in_process: bool = False,
    ) -> None:
        """Extract in a thread of the crawl's process, or with ``in_process`` (``EXTRACTION_PROCESS``) in a worker
        process of its own (:mod:`journals.pipelines.extraction_worker`), where pages are parsed again from their
        text."""
        self.rule_store = rule_store
        self.crawler = crawler
        self.pages = pages
        """Where the spider left the pages it parsed (none: every page is parsed again from its text)."""
        self.main_regions = main_regions or MainRegions()
        """How a learned page's main regions are mined."""
        self._persist = rule_store is not None
        self._worker: ExtractionThread | ExtractionProcess = (
            ExtractionProcess(self.main_regions, persist=self._persist)
            if in_process
            else ExtractionThread(JournalExtractor(self.main_regions, persist=self._persist))
        )
        self._loaded_sources: set[str] = set()
        self._unconfirmed: dict[str, list[str]] = {}
        """Per source, a few pages not stored because nothing on them confirmed their entry."""
        self._core = {a.name for a in load_attributes() if a.core}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Persist rules in the crawl's database unless ``EXTRACTION_RULES_PERSIST`` is off; mine regions as the MDR
        settings say."""
        settings = crawler.settings
        regions = MainRegions(
            k=settings.getint("MDR_MAX_NODE_LENGTH"),
            threshold=settings.getfloat("MDR_THRESHOLD"),
            count=settings.getint("MDR_MAIN_REGIONS"),
            max_nodes=settings.getint("MDR_MAX_NODES"),
        )
        pages = page_store(crawler)
        in_process = settings.getbool("EXTRACTION_PROCESS")
        if not settings.getbool("EXTRACTION_RULES_PERSIST"):
            return cls(crawler=crawler, main_regions=regions, pages=pages, in_process=in_process)
        return cls(SQLRuleStore(crawl_database(crawler).engine), crawler, regions, pages, in_process=in_process)

    async def process_item(self, item: Any) -> Any:
        """Return the :class:`JournalItem` extracted from ``item`` when it is a journal's pages (a
        :class:`JournalPages`, or any item kind with its fields: :mod:`journals.items.adapted`)."""
        journal = journal_pages(item)
        if journal is None:
            return item
        item = journal
        if self.crawler is not None and unchanged_since_last_crawl(item, self.crawler.settings):
            self.crawler.stats.inc_value("extraction/unchanged_skipped")
            return JournalItem(source=item.source, url=item.url, unchanged=True)
        worker = self._worker
        try:
            extraction, ready = await self._extraction(item)
        except BrokenProcessPool:
            if self._worker is worker:  # not already left by another journal that was in the dead worker too
                self._extract_in_thread_from_now_on()
            extraction, ready = await self._extraction(item)
        if self.crawler is not None and self.crawler.stats is not None:
            for page in extraction.pages:
                self.crawler.stats.inc_value("extraction/pages_learned" if page.learned else "extraction/pages_by_rule")
        if ready:
            await run_in_thread(self._save, ready)
        self._confirm(item, extraction)
        return self.journal_item(item, extraction)

    def _confirm(self, item: JournalPages, extraction: Extraction) -> None:
        """Drop a page that confirms nothing of being the journal its list entry promised
        (:func:`~journals.extraction.confirmation.confirmation`), unless ``CONFIRM_JOURNAL_PAGES`` is off: counted in
        ``journals/unconfirmed`` and per source, the source's first one logged with its entry and URL, a few kept for
        the closing summary; the evidence of the others is counted by kind (``journals/confirmed_by/KIND``)."""
        if self.crawler is None or not self.crawler.settings.getbool("CONFIRM_JOURNAL_PAGES"):
            return
        entry = item.listing_record.get("title") or item.listing_title
        evidence = confirmation(extraction, extraction.title_candidates, entry, item.url)
        stats = self.crawler.stats
        if evidence is not None:
            if stats is not None:
                stats.inc_value(f"journals/confirmed_by/{evidence}")
            return
        if stats is not None:
            stats.inc_value("journals/unconfirmed")
            stats.inc_value(f"journals/unconfirmed_by_source/{item.source}")
        examples = self._unconfirmed.setdefault(item.source, [])
        if not examples:
            logger.warning(
                "Not stored: %s, reached from the entry %r of %s, shows no ISSN, metric, journal meta tag or title "
                "matching its entry (more from %s are counted in journals/unconfirmed)",
                item.url,
                entry,
                item.listing_url,
                item.source,
            )
        if len(examples) < UNCONFIRMED_EXAMPLES:
            examples.append(f"{entry!r} {item.url}")
        raise DropItem(f"unconfirmed journal page {item.url}", log_level="DEBUG")

    async def _extraction(self, item: JournalPages) -> tuple[Extraction, ChangedRules]:
        """The journal's extraction, and the templates it changed that are ready to save: the source's stored rules
        loaded first, the first time it is met."""
        if self.rule_store is not None and item.source not in self._loaded_sources:
            self._loaded_sources.add(item.source)
            try:
                stored = await run_in_thread(self.rule_store.load, item.source)
            except SQLAlchemyError as error:
                logger.warning("Could not load learned rules of %s: %s", item.source, str(error).splitlines()[0])
                stored = {}
            await self._call("load", item.source, stored)
        # a tree stays in the process that parsed it: a worker process parses the pages' text again
        parsed = self._parsed_pages(item) if isinstance(self._worker, ExtractionThread) else {}
        result: tuple[Extraction, ChangedRules] = await self._call("extract", item, parsed)
        return result

    def _extract_in_thread_from_now_on(self) -> None:
        """After the worker process died (killed, out of memory): extract in the crawl's process for the rest of
        the crawl. The rules it learned and had not saved are learned again; stored ones are loaded again."""
        logger.error("The extraction process ended unexpectedly: extracting in the crawl's process from now on")
        if self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value("extraction/process_lost")
        self._worker = ExtractionThread(JournalExtractor(self.main_regions, persist=self._persist))
        self._loaded_sources.clear()

    def _parsed_pages(self, item: JournalPages) -> dict[str, ParsedPage]:
        """The item's pages the spider parsed and still keeps, by URL (taken: each is read by this item alone)."""
        if self.pages is None:
            return {}
        return {page.url: parsed for page in item.pages if (parsed := self.pages.take_parsed(page.url)) is not None}

    async def _call(self, method: ExtractorCall, *args: Any) -> Any:
        """``method`` of the extractor, where it runs (a thread, or the worker process)."""
        return await self._worker.call(method, *args)

    def _save(self, changed: Mapping[tuple[str, str], Mapping[str, str]]) -> None:
        """Store changed templates; a failure only costs re-learning them next crawl, so it is logged."""
        assert self.rule_store is not None
        try:
            for (source, template), rules in changed.items():
                self.rule_store.save(source, template, rules)
        except SQLAlchemyError as error:
            logger.warning("Could not save %d learned templates: %s", len(changed), str(error).splitlines()[0])

    def journal_item(self, pages: JournalPages, extraction: Extraction) -> JournalItem:
        """The exported record: core attributes as fields, the rest in ``attributes``, provenance of each."""
        templates = {page.url: page.template for page in extraction.pages}
        item = JournalItem(
            source=pages.source,
            url=pages.url,
            pages=[
                *([{"url": pages.listing_url, "role": "listing", "template": None}] if pages.listing_url else []),
                *({"url": p.url, "role": p.role, "template": templates.get(p.url)} for p in pages.pages),
            ],
        )
        for name, found in extraction.values.items():
            item.provenance[name] = found.provenance()
            if found.value is None:
                continue
            if name in self._core:
                setattr(item, name, found.value)
            else:
                item.attributes[name] = found.value
        return item

    async def close_spider(self) -> None:
        """Record the positional reads, save what is left and stop the extraction thread or process (the crawl
        disposes of the database after)."""
        try:
            positions: PositionStats | None = await self._call("position_stats")
            changed: ChangedRules = await self._call("take_changed")
        except BrokenProcessPool:
            logger.error("The extraction process ended unexpectedly: its positional reads and unsaved rules are lost")
            positions, changed = None, {}
        self._worker.shutdown()
        for source, examples in self._unconfirmed.items():
            count = self.crawler.stats.get_value(f"journals/unconfirmed_by_source/{source}", 0) if self.crawler else 0
            logger.warning("%s: %s pages not stored, unconfirmed; e.g. %s", source, count, "; ".join(examples))
        if self.crawler is not None and self.crawler.stats is not None and positions is not None:
            self.crawler.stats.set_value("extraction/pages_by_position", positions.reads)
            self.crawler.stats.set_value("extraction/position_audits", positions.audits)
            self.crawler.stats.set_value("extraction/position_disagreements", positions.disagreements)
        if self.rule_store is not None and changed:
            await run_in_thread(self._save, changed)
