"""Where a crawl's journal extraction runs: a thread of the crawl's process, or a process of its own.

The crawl's process holds one GIL for the reactor, the page-analysis thread and extraction; an offline replay is
bound by that one core while the machine has more. Extraction needs nothing of the crawl but a journal's pages (their
text, parsed again where the spider's tree is not at hand) and the rules it learned, so it can run in a worker
process: :class:`ExtractionProcess` keeps one :class:`JournalExtractor` there for the whole crawl, which its calls
reach by name. :class:`ExtractionThread` keeps it in the crawl's process (for pages the spider parsed, read on their
tree, and for callers that look at the learned rules).

The worker process is started with ``spawn`` (no copy of the reactor or of the crawl's threads), ignores the
interrupts meant for the crawl (the crawl stops it when it closes) and leaves when the crawl's process is gone.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal

from journals.extraction import Extraction, LearnedRules, extract_journal
from journals.extraction.listing_cells import add_listing_values
from journals.extraction.templates import PositionStats
from journals.mdr.mining import MainRegions

if TYPE_CHECKING:
    from collections.abc import Mapping

    from journals.items import JournalPages
    from journals.pages.parsed import ParsedPage

ChangedRules = dict[tuple[str, str], dict[str, str]]
"""Templates changed since they were last taken: (source, template) → attribute → XPath."""
ExtractorCall = Literal["load", "extract", "take_changed", "position_stats"]
"""The :class:`JournalExtractor` methods a worker is asked to run."""
PARENT_POLL_SECONDS = 1.0
"""How often the worker process checks that the crawl's process still runs."""


class JournalExtractor:
    """Every source's learned rules and the extraction of journals with them: single-threaded state, kept where
    the extraction runs."""

    def __init__(self, main_regions: MainRegions, *, persist: bool) -> None:
        """Mine a learned page's main regions with ``main_regions``; with ``persist``, keep changed templates for
        :meth:`take_changed` (they are saved to the crawl's database)."""
        self.learned_rules = LearnedRules()
        self.main_regions = main_regions
        self.persist = persist

    def load(self, source: str, stored: Mapping[str, Mapping[str, str]]) -> None:
        """Start ``source`` from the rules a crawl stored."""
        self.learned_rules.load(source, stored)

    def extract(self, item: JournalPages, parsed: Mapping[str, ParsedPage]) -> tuple[Extraction, ChangedRules]:
        """The journal's extraction (pages in ``parsed`` read on their tree, the others parsed from their text), and
        the templates it changed that are ready to save."""
        listing_title = item.listing_record.get("title") or item.listing_title
        extraction = extract_journal(
            item.pages,
            self.learned_rules,
            self.main_regions,
            source=item.source,
            listing_title=listing_title,
            parsed=parsed,
        )
        add_listing_values(extraction, item.listing_record.get("cells", {}), item.listing_url)
        return extraction, self.take_changed()

    def take_changed(self) -> ChangedRules:
        """The templates changed since last taken (none when rules are not persisted)."""
        if not self.persist or not self.learned_rules.changed:
            return {}
        return {key: dict(rules) for key, rules in self.learned_rules.take_changed().items()}

    def position_stats(self) -> PositionStats:
        """The positional reads so far."""
        return self.learned_rules.position_stats


class ExtractionThread:
    """The extractor in one thread of the crawl's process."""

    def __init__(self, extractor: JournalExtractor) -> None:
        """Run ``extractor``'s calls, one at a time, in a thread named ``extraction``."""
        self.extractor = extractor
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="extraction")

    async def call(self, method: ExtractorCall, *args: Any) -> Any:
        """``extractor.method(*args)``, run in the thread and awaited."""
        return await asyncio.wrap_future(self._executor.submit(getattr(self.extractor, method), *args))

    def shutdown(self) -> None:
        """Wait for the running call and stop the thread."""
        self._executor.shutdown(wait=True)


_worker_extractor: list[JournalExtractor] = []
"""The worker process's one extractor (made by :func:`_start_worker`)."""


def _start_worker(main_regions: MainRegions, persist: bool, parent: int) -> None:
    """In the worker process: make its extractor, ignore the crawl's interrupts and watch the crawl's process."""
    _worker_extractor[:] = [JournalExtractor(main_regions, persist=persist)]
    for interrupt in (signal.SIGINT, signal.SIGTERM):
        signal.signal(interrupt, signal.SIG_IGN)
    threading.Thread(target=_leave_with, args=(parent,), name="crawl-watch", daemon=True).start()


def _leave_with(parent: int) -> None:
    """End the worker process once ``parent`` (the crawl's process) is gone, however it ended."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


def _call_worker(method: ExtractorCall, *args: Any) -> Any:
    """In the worker process: ``method`` of its extractor."""
    return getattr(_worker_extractor[0], method)(*args)


class ExtractionProcess:
    """The extractor in a worker process of its own, for the crawl: the crawl's process sends a journal's pages
    (their text) and gets back their extraction, and the worker's parse and extraction use another core."""

    def __init__(self, main_regions: MainRegions, *, persist: bool) -> None:
        """A worker process, started at the first call (a crawl that finds no journal starts none), whose
        extractor mines regions with ``main_regions`` and keeps changed templates when ``persist``."""
        self._executor: Executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(main_regions, persist, os.getpid()),
        )

    async def call(self, method: ExtractorCall, *args: Any) -> Any:
        """``method`` of the worker's extractor, with ``args`` sent to it; its answer awaited."""
        return await asyncio.wrap_future(self._executor.submit(_call_worker, method, *args))

    def shutdown(self) -> None:
        """Wait for the running call and stop the worker process."""
        self._executor.shutdown(wait=True)
