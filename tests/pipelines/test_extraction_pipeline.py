"""The extraction pipeline: JournalPages in, JournalItem out, rules loaded from and saved to a rule store."""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from scrapy.settings import Settings
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import deferred_f_from_coro_f

import journals.pipelines.extraction_worker as extraction_module
from journals.extensions.page_store import PageStore
from journals.items import FetchedPage, JournalItem, JournalPages
from journals.mdr.mining import MainRegions
from journals.pages.parsed import ParsedPage
from journals.pipelines.extraction import ExtractionPipeline, SQLRuleStore
from journals.sandbox.relation import make_issn
from journals.store import open_database
from tests.conftest import project_defaults


class MemoryRuleStore:
    """A rule store in a dict."""

    def __init__(self) -> None:
        self.rules: dict[str, dict[str, dict[str, str]]] = {}
        self.loads = 0

    def load(self, source: str) -> dict[str, dict[str, str]]:
        self.loads += 1
        return {t: dict(r) for t, r in self.rules.get(source, {}).items()}

    def save(self, source: str, template: str, rules: Mapping[str, str]) -> None:
        self.rules.setdefault(source, {}).setdefault(template, {}).update(rules)


def _issn(n: int) -> str:
    """Journal ``n``'s own ISSN: a rule reading one ISSN for every journal is a decoy, and is dropped."""
    return make_issn(3372165 + n)


def _impact_factor(n: int) -> float:
    return round(4.117 + n / 1000, 3)


def _pages(n: int) -> JournalPages:
    home = (
        f"<html><head><title>Journal {n} | Site</title></head><body><main><h1>Journal {n}</h1>"
        f"<dl><dt>Print ISSN</dt><dd>{_issn(n)}</dd><dt>Impact Factor</dt><dd>4,{117 + n:03d} (2024)</dd>"
        "<dt>h-index</dt><dd>42</dd><dt>Access</dt><dd>Open access</dd><dt>CiteScore</dt><dd>n/a</dd></dl>"
        "</main><aside><p>Impact Factor: 9.999</p></aside></body></html>"
    )
    url = f"https://example.org/j/{n}"
    return JournalPages(
        source="site",
        url=url,
        listing_url="https://example.org/az/j",
        listing_title=f"Journal {n}",
        pages=[FetchedPage(url=url, html=home, role="home")],
    )


async def _run(pipeline: ExtractionPipeline, items: list[object]) -> list[object]:
    out = [await pipeline.process_item(item) for item in items]
    await pipeline.close_spider()
    return out


@deferred_f_from_coro_f
async def test_journal_item_fields_attributes_and_provenance() -> None:
    pipeline = ExtractionPipeline()
    item, other = await _run(pipeline, [_pages(1), {"not": "journal pages"}])
    assert other == {"not": "journal pages"}
    assert isinstance(item, JournalItem)
    assert (item.title, item.issn, item.impact_factor, item.citescore) == ("Journal 1", _issn(1), 4.118, None)
    assert item.attributes == {"h_index": 42, "open_access": True}
    assert item.provenance["impact_factor"]["raw"] == "4,118"
    assert item.provenance["impact_factor"]["extractor"] == "heuristic"
    assert "Impact Factor" in item.provenance["impact_factor"]["xpath"]
    assert item.provenance["citescore"]["raw"] == "n/a"


@deferred_f_from_coro_f
async def test_rules_are_saved_and_reused_by_the_next_crawl() -> None:
    store = MemoryRuleStore()
    await _run(ExtractionPipeline(store), [_pages(n) for n in range(8)])
    assert store.loads == 1
    assert store.rules["site"]
    next_crawl = ExtractionPipeline(store)
    (item,) = await _run(next_crawl, [_pages(99)])
    assert isinstance(item, JournalItem)
    assert item.provenance["impact_factor"]["extractor"] == "rule"
    assert item.impact_factor == _impact_factor(99)


@deferred_f_from_coro_f
async def test_sql_rule_store_round_trip(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rules.db'}"
    engine = open_database(url)
    await _run(ExtractionPipeline(SQLRuleStore(engine)), [_pages(n) for n in range(6)])
    engine.dispose()
    reopened = open_database(url)
    loaded = SQLRuleStore(reopened).load("site")
    reopened.dispose()
    assert any("impact_factor" in rules for rules in loaded.values())


@deferred_f_from_coro_f
async def test_a_journal_s_pages_as_a_dict_are_extracted_as_the_dataclass_is() -> None:
    as_dict = dataclasses.asdict(_pages(3))
    from_dict, from_dataclass = await _run(ExtractionPipeline(), [as_dict, _pages(3)])
    assert isinstance(from_dict, JournalItem)
    assert from_dict == from_dataclass
    assert (from_dict.issn, from_dict.impact_factor) == (_issn(3), 4.12)


class _Crawler:
    """A crawler with no spider and no stats."""

    def __init__(self) -> None:
        self.spider = None
        self.stats = None
        self.settings = Settings(project_defaults())


class _CountingRegions(MainRegions):
    """Main regions that count the pages mined."""

    mined: ClassVar[list[str]] = []

    def _mine(self, page: ParsedPage) -> list[str]:
        self.mined.append(page.url)
        return super()._mine(page)


@deferred_f_from_coro_f
async def test_pages_the_spider_parsed_are_read_on_their_tree_in_the_extraction_thread(monkeypatch) -> None:
    crawler = _Crawler()
    pages = PageStore(None, parsed_chars=1_000_000, listing_chars=1_000_000)
    pipeline = ExtractionPipeline(crawler=crawler, pages=pages)  # type: ignore[arg-type]
    items = [_pages(n) for n in range(8)]
    parsed = {item.url: ParsedPage(item.url, item.pages[0].html) for item in items}
    for page in parsed.values():
        pages.keep(page)
    threads: list[str] = []
    original = extraction_module.extract_journal

    def recording(pages, learned_rules, main_regions, *, parsed, **kwargs):
        threads.append(threading.current_thread().name)
        for page in pages:
            assert parsed[page.url].tree is not None
        return original(pages, learned_rules, main_regions, parsed=parsed, **kwargs)

    monkeypatch.setattr(extraction_module, "extract_journal", recording)
    out = await _run(pipeline, items)
    assert [item.issn for item in out] == [_issn(n) for n in range(8)]
    assert threads and all(name.startswith("extraction") for name in threads)
    assert len(pages.parsed) == 0, "each parsed page is taken by its item"


@deferred_f_from_coro_f
async def test_main_regions_are_mined_only_for_pages_learned_by_their_labels() -> None:
    """Regions are mined for a page learned by its labels, or of a page shape new to its template; not else."""
    _CountingRegions.mined.clear()
    pipeline = ExtractionPipeline(main_regions=_CountingRegions(count=3))
    out = await _run(pipeline, [_pages(n) for n in range(12)])
    learned = [item.url for item in out if any(p["extractor"] == "heuristic" for p in item.provenance.values())]
    assert 0 < len(learned) < 12
    mined = _CountingRegions.mined
    assert set(learned) <= set(mined), "a page learned by its labels is searched in its main regions first"
    assert len(mined) == len(set(mined)) < 12, "mined once at most; pages the learned rules read are not mined"
    assert mined[-1] != out[-1].url


@deferred_f_from_coro_f
async def test_a_worker_process_extracts_what_the_thread_extracts_and_saves_the_same_rules() -> None:
    items = [_pages(n) for n in range(10)]
    in_thread, in_process = MemoryRuleStore(), MemoryRuleStore()
    expected = await _run(ExtractionPipeline(in_thread), items)
    pipeline = ExtractionPipeline(in_process, in_process=True)
    first = await pipeline.process_item(items[0])
    workers = multiprocessing.active_children()
    assert len(workers) == 1, "one worker process extracts"
    out = [first, *[await pipeline.process_item(item) for item in items[1:]]]
    await pipeline.close_spider()
    assert out == expected
    assert in_process.rules == in_thread.rules and in_process.rules["site"]
    assert not workers[0].is_alive(), "the worker process ends with the crawl"


@deferred_f_from_coro_f
async def test_when_the_worker_process_dies_the_crawl_goes_on_extracting_in_a_thread() -> None:
    crawler = _Crawler()
    crawler.stats = StatsCollector(crawler)  # type: ignore[assignment]
    store = MemoryRuleStore()
    pipeline = ExtractionPipeline(store, crawler, in_process=True)  # type: ignore[arg-type]
    before = [await pipeline.process_item(_pages(n)) for n in range(4)]
    (worker,) = multiprocessing.active_children()
    worker.kill()
    worker.join()
    after = [await pipeline.process_item(_pages(n)) for n in range(4, 8)]
    await pipeline.close_spider()
    assert [item.issn for item in [*before, *after]] == [_issn(n) for n in range(8)]
    assert crawler.stats.get_value("extraction/process_lost") == 1
    assert store.loads == 2, "the source's stored rules are loaded again for the thread"


@deferred_f_from_coro_f
async def test_journals_in_the_worker_process_when_it_dies_are_extracted_in_one_thread() -> None:
    crawler = _Crawler()
    crawler.stats = StatsCollector(crawler)  # type: ignore[assignment]
    pipeline = ExtractionPipeline(MemoryRuleStore(), crawler, in_process=True)  # type: ignore[arg-type]
    await pipeline.process_item(_pages(0))
    in_flight = [asyncio.ensure_future(pipeline.process_item(_pages(n))) for n in range(1, 5)]
    await asyncio.sleep(0)  # each has handed its journal to the worker process
    (worker,) = multiprocessing.active_children()
    worker.kill()
    worker.join()
    out = await asyncio.gather(*in_flight)
    await pipeline.close_spider()
    assert [item.issn for item in out] == [_issn(n) for n in range(1, 5)]
    assert crawler.stats.get_value("extraction/process_lost") == 1, "one thread takes over, once"


def test_the_worker_process_leaves_when_the_crawl_s_process_is_killed(tmp_path: Path) -> None:
    script = (
        "import asyncio, multiprocessing, time\n"
        "from journals.mdr.mining import MainRegions\n"
        "from journals.pipelines.extraction_worker import ExtractionProcess\n"
        "if __name__ == '__main__':\n"
        "    worker = ExtractionProcess(MainRegions(), persist=False)\n"
        "    asyncio.run(worker.call('take_changed'))\n"
        "    (process,) = multiprocessing.active_children()\n"
        "    print(process.pid, flush=True)\n"
        "    time.sleep(600)\n"
    )
    crawl = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2]
    )
    try:
        assert crawl.stdout is not None
        worker_pid = int(crawl.stdout.readline())
        assert _running(worker_pid)
    finally:
        crawl.kill()
        crawl.wait()
    deadline = time.monotonic() + 30
    while _running(worker_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(worker_pid), "an orphaned worker process ends by itself"


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not reaped by init yet, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
