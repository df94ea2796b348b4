"""How long MDR takes per page, against ``lxml.html``'s own parse of the same page."""

from __future__ import annotations

import gzip
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html

from journals.mdr.mining import mine_data_regions
from lab.mdr.evaluation import DATA_DIR

YELP_PAGE = "scrapinghub-mdr/htmlpage0.html"
"""The 456 KB Yelp review page, the issue's reference for absolute time (at most 0.1 s)."""


def _pages(data_dir: Path) -> dict[str, bytes]:
    pages = {
        str(path.relative_to(data_dir)): gzip.decompress(path.read_bytes())
        for path in sorted(data_dir.glob("nexteval-mdr/html/*.html.gz"))
    }
    for path in sorted(data_dir.glob("pydepta-mdr/resources/[0-9].html")) + sorted(
        data_dir.glob("scrapinghub-mdr/*.html")
    ):
        pages[str(path.relative_to(data_dir))] = path.read_bytes()
    return pages


def _median_seconds(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_mdr(repeats: int = 5, data_dir: Path = DATA_DIR) -> dict[str, float | int]:
    """Median time per page of MDR (parse included) and of ``lxml.html`` parsing, over the labelled sets.

    Returns ``pages``; ``mdr_seconds`` and ``parse_seconds``, the sums over pages of per-page medians;
    ``ratio``, MDR over parse on those sums; ``median_page_ratio`` and ``max_page_ratio`` over pages;
    ``yelp_seconds``, the median MDR time of the Yelp page alone.
    """
    ratios: list[float] = []
    mdr_total = parse_total = 0.0
    yelp_seconds = 0.0
    for name, html in _pages(data_dir).items():
        parse = _median_seconds(lambda html=html: lxml.html.document_fromstring(html), repeats)
        mdr = _median_seconds(lambda html=html: mine_data_regions(html), repeats)
        mdr_total += mdr
        parse_total += parse
        ratios.append(mdr / parse)
        if name == YELP_PAGE:
            yelp_seconds = mdr
    return {
        "pages": len(ratios),
        "mdr_seconds": mdr_total,
        "parse_seconds": parse_total,
        "ratio": mdr_total / parse_total,
        "median_page_ratio": statistics.median(ratios),
        "max_page_ratio": max(ratios),
        "yelp_seconds": yelp_seconds,
    }


if __name__ == "__main__":
    for key, value in bench_mdr().items():
        print(f"{key:>18}: {value:.4g}" if isinstance(value, float) else f"{key:>18}: {value}")
