"""The kill and outage scenarios of issue 8, each against a real crawl process and a real database.

Each scenario returns a :class:`Outcome`: its figures and the problems found (none when it holds). The final
database of every scenario is compared with :attr:`Workspace.baseline`, an uninterrupted crawl of the same
sandbox: same journals, same titles, same attribute values, no journal twice.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lab.reliability.harness import (
    Crawl,
    CrawlResult,
    Row,
    count_rows,
    duplicated_journals,
    integrity_check,
    journal_keys,
    snapshot,
    sqlite_uri,
    wait_until,
)

SQLITE_OUTAGE_SETTINGS = ("DATABASE_BATCH_SIZE=5", "DATABASE_RETRY_DELAY=0.5")
"""Small batches, so that the outage meets a write; SQLite waits 1 s per attempt (``?timeout=1``)."""
SQLITE_LOCK_SETTINGS = (*SQLITE_OUTAGE_SETTINGS, "HTTPCACHE_ENABLED=False")
"""The page cache off: its writes run on the reactor thread, so each waits the 1 s of a locked file and the crawl
crawls too slowly to send the store a batch while the lock lasts."""


@dataclass
class Outcome:
    """What one scenario measured, and what did not hold."""

    name: str
    figures: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def held(self) -> bool:
        """Whether the scenario lost nothing and ended as it should."""
        return not self.problems

    def markdown(self, seconds: float) -> str:
        """The scenario as a Markdown section: verdict, wall time (``seconds``), figures, problems."""
        verdict = "skipped" if "skipped" in self.figures else ("held" if self.held else "FAILED")
        lines = [f"### {self.name}: {verdict} ({seconds:.0f} s)", ""]
        lines += [f"- {name}: {_shown(value)}" for name, value in self.figures.items()]
        lines += [f"- **problem**: {problem}" for problem in self.problems]
        return "\n".join(lines) + "\n"


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


@dataclass
class Workspace:
    """A sandbox's start URLs, a scratch directory, and the database of an uninterrupted crawl of them."""

    start_urls: str
    folder: Path
    baseline: list[Row] = field(default_factory=list)
    pages: int = 0
    """Pages the uninterrupted crawl cached: the yardstick of kill points."""

    def crawl(self, name: str, database_url: str | None = None, *settings: str, jobdir: bool = True) -> Crawl:
        """A crawl of the workspace's sites into ``database_url`` (default: ``NAME.db`` here), logging to a file."""
        url = database_url or f"sqlite:///{self.folder / name}.db"
        job = self.folder / f"{name}.job" if jobdir else None
        settings = (*settings, f"DATABASE_UNSAVED_DIR={self.folder / name}.unsaved")
        return Crawl(self.start_urls, url, self.folder / f"{name}.log", job, settings)

    def run_baseline(self) -> CrawlResult:
        """Crawl once without interruption; keep its rows and page count."""
        crawl = self.crawl("baseline", jobdir=False)
        result = crawl.run()
        if result.finish_reason != "finished":
            raise RuntimeError(f"the baseline crawl did not finish:\n{result.log[-3000:]}")
        self.baseline = snapshot(crawl.database_url)
        self.pages = count_rows(crawl.database_url, "cached_pages")
        return result

    def compare(self, outcome: Outcome, database_url: str) -> None:
        """Add the journals lost, extra and duplicated, and any value differing from the baseline."""
        rows = snapshot(database_url)
        expected, found = journal_keys(self.baseline), journal_keys(rows)
        outcome.figures["journals_expected"] = len(expected)
        outcome.figures["journals_stored"] = len(found)
        outcome.figures["journals_lost"] = len(expected - found)
        outcome.figures["journals_duplicated"] = duplicated_journals(database_url)
        if expected - found:
            outcome.problems.append(f"{len(expected - found)} journals lost, e.g. {sorted(expected - found)[:3]}")
        if found - expected:
            outcome.problems.append(f"{len(found - expected)} journals not in the baseline")
        if outcome.figures["journals_duplicated"]:
            outcome.problems.append(f"{outcome.figures['journals_duplicated']} journals stored twice")
        if not outcome.problems and rows != self.baseline:
            differing = sorted(set(rows) ^ set(self.baseline))
            outcome.problems.append(f"{len(differing)} rows differ from the baseline, e.g. {differing[:3]}")


def kill_points(seed: int, count: int, low: float = 0.1, high: float = 0.9) -> list[float]:
    """``count`` random moments of a crawl, as shares of its pages fetched (between ``low`` and ``high``)."""
    rng = random.Random(seed)
    return sorted(round(rng.uniform(low, high), 2) for _ in range(count))


def kill_and_resume(workspace: Workspace, name: str, points: list[float], seen_on_disk: bool = False) -> Outcome:
    """``kill -9`` the crawl when it has fetched each share of ``points`` of the pages, then resume it with the
    same ``JOBDIR`` until it finishes; its database must equal the baseline.

    With ``seen_on_disk``, each kill also waits for Scrapy's duplicate filter to have reached the disk (the
    case a plain ``JOBDIR`` resume gets wrong): when that happens depends on a write buffer, not on the pages.
    """
    outcome = Outcome(f"kill -9 at {', '.join(f'{p:.0%}' for p in points)} of the pages, resume")
    crawl = workspace.crawl(name, None, "DATABASE_BATCH_SIZE=20")
    assert crawl.jobdir is not None
    seen = crawl.jobdir / "requests.seen"
    stored_at_kills, seen_bytes = [], []
    for point in points:
        process = crawl.start()
        target = max(1, int(point * workspace.pages))

        def killable(n: int = target) -> bool:
            fetched = count_rows(crawl.database_url, "cached_pages") >= n
            return fetched and (not seen_on_disk or (seen.exists() and seen.stat().st_size > 0))

        wait_until(killable, f"{target} pages" + (" and requests.seen on disk" if seen_on_disk else ""), process)
        process.kill()
        process.wait()
        stored_at_kills.append(count_rows(crawl.database_url, "journals"))
        seen_bytes.append(seen.stat().st_size if seen.exists() else 0)
    result = crawl.run()
    outcome.figures["journals_stored_at_kills"] = stored_at_kills
    # Non-zero: Scrapy's duplicate filter had reached the disk, so a plain JOBDIR resume would filter out the
    # start page and lose every journal not stored (the file is written through a 4 kB buffer).
    outcome.figures["requests_seen_bytes_at_kills"] = seen_bytes
    outcome.figures["resume_finish_reason"] = result.finish_reason
    outcome.figures["resume_skipped_stored"] = result.stats.get("resume/skipped_requests", 0)
    # Requests carry their listing page in cb_kwargs: JOBDIR must pickle them all to disk, none kept in memory.
    outcome.figures["resume_requests_on_disk"] = result.stats.get("scheduler/enqueued/disk", 0)
    outcome.figures["resume_requests_in_memory"] = result.stats.get("scheduler/enqueued/memory", 0)
    if result.finish_reason != "finished":
        outcome.problems.append(f"the resume ended with {result.finish_reason}")
    workspace.compare(outcome, crawl.database_url)
    return outcome


def hold_sqlite_lock(path: Path, seconds: float) -> subprocess.Popen:
    """Another process taking an exclusive lock on an SQLite database for ``seconds``; returns once it holds it."""
    code = (
        "import sqlite3, sys, time\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "time.sleep(float(sys.argv[2]))\n"
        "conn.execute('COMMIT')\n"
    )
    locker = subprocess.Popen([sys.executable, "-c", code, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert locker.stdout is not None
    if locker.stdout.readline().strip() != "locked":
        raise RuntimeError("could not lock the SQLite database")
    return locker


def sqlite_locked(workspace: Workspace, name: str, seconds: float, write_attempts: int) -> Outcome:
    """Lock the crawl's SQLite file from another process for ``seconds`` once the first batch is stored.

    Within the store's retry limit the crawl must finish with every journal; past it, stop with reason
    ``database_error`` saying so, and a resume with the same ``JOBDIR`` must complete the database.
    """
    outcome = Outcome(f"SQLite file locked by another process for {seconds:.0f} s ({write_attempts} attempts)")
    path = workspace.folder / f"{name}.db"
    crawl = workspace.crawl(
        name, f"sqlite:///{path}?timeout=1", *SQLITE_LOCK_SETTINGS, f"DATABASE_WRITE_ATTEMPTS={write_attempts}"
    )
    offset = crawl.log_path.stat().st_size if crawl.log_path.exists() else 0
    process = crawl.start()
    wait_until(lambda: count_rows(crawl.database_url, "journals") > 0, "a first batch stored", process)
    locker = hold_sqlite_lock(path, seconds)
    process.wait()
    locker.wait()
    first = CrawlResult.read(process.returncode, crawl.log_path, offset)
    _outage_figures(outcome, first)
    if first.finish_reason == "database_error":
        _check_clean_stop(outcome, first, crawl)
        resumed = crawl.run()
        outcome.figures["resume_finish_reason"] = resumed.finish_reason
        if resumed.finish_reason != "finished":
            outcome.problems.append(f"the resume ended with {resumed.finish_reason}")
    elif first.finish_reason != "finished":
        outcome.problems.append(f"the crawl ended with {first.finish_reason}")
    workspace.compare(outcome, crawl.database_url)
    return outcome


def postgres_stopped(
    workspace: Workspace, database_url: str, stop: Callable[[], None], start: Callable[[], None], seconds: float
) -> Outcome:
    """Stop the PostgreSQL server for ``seconds`` once the first batch is stored; the crawl must wait, retry and
    finish with every journal."""
    outcome = Outcome(f"PostgreSQL stopped for {seconds:.0f} s mid-crawl")
    crawl = workspace.crawl("postgres", database_url, "DATABASE_BATCH_SIZE=10")
    process = crawl.start()
    wait_until(lambda: count_rows(database_url, "journals") > 0, "a first batch stored", process)
    stop()
    time.sleep(seconds)
    start()
    process.wait()
    result = CrawlResult.read(process.returncode, crawl.log_path)
    _outage_figures(outcome, result)
    if result.finish_reason != "finished":
        outcome.problems.append(f"the crawl ended with {result.finish_reason}")
    workspace.compare(outcome, database_url)
    return outcome


def disk_full(workspace: Workspace, folder: Path, size_kb: int) -> Outcome:
    """The database on a filesystem of ``size_kb`` that fills mid-crawl: a clear error, a sound database, and
    after the filesystem grows, a resume with the same ``JOBDIR`` completes it.

    ``folder`` must be an empty directory; a tmpfs is mounted on it (root only) and unmounted at the end.
    """
    outcome = Outcome(f"disk full ({size_kb} kB filesystem), then grown and resumed")
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)], check=True)
    try:
        path = folder / "full.db"
        # A full disk does not empty itself: two attempts, then stop.
        crawl = workspace.crawl(
            "full", f"sqlite:///{path}?timeout=1", *SQLITE_OUTAGE_SETTINGS, "DATABASE_WRITE_ATTEMPTS=2"
        )
        first = crawl.run()
        _outage_figures(outcome, first)
        outcome.figures["integrity_check_when_full"] = integrity_check(path)
        if outcome.figures["integrity_check_when_full"] != "ok":
            outcome.problems.append(f"integrity check: {outcome.figures['integrity_check_when_full']}")
        if "database or disk is full" not in first.log:
            outcome.problems.append("the log does not say the disk is full")
        if first.finish_reason == "database_error":
            _check_clean_stop(outcome, first, crawl)
        subprocess.run(["mount", "-o", "remount,size=64m", str(folder)], check=True)
        resumed = crawl.run()
        outcome.figures["resume_finish_reason"] = resumed.finish_reason
        workspace.compare(outcome, crawl.database_url)
        outcome.figures["integrity_check_after_resume"] = integrity_check(path)
        read_only = read_only_database(workspace, folder, path)
        outcome.figures.update(read_only.figures)
        outcome.problems += read_only.problems
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)  # lazy: a file still open cannot keep it
    return outcome


def read_only_database(workspace: Workspace, folder: Path, path: Path) -> Outcome:
    """The database (rows and page cache) on a filesystem remounted read-only: a one-line error, no traceback,
    and the database unchanged and sound."""
    outcome = Outcome("read-only database and page cache")
    before = snapshot(f"sqlite:///{path}")
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    result = workspace.crawl("readonly", f"sqlite:///{path}", jobdir=False).run()
    errors = [line for line in result.log.splitlines() if "error" in line.lower()]
    outcome.figures["read_only_exit_code"] = result.returncode
    outcome.figures["read_only_error"] = errors[0] if errors else None
    outcome.figures["integrity_check_read_only"] = integrity_check(path, read_only=True)
    if result.returncode == 0 or "Traceback" in result.log or not errors:
        outcome.problems.append(f"no clear error on a read-only database:\n{result.log[-2000:]}")
    if snapshot(f"sqlite:///{sqlite_uri(path, read_only=True)}&uri=true") != before:
        outcome.problems.append("the read-only database changed")
    return outcome


def _outage_figures(outcome: Outcome, result: CrawlResult) -> None:
    """The store's and the cache's counts of an outage."""
    outcome.figures["finish_reason"] = result.finish_reason
    for stat in ("store/write_retries", "store/unsaved_items", "httpcache/store_error", "httpcache/retrieve_error"):
        outcome.figures[stat] = result.stats.get(stat, 0)


def _check_clean_stop(outcome: Outcome, result: CrawlResult, crawl: Crawl) -> None:
    """A crawl stopped by the database says why, saves what it could not store, and does not crash."""
    if "reason database_error" not in result.log:
        outcome.problems.append("the stop does not say why")
    if "Traceback" in result.log:
        outcome.problems.append("a traceback in the log")
    unsaved_dir = Path(next(s for s in crawl.settings if s.startswith("DATABASE_UNSAVED_DIR=")).split("=", 1)[1])
    saved = sum(len(p.read_text().splitlines()) for p in unsaved_dir.glob("unsaved-journals-*.jsonl"))
    outcome.figures["journals_saved_to_jsonl"] = saved
    if saved != result.stats.get("store/unsaved_items", 0):
        outcome.problems.append(f"{saved} journals in unsaved-journals-*.jsonl, the stats say otherwise")
