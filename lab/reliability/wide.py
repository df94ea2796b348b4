"""Wide pages (issue 14): a crawl of a site whose six letter listings hold 200,000 anchors each, measured.

The site is what a wide listing looks like in practice: a letter's journal list of a few hundred entries, followed
by a "latest articles" box that lists every article of the platform, 200,000 links in all. Pages reach 10^5 links
that way (every article, issue or volume listed on one page), not with 10^5 journals: no publisher has that many,
and a page listing 200,000 of them would be a trap whose bounds are another part of the issue. At about 70 bytes
a link the page is 13.4 MB, under ``DOWNLOAD_MAXSIZE`` (16 MB): a larger page is dropped before any analysis. The
article links are not journal entries (sentence case, under ``/article/``), so the crawl must request the journals
and no article; the server counts both.

Measured: the crawl's peak RSS (``ru_maxrss`` of the child, from ``wait4``, plus its worker processes' peaks), the
reactor's longest block (``reactor/max_lag_seconds`` of :mod:`journals.extensions.lag`), the wall time, the journals
stored with their title, and the pages requested by kind. Bars: peak RSS ≤ 500 MB, no block over 0.5 s, every
journal stored, no article requested.

``python -m lab.reliability.wide`` runs it alone; ``make reliability`` runs it with the other scenarios.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from journals.extensions.lag import LONG_LAG_SECONDS
from journals.sandbox.server import SandboxServer
from journals.sandbox.web import WebResponse
from lab.crawlrun import peak_memory_of, python_descendants_of
from lab.reliability.harness import WAIT_SECONDS, Crawl, CrawlResult, snapshot
from lab.reliability.scenarios import Outcome

LETTERS = "ABCDEF"
LETTER_BAR = " ".join(f'<a href="/az/{c.lower()}">{c}</a>' for c in LETTERS)
ANCHORS_PER_LISTING = 200_000
JOURNALS_PER_LISTING = 200
PEAK_RSS_BAR_MB = 500.0
CHROME = '<header><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>'
FOOTER = '<footer><a href="/privacy">Privacy policy</a></footer>'
CHROME_ANCHORS = 4
TOPICS = (
    "Cell",
    "Plant",
    "Marine",
    "Soil",
    "Clinical",
    "Urban",
    "Quantum",
    "Polymer",
    "Dental",
    "Forest",
    "Energy",
    "Coastal",
    "Viral",
    "Musical",
    "Legal",
)
FIELDS = (
    "Biology",
    "Chemistry",
    "Ecology",
    "Physics",
    "Medicine",
    "Studies",
    "Science",
    "Engineering",
    "Research",
    "Economics",
    "Geography",
    "Genetics",
    "Imaging",
    "History",
    "Policy",
)
LEAD_WORDS = {
    "A": "Advances in",
    "B": "Bulletin of",
    "C": "Cahiers of",
    "D": "Dynamics of",
    "E": "European",
    "F": "Frontiers in",
}
ARTICLE_WORDS = (
    "protein",
    "cell",
    "study",
    "analysis",
    "effect",
    "model",
    "data",
    "role",
    "human",
    "gene",
    "response",
    "growth",
    "patient",
    "risk",
)


def journal_title(letter: str, number: int) -> str:
    """The title of a letter's ``number``-th journal: it starts with the letter, and no two are alike."""
    topic, field = TOPICS[number % len(TOPICS)], FIELDS[(number // len(TOPICS)) % len(FIELDS)]
    return f"{LEAD_WORDS[letter]} {topic} {field}"


def journal_path(letter: str, number: int) -> str:
    """The path of a letter's ``number``-th journal."""
    return f"/journal/{letter.lower()}{number}"


def listing_page(letter: str, journals: int = JOURNALS_PER_LISTING, anchors: int = ANCHORS_PER_LISTING) -> bytes:
    """A letter's listing: chrome, the letters, ``journals`` entries with their ISSN, then a box of article links
    that brings the page to ``anchors`` anchors."""
    entries = "".join(
        f'<li class="journal"><a href="{journal_path(letter, n)}">{journal_title(letter, n)}</a>'
        f' <span class="issn">ISSN {1000 + n:04d}-{n % 1000:03d}X</span></li>'
        for n in range(journals)
    )
    words = ARTICLE_WORDS
    farm = "".join(
        f'<li><a href="/article/{letter.lower()}{n}">{words[n % 14].capitalize()} of {words[n // 14 % 14]} in '
        f"{words[n // 196 % 14]} {n}</a></li>"
        for n in range(anchors - journals - len(LETTERS) - CHROME_ANCHORS)
    )
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Journals: {letter}</title></head><body>{CHROME}'
        f'<main><div class="az-index">{LETTER_BAR}</div><h1>Journals starting with {letter}</h1>'
        f'<ul class="journal-list">{entries}</ul><section class="latest"><h2>Latest articles</h2>'
        f'<ul class="articles">{farm}</ul></section></main>{FOOTER}</body></html>'
    ).encode()


def journal_page(letter: str, number: int) -> bytes:
    """A journal's home page: its title, ISSN and impact factor."""
    title = journal_title(letter, number)
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head><body>{CHROME}<main>'
        f"<h1>{title}</h1><dl><dt>ISSN</dt><dd>{1000 + number:04d}-{number % 1000:03d}X</dd>"
        f"<dt>Impact factor</dt><dd>{1 + number % 9}.{number % 10}</dd></dl></main>{FOOTER}</body></html>"
    ).encode()


class WideWeb:
    """The wide site, answering like :class:`journals.sandbox.web.SandboxWeb` (``respond``) so the sandbox's server
    serves and counts it. Listings are built once and kept (13.4 MB each, in the measuring process only)."""

    def __init__(self, journals: int = JOURNALS_PER_LISTING, anchors: int = ANCHORS_PER_LISTING) -> None:
        self.journals = journals
        self.anchors = anchors
        self.served: Counter[str] = Counter()
        """Pages served by kind: ``start``, ``listing``, ``journal``, ``article``, ``other``."""
        self._listings: dict[str, bytes] = {}

    def respond(self, path: str, query: str, host: str) -> WebResponse:
        """The page at ``path``; 404 for anything but the start page, the listings and the journals."""
        html = {"Content-Type": "text/html; charset=utf-8"}
        parts = path.strip("/").split("/")
        if path == "/":
            self.served["start"] += 1
            body = f"<html><body>{CHROME}<main><h1>Journals A–Z</h1><div class='az-index'>{LETTER_BAR}</div></main>"
            return WebResponse(200, f"{body}{FOOTER}</body></html>".encode(), html)
        if len(parts) == 2 and parts[0] == "az" and parts[1].upper() in LETTERS:
            self.served["listing"] += 1
            letter = parts[1].upper()
            if letter not in self._listings:
                self._listings[letter] = listing_page(letter, self.journals, self.anchors)
            return WebResponse(200, self._listings[letter], html)
        if len(parts) == 2 and parts[0] == "journal" and parts[1][:1].upper() in LETTERS and parts[1][1:].isdigit():
            number = int(parts[1][1:])
            if number < self.journals:
                self.served["journal"] += 1
                return WebResponse(200, journal_page(parts[1][0].upper(), number), html)
        self.served["article" if parts[0] == "article" else "other"] += 1
        return WebResponse(404, b"<html><body>Not found</body></html>", html)

    def expected_titles(self) -> dict[str, str]:
        """Every journal's path and title."""
        return {journal_path(c, n): journal_title(c, n) for c in LETTERS for n in range(self.journals)}


def run_with_peak(crawl: Crawl) -> tuple[CrawlResult, float, float]:
    """Run the crawl to its end; its result, its process's peak RSS in MB (``ru_maxrss``, exact: the kernel
    keeps it, where sampling ``/proc`` could miss a short peak), and the peaks of its Python worker processes (the
    extraction process, multiprocessing's resource tracker) added up, read from ``/proc`` as it runs."""
    offset = crawl.log_path.stat().st_size if crawl.log_path.exists() else 0
    process = crawl.start()
    deadline = time.monotonic() + WAIT_SECONDS
    worker_peaks: dict[int, int] = {}
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        for worker in python_descendants_of(process.pid):
            worker_peaks[worker] = max(worker_peaks.get(worker, 0), peak_memory_of(worker))
        if time.monotonic() > deadline:
            process.kill()
        time.sleep(0.2)
    process.returncode = os.waitstatus_to_exitcode(status)
    result = CrawlResult.read(process.returncode, crawl.log_path, offset)
    return result, usage.ru_maxrss / 1024, sum(worker_peaks.values()) / 2**20


def wide_crawl(
    folder: Path,
    journals: int = JOURNALS_PER_LISTING,
    anchors: int = ANCHORS_PER_LISTING,
    settings: Sequence[str] = (),
) -> Outcome:
    """Crawl the wide site with the reactor-lag extension on (and ``settings``, ``NAME=VALUE``); figures and the
    bars that did not hold."""
    outcome = Outcome(f"wide listings ({len(LETTERS)} letters of {anchors:,} anchors, {journals} journals each)")
    web = WideWeb(journals, anchors)
    server = SandboxServer(web, port=0)  # type: ignore[arg-type]  # a web with respond(), like SandboxWeb
    server.start_in_thread()
    database_url = f"sqlite:///{folder / 'wide.db'}"
    settings = ("REACTOR_LAG_ENABLED=True", *settings)
    crawl = Crawl(f"{server.base_url}/", database_url, folder / "wide.log", None, settings)
    try:
        started = time.perf_counter()
        result, crawl_mb, workers_mb = run_with_peak(crawl)
        peak_mb = crawl_mb + workers_mb
        seconds = time.perf_counter() - started
    finally:
        server.shutdown()
        server.server_close()
    expected = web.expected_titles()
    stored = {row[1]: row[2] for row in snapshot(database_url)}
    lag = result.stats.get("reactor/max_lag_seconds")
    outcome.figures.update(
        peak_rss_mb=round(peak_mb),
        crawl_process_peak_rss_mb=round(crawl_mb),
        worker_processes_peak_rss_mb=round(workers_mb),
        reactor_max_lag_seconds=lag,
        reactor_lags_over_half_second=result.stats.get("reactor/lags_over_half_second", 0),
        crawl_seconds=round(seconds, 1),
        journals_expected=len(expected),
        journals_stored=len(stored),
        journals_with_their_title=sum(stored.get(path) == title for path, title in expected.items()),
        pages_served=dict(sorted(web.served.items())),
        exit_code=result.returncode,
        finish_reason=result.finish_reason,
    )
    if peak_mb > PEAK_RSS_BAR_MB:
        outcome.problems.append(f"peak RSS {peak_mb:.0f} MB over the {PEAK_RSS_BAR_MB:.0f} MB bar")
    if lag is None or lag > LONG_LAG_SECONDS:
        outcome.problems.append(f"the reactor was blocked for {lag} s (bar: {LONG_LAG_SECONDS} s)")
    if outcome.figures["journals_with_their_title"] < len(expected):
        outcome.problems.append(f"{outcome.figures['journals_with_their_title']} of {len(expected)} journals stored")
    if web.served["article"]:
        outcome.problems.append(f"{web.served['article']} article pages requested as journals")
    if result.finish_reason != "finished" or "Traceback" in result.log:
        outcome.problems.append(f"the crawl ended with {result.finish_reason} or a traceback")
    return outcome


def main(argv: list[str] | None = None) -> int:
    """Run the wide-listing crawl alone and print its figures; exit 1 if a bar did not hold."""
    parser = argparse.ArgumentParser(prog="python -m lab.reliability.wide", description=__doc__)
    parser.add_argument("--journals", type=int, default=JOURNALS_PER_LISTING, help="journals per listing")
    parser.add_argument("--anchors", type=int, default=ANCHORS_PER_LISTING, help="anchors per listing")
    parser.add_argument("--keep", metavar="DIR", help="crawl into DIR (kept: wide.log, wide.db) instead of a temp dir")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE", help="a crawl setting")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        outcome = wide_crawl(Path(args.keep), args.journals, args.anchors, args.set)
    else:
        with tempfile.TemporaryDirectory(prefix="journals-wide-") as folder:
            outcome = wide_crawl(Path(folder), args.journals, args.anchors, args.set)
    print(outcome.markdown(time.perf_counter() - started))
    return 0 if outcome.held else 1


if __name__ == "__main__":
    raise SystemExit(main())
