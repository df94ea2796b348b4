"""Benchmark: extraction per page on a learned template against lxml's own parse of that page.

The paper's speed-up is that once a template's XPaths are known, a page costs a lookup, not a search. The
bar (issue 3): extraction on a learned template costs at most half of parsing the page with lxml.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from lxml import etree

from journals.extraction.extract import _UTF8_PARSER, extract_tree, parse_html
from journals.extraction.templates import LearnedRules
from journals.items import FetchedPage
from journals.sandbox.sources import PUBLISHER_NAMES
from journals.sandbox.web import SandboxWeb


def sample_pages(seed: int = 1, size: int = 2000, per_site: int = 60) -> list[tuple[str, FetchedPage]]:
    """(source, page) for the home and metrics pages of ``per_site`` journals of each publisher."""
    web = SandboxWeb(seed, size)
    pages = []
    for name in PUBLISHER_NAMES:
        templates = web.sites[name]
        for index in templates.site.journal_indices[:per_site]:
            path = templates.journal_path(index)
            pages.append((name, FetchedPage(url=path, html=web.respond(path).body.decode(), role="home")))
            if hop := templates.hop_path(index):
                pages.append((name, FetchedPage(url=hop, html=web.respond(hop).body.decode(), role="metrics")))
    return pages


def _best_of(repeats: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def bench_extraction(repeats: int = 5) -> dict[str, float]:
    """Seconds per page to parse and to extract on learned templates (best of ``repeats``), and their ratio.

    Pages whose learned rules miss (a null row left out) are re-learned on every run; they are counted in
    ``relearned_share`` and timed like the others, so the ratio is that of a real crawl's pages.
    """
    pages = sample_pages()
    learned_rules = LearnedRules()
    encoded = [(source, page, page.html.encode()) for source, page in pages]
    trees = []
    for source, page, _ in encoded:
        root = parse_html(page.html)
        assert root is not None
        for _ in range(4):
            extract_tree(root, page, source, learned_rules)
        trees.append((source, page, root))
    relearned = sum(extract_tree(root, page, source, learned_rules).learned for source, page, root in trees)

    def parse_all() -> None:
        for _, _, body in encoded:
            etree.fromstring(body, _UTF8_PARSER)

    def extract_all() -> None:
        for source, page, root in trees:
            extract_tree(root, page, source, learned_rules)

    parse = _best_of(repeats, parse_all) / len(pages)
    extract = _best_of(repeats, extract_all) / len(pages)
    return {
        "pages": float(len(pages)),
        "parse_seconds_per_page": parse,
        "extract_seconds_per_page": extract,
        "ratio": extract / parse,
        "relearned_share": relearned / len(pages),
    }


if __name__ == "__main__":
    for key, value in bench_extraction().items():
        print(f"{key:<26} {value:.6g}")
