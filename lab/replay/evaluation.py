"""``make eval-real``: the crawl and the extraction measured on real saved publisher pages, offline.

Starts the replay proxy (:mod:`journals.replay.proxy`) on the saved pages of ``../shared/data/real`` (or
``--data``, or ``$JOURNALS_REAL_PAGES``), then:

- per list page, a real ``scrapy crawl publisher -a start_url=URL`` in a subprocess, through the proxy
  (``http_proxy``/``https_proxy``), on a fresh temporary database (so the page cache replays nothing from an
  earlier run), bounded by ``CLOSESPIDER_TIMEOUT``: recall, precision, items and requests
  (:func:`~lab.replay.scoring.score_list`);
- per journal page, the extraction as the crawl runs it on a journal's home page, with no learned rules:
  right, wrong and missing attributes (:func:`~lab.replay.scoring.score_journal`).

Prints one table and a total line; ``--json FILE`` writes the figures. The exit status is 0 whatever the figures
(this is a measurement) and 1 when the harness itself fails (no manifest, a crawl that cannot run).
Run ``python -m lab.replay.evaluation``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from journals.extraction import LearnedRules, extract_journal
from journals.items import FetchedPage
from journals.pages.decoding import decode_html
from journals.replay.pages import SavedPage, load_saved_pages, resolve_corpus
from journals.replay.proxy import HTML_TYPE, ReplayServer
from lab.replay.scoring import JournalScore, ListScore, score_journal, score_list

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CRAWL_TIMEOUT = 120
"""Seconds a crawl of one list page may run before ``CLOSESPIDER_TIMEOUT`` closes it."""
SUBPROCESS_GRACE = 120
"""Seconds past the crawl's own timeout before the harness gives up on it (then it is a harness error)."""
PROXY_VARIABLES_DROPPED = ("DATABASE_URL", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy")
"""Environment the crawl must not inherit: the database is the run's own, every host goes through the proxy."""
FINISH_REASON = re.compile(r"'finish_reason': '([^']+)'")


class HarnessError(Exception):
    """The measurement itself failed (not the crawl's or the extraction's figures)."""


@dataclass(frozen=True)
class ListResult:
    """One list page's crawl."""

    name: str
    url: str
    score: ListScore
    seconds: float
    finish_reason: str


@dataclass(frozen=True)
class JournalResult:
    """One journal page's extraction."""

    name: str
    url: str | None
    score: JournalScore


def crawl_environment(proxy_url: str, database_url: str) -> dict[str, str]:
    """The crawl's environment: ours, with both proxies set to the replay and the run's own database."""
    kept = {key: value for key, value in os.environ.items() if key not in PROXY_VARIABLES_DROPPED}
    return kept | {"http_proxy": proxy_url, "https_proxy": proxy_url, "DATABASE_URL": database_url}


def crawl(
    start_url: str, proxy_url: str, folder: Path, timeout: int, settings: Sequence[str] = ()
) -> tuple[list[dict[str, Any]], str]:
    """Run ``scrapy crawl publisher`` from ``start_url`` through the proxy: its items and its finish reason.

    Everything the crawl writes (database, feed, log) goes to ``folder``; ``settings`` are more ``NAME=VALUE``
    settings. ``HarnessError`` when it cannot run.
    """
    feed, log = folder / "items.jsonl", folder / "crawl.log"
    command = [
        sys.executable, "-m", "scrapy", "crawl", "publisher", "-a", f"start_url={start_url}", "-O", str(feed),
        "-s", f"CLOSESPIDER_TIMEOUT={timeout}", "-s", "HEALTH_ENABLED=False", "-s", "PROGRESS_ENABLED=False",
        "-s", f"DATABASE_UNSAVED_DIR={folder}", "-s", f"LOG_FILE={log}",
        "-s", "PUBLIC_SITE_SETTINGS={}",  # the proxy replays saved pages: no site is asked, no delay is owed
        *(argument for setting in settings for argument in ("-s", setting)),
    ]  # fmt: skip
    environment = crawl_environment(proxy_url, f"sqlite:///{folder / 'journals.db'}")
    try:
        result = subprocess.run(
            command, cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True,
            timeout=timeout + SUBPROCESS_GRACE, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise HarnessError(f"the crawl of {start_url} ran past {timeout + SUBPROCESS_GRACE} s") from error
    log_text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    if result.returncode != 0:
        tail = (result.stderr + log_text)[-2000:]
        raise HarnessError(f"the crawl of {start_url} exited with status {result.returncode}:\n{tail}")
    lines = feed.read_text(encoding="utf-8").splitlines() if feed.exists() else []
    reason = FINISH_REASON.search(log_text)
    return [json.loads(line) for line in lines if line.strip()], reason[1] if reason else "unknown"


def evaluate_list(page: SavedPage, server: ReplayServer, timeout: int, settings: Sequence[str] = ()) -> ListResult:
    """Crawl from a list page through the running proxy (with more ``settings``) and score what it requested
    and yielded."""
    if not page.url:
        raise HarnessError(f"list page {page.name} has no URL to start a crawl from")
    before = len(server.requested)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="journals-eval-real-") as folder:
        items, reason = crawl(page.url, server.proxy_url, Path(folder), timeout, settings)
    seconds = time.monotonic() - started
    requested = server.requested[before:]
    score = score_list(page.expected_links(), requested, [str(item.get("url", "")) for item in items])
    return ListResult(page.name, page.url, score, round(seconds, 1), reason)


def evaluate_journal(page: SavedPage) -> JournalResult:
    """Extract a journal page as the crawl would (decoded as the proxy serves it, role ``home``, no learned
    rules) and score each expected attribute."""
    html, _ = decode_html(page.path.read_bytes(), HTML_TYPE)
    url = page.url or page.path.resolve().as_uri()
    extraction = extract_journal([FetchedPage(url=url, html=html, role="home")], LearnedRules())
    found = {name: value.value for name, value in extraction.values.items()}
    return JournalResult(page.name, page.url, score_journal(page.expected, found))


def _ratio(numerator: int, denominator: int) -> str:
    return f"{numerator}/{denominator} {numerator / denominator:.3f}" if denominator else f"{numerator}/0 -"


def table(lists: list[ListResult], journals: list[JournalResult]) -> list[str]:
    """The printed table: one row per page, then the total line."""
    header = (
        f"{'page':<48}{'kind':<9}{'recall':>18}{'precision':>18}{'items':>7}{'requests':>10}"
        f"{'right':>7}{'wrong':>7}{'missing':>9}{'shown':>7}"
    )
    rows = [header]
    for result in lists:
        s = result.score
        timed_out = " (timed out)" if result.finish_reason == "closespider_timeout" else ""
        rows.append(
            f"{result.name:<48}{'list':<9}{_ratio(s.reached, s.expected):>18}"
            f"{_ratio(s.items_expected, s.items):>18}{s.items:>7}{s.requests:>10}{timed_out}"
        )
    for result in journals:
        s = result.score
        rows.append(
            f"{result.name:<48}{'journal':<9}{'':>18}{'':>18}{'':>7}{'':>10}"
            f"{s.right:>7}{s.wrong:>7}{s.missing:>9}{s.shown:>7}"
        )
    reached, expected = sum(r.score.reached for r in lists), sum(r.score.expected for r in lists)
    good, items = sum(r.score.items_expected for r in lists), sum(r.score.items for r in lists)
    requests = sum(r.score.requests for r in lists)
    right, wrong = sum(r.score.right for r in journals), sum(r.score.wrong for r in journals)
    missing, shown = sum(r.score.missing for r in journals), sum(r.score.shown for r in journals)
    rows.append(
        f"{'total':<48}{'':<9}{_ratio(reached, expected):>18}{_ratio(good, items):>18}{items:>7}{requests:>10}"
        f"{right:>7}{wrong:>7}{missing:>9}{shown:>7}"
    )
    return rows


def figures(lists: list[ListResult], journals: list[JournalResult], manifests: list[Path]) -> dict[str, Any]:
    """Everything measured, as JSON-ready data."""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "manifests": [str(manifest) for manifest in manifests],
        "lists": [
            asdict(r) | {"recall": r.score.recall, "precision": r.score.precision} for r in lists
        ],
        "journals": [
            {"name": r.name, "url": r.url, "right": r.score.right, "wrong": r.score.wrong,
             "missing": r.score.missing, "shown": r.score.shown, "verdicts": r.score.verdicts,
             "found": {k: v if isinstance(v, str | int | float | None) else str(v) for k, v in r.score.found.items()}}
            for r in journals
        ],
    }  # fmt: skip


def run(args: argparse.Namespace) -> tuple[list[ListResult], list[JournalResult], list[Path]]:
    """Serve the saved pages, crawl the list pages, extract the journal pages."""
    manifests = resolve_corpus(args.data)
    pages = [page for page in load_saved_pages(args.data) if not args.only or page.name in args.only]
    if args.only and len(pages) != len(set(args.only)):
        raise HarnessError(f"no saved page named {sorted(set(args.only) - {p.name for p in pages})}")
    server = ReplayServer.for_saved_pages(pages)
    server.start_in_thread()
    try:
        lists = [evaluate_list(page, server, args.crawl_timeout) for page in pages if page.kind == "list"]
    finally:
        server.stop()
    journals = [evaluate_journal(page) for page in pages if page.kind == "journal"]
    return lists, journals, manifests


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, write ``--json``; 0 unless the harness failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", metavar="DIRS_OR_MANIFESTS", help="the saved pages, several joined by ':' (default: real and real-2)"
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON to FILE")
    parser.add_argument("--crawl-timeout", type=int, default=DEFAULT_CRAWL_TIMEOUT, help="seconds per list crawl")
    parser.add_argument("--only", metavar="NAME", action="append", help="only this page (file stem); repeatable")
    args = parser.parse_args(argv)
    try:
        lists, journals, manifests = run(args)
    except (HarnessError, OSError, ValueError, KeyError) as error:
        print(f"eval-real: {error}", file=sys.stderr)
        return 1
    print(f"Real pages replayed under their URLs ({', '.join(str(m.parent) for m in manifests)}):")
    print("\n".join(table(lists, journals)))
    if args.json:
        data = figures(lists, journals, manifests)
        Path(args.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
