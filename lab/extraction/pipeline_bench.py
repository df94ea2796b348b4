"""Benchmark: the crawl's whole per-page pipeline against one ``lxml.html`` parse of the page (issue 17).

Per page, as the crawl does it: decode the body and parse it once (:class:`journals.pages.parsed.ParsedPage`), read its
links (all of a list page's, a journal page's metrics hops, none of a metrics page's), then on a journal page the
extraction on learned templates, MDR mining the page only when it is learned by its labels
(:class:`journals.mdr.mining.MainRegions`), and on a list page its journal list and MDR's listing index (read for
the journals' records). The bar: at most twice the parse.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html

from journals.extraction.extract import extract_page
from journals.extraction.positions import AUDITED_FIRST_READS
from journals.extraction.templates import LEARNING_PAGES, VAIN_LABEL_SEARCHES, WATCHED_PAGES, LearnedRules
from journals.items import FetchedPage
from journals.mdr.listing import index_listing, tree_rows
from journals.mdr.mining import DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD, MainRegions
from journals.pages.entries import ListingMemory
from journals.pages.meta_refresh import RefreshRule
from journals.pages.navigation import MAX_ANCHORS_PER_PAGE
from journals.pages.reading import LinksRead, read_page
from lab.extraction.bench import CHROME_KILOBYTES, sample_pages, with_chrome

HTML_TYPE = "text/html; charset=utf-8"
LEARNING_BUDGETS = {
    "LEARNING_PAGES": LEARNING_PAGES,
    "VAIN_LABEL_SEARCHES": VAIN_LABEL_SEARCHES,
    "WATCHED_PAGES": WATCHED_PAGES,
    "AUDITED_FIRST_READS": AUDITED_FIRST_READS,
}
"""Every budget of pages a template spends learning: its rules are trusted after ``LEARNING_PAGES``; from then on a
page whose text names an attribute its rules lack is searched by its labels until ``VAIN_LABEL_SEARCHES`` such
searches came back empty, and a new positional reader's first ``AUDITED_FIRST_READS`` reads are checked; its rules
are watched for decoys for ``WATCHED_PAGES``. A real page is its own template and spends all of them."""
WARM_UP_PASSES = LEARNING_PAGES + max(VAIN_LABEL_SEARCHES, WATCHED_PAGES, AUDITED_FIRST_READS) + 1
"""Passes over the journal pages before timing: past every learning budget, the later ones counted from the pages
that made the template trusted, so the timed passes are a crawl's steady state (six passes, fewer than
``VAIN_LABEL_SEARCHES`` after trust, had every timed pass of a real page search its labels again, hidden by the
best-of-N)."""
SANDBOX_ORIGIN = "http://127.0.0.1:8000"
"""Where the sandbox's pages are read from: a crawl's pages have absolute URLs (and links are made absolute)."""


def _journal_step(learned_rules: LearnedRules, regions: MainRegions) -> Callable[[str, FetchedPage, bytes], object]:
    """The pipeline of one journal page as the crawl runs it: the spider's reading
    (:func:`journals.pages.reading.read_page`: decode, parse, a home page's metrics hops, its signs of being
    script-built, whether it names journal data and, naming none, its reading as a listing with its site's listing
    memory; a metrics page is read for its signs and its data alone), then the extraction on learned templates (MDR
    when learned)."""
    memory = ListingMemory()

    def step(source: str, page: FetchedPage, body: bytes) -> object:
        home = page.role == "home"
        links: LinksRead = "metrics" if home else "none"
        read = read_page(
            body, HTML_TYPE, page.url, MAX_ANCHORS_PER_PAGE, memory=memory if home else None, links=links,
            signs=True, refreshes=RefreshRule(),
        )  # fmt: skip
        parsed = read.page
        fetched = FetchedPage(url=page.url, html=parsed.text, role=page.role)
        return extract_page(fetched, source, learned_rules, lambda: regions(parsed), parsed=parsed)

    return step


def _list_step(url: str, body: bytes) -> object:
    """The pipeline of one list page as the crawl runs it: the spider's reading (decode, parse, links, the journal
    list with a site's listing memory, its meta refresh and, when it lists nothing, its signs of being script-built:
    :func:`journals.pages.reading.read_page`), then the MDR pipeline's listing index on that same parsed page and
    each listed journal's record looked up in it."""
    read = read_page(
        body, HTML_TYPE, url, MAX_ANCHORS_PER_PAGE, memory=ListingMemory(), signs=True, refreshes=RefreshRule(),
        rows=tree_rows,
    )  # fmt: skip
    index = index_listing(read.page, url, DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD)
    return [index.find(anchor.url, anchor.text) for anchor in (read.group.anchors if read.group else [])]


def learning_state(learned_rules: LearnedRules) -> tuple[int, ...]:
    """What learning has done so far: pages learned, vain label searches, templates settled, positional readers
    made and trusted. Unchanged over the timed passes when the warm-up went past every budget."""
    return (
        sum(rules.pages_learned for templates in learned_rules.templates.values() for rules in templates.values()),
        sum(learned_rules.vain_label_searches.values()),
        len(learned_rules.settled),
        sum(len(readers) for readers in learned_rules.shapes.values()),
        sum(reader.unaudited for readers in learned_rules.shapes.values() for _, reader in readers),
    )


def _real_pages(data: Path) -> list[tuple[str, str, bytes]]:
    """(kind, URL, body) of the saved real pages (``list`` or ``journal``), none when the folder is absent."""
    manifest = data / "manifest.json"
    if not manifest.exists():
        return []
    return [
        (entry["kind"], entry.get("url") or f"https://{entry['file']}", (data / entry["file"]).read_bytes())
        for entry in json.loads(manifest.read_text(encoding="utf-8"))
    ]


def _best(action: Callable[[], object], repeats: int) -> float:
    """The best time of ``repeats`` runs (a busy machine only ever adds time)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def bench_page_pipeline(repeats: int = 5, per_site: int = 15, real_data: Path | None = None) -> dict[str, float]:
    """Seconds per page of the whole per-page pipeline and of one ``lxml.html`` parse, and their ratio.

    Journal pages: the sandbox's home and metrics pages grown to 50–300 kB (:func:`with_chrome`), their templates
    learned first (:data:`WARM_UP_PASSES`, past every budget of :data:`LEARNING_BUDGETS`), so the timed passes are a
    crawl's steady state; ``learned_while_timed`` is 1 when learning still changed anything during them.
    Real pages (``real_data``, e.g. ``../shared/data/real``): lists with their journal list and listing index
    (``real_list_ratio``), journal pages each of its own template, learned first like the others
    (``real_journal_ratio``; a page learned by its labels costs 50–150 parses: learning is what templates amortise).
    A page's time is its best of ``repeats``;
    the ratios are those of the sums (``ratio`` over all pages, ``chrome_ratio``, ``real_ratio``).
    """
    pages = [
        (
            source,
            FetchedPage(url=SANDBOX_ORIGIN + page.url, html="", role=page.role),
            with_chrome(page.html, CHROME_KILOBYTES[i % 4], i % 3).encode(),
        )
        for i, (source, page) in enumerate(sample_pages(per_site=per_site))
    ]
    learned_rules = LearnedRules()
    journal_step = _journal_step(learned_rules, MainRegions())
    for _ in range(WARM_UP_PASSES):
        for source, page, body in pages:
            journal_step(source, page, body)
    warmed = learning_state(learned_rules)
    chrome_parse = chrome_pipeline = 0.0
    for source, page, body in pages:
        chrome_parse += _best(lambda body=body: lxml.html.document_fromstring(body), repeats)
        chrome_pipeline += _best(lambda s=source, p=page, b=body: journal_step(s, p, b), repeats)
    real = _real_pages(real_data) if real_data is not None else []
    real_journals = [(url, body) for kind, url, body in real if kind != "list"]
    real_rules = LearnedRules()
    real_step = _journal_step(real_rules, MainRegions())
    for _ in range(WARM_UP_PASSES):
        for url, body in real_journals:
            real_step("real", FetchedPage(url=url, html="", role="home"), body)
    real_warmed = learning_state(real_rules)
    list_parse = list_pipeline = journal_parse = journal_pipeline = 0.0
    for kind, url, body in real:
        parse = _best(lambda body=body: lxml.html.document_fromstring(body), repeats)
        if kind == "list":
            list_parse += parse
            list_pipeline += _best(lambda u=url, b=body: _list_step(u, b), repeats)
        else:
            page = FetchedPage(url=url, html="", role="home")
            journal_parse += parse
            journal_pipeline += _best(lambda p=page, b=body: real_step("real", p, b), repeats)
    real_parse, real_pipeline = list_parse + journal_parse, list_pipeline + journal_pipeline
    relearned = learning_state(learned_rules) != warmed or learning_state(real_rules) != real_warmed
    return {
        "warm_up_passes": float(WARM_UP_PASSES),
        "learned_while_timed": float(relearned),
        "pages": float(len(pages) + len(real)),
        "chrome_pages": float(len(pages)),
        "real_pages": float(len(real)),
        "parse_seconds_per_page": (chrome_parse + real_parse) / max(1, len(pages) + len(real)),
        "pipeline_seconds_per_page": (chrome_pipeline + real_pipeline) / max(1, len(pages) + len(real)),
        "ratio": (chrome_pipeline + real_pipeline) / (chrome_parse + real_parse),
        "chrome_ratio": chrome_pipeline / chrome_parse,
        "real_ratio": real_pipeline / real_parse if real else float("nan"),
        "real_list_ratio": list_pipeline / list_parse if list_parse else float("nan"),
        "real_journal_ratio": journal_pipeline / journal_parse if journal_parse else float("nan"),
    }


if __name__ == "__main__":
    from journals.replay.pages import resolve_manifest

    budgets = ", ".join(f"{name} {pages}" for name, pages in LEARNING_BUDGETS.items())
    print(f"warm-up: {WARM_UP_PASSES} passes before timing, past every learning budget ({budgets})")
    for key, value in bench_page_pipeline(real_data=resolve_manifest().parent).items():
        print(f"  {key:<26} {value:.6g}")
