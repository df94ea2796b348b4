"""Running a crawl as a real process that can be killed or starved, and reading what it left in the database."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import create_engine, text

from journals.pages.scope import route_of
from lab.crawlrun import PROJECT_ROOT, stats_from_log

POLL_SECONDS = 0.2
WAIT_SECONDS = 600.0
"""How long a scenario waits for a crawl to reach a point or to end: generous, machines are shared."""


@dataclass
class Crawl:
    """One ``scrapy crawl publisher`` into a database, optionally with a ``JOBDIR``; its log goes to a file."""

    start_urls: str
    database_url: str
    log_path: Path
    jobdir: Path | None = None
    settings: Sequence[str] = ()
    """Extra ``NAME=VALUE`` settings."""

    def command(self) -> list[str]:
        """The command line."""
        args = [sys.executable, "-m", "scrapy", "crawl", "publisher", "-a", f"start_urls={self.start_urls}"]
        settings = [f"DATABASE_URL={self.database_url}", "PROGRESS_ENABLED=False", *self.settings]
        if self.jobdir is not None:
            settings.append(f"JOBDIR={self.jobdir}")
        for setting in settings:
            args += ["-s", setting]
        return args

    def start(self) -> subprocess.Popen:
        """Start the crawl in its own process; its log (stderr) goes to :attr:`log_path`, appended."""
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        with self.log_path.open("a", encoding="utf-8") as log:
            return subprocess.Popen(
                self.command(),
                cwd=PROJECT_ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def run(self) -> CrawlResult:
        """Run the crawl to its end; the result holds this run's part of the log."""
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        process = self.start()
        process.wait(timeout=WAIT_SECONDS)
        return CrawlResult.read(process.returncode, self.log_path, offset)


@dataclass
class CrawlResult:
    """How one crawl process ended: exit code, its log and the stats it dumped."""

    returncode: int
    log: str
    stats: dict

    @classmethod
    def read(cls, returncode: int, log_path: Path, offset: int = 0) -> CrawlResult:
        """The result of a process whose log starts at ``offset`` of ``log_path``."""
        with log_path.open(encoding="utf-8", errors="replace") as handle:
            handle.seek(offset)
            log = handle.read()
        return cls(returncode, log, stats_from_log(log))

    @property
    def finish_reason(self) -> str | None:
        """The crawl's ``finish_reason`` stat (None when it dumped no stats)."""
        return self.stats.get("finish_reason")


def wait_until(ready: Callable[[], bool], what: str, process: subprocess.Popen | None = None) -> None:
    """Poll ``ready`` until true; ``RuntimeError`` if ``process`` ends first or :data:`WAIT_SECONDS` pass."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready():
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the crawl ended (exit {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(POLL_SECONDS)


def count_rows(database_url: str, table: str) -> int:
    """Rows in ``table`` (0 while the table does not exist or the database cannot be read)."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
    except Exception:  # a database being created, locked or down reads as empty
        return 0
    finally:
        engine.dispose()


Row = tuple[str, str, str | None, str | None, str | None]
"""(source, journal URL path, title, attribute, value)."""


def snapshot(database_url: str) -> list[Row]:
    """Every journal and attribute value, sorted, with URLs reduced to their path (sandbox ports differ)."""
    query = text(
        "SELECT s.name, j.url, j.title, a.attribute, a.value FROM journals j JOIN sources s ON s.id = j.source_id"
        " LEFT JOIN attribute_values a ON a.journal_id = j.id"
    )
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(query).all()
    finally:
        engine.dispose()
    return sorted((name, url_path(url), title, attribute, value) for name, url, title, attribute, value in rows)


def journal_keys(rows: list[Row]) -> set[tuple[str, str]]:
    """The (source, URL path) of every journal in a snapshot."""
    return {(row[0], row[1]) for row in rows}


def duplicated_journals(database_url: str) -> int:
    """Journal rows beyond one per (source, URL): 0 unless the store's uniqueness broke."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(
                    text("SELECT count(*) - count(DISTINCT source_id || ' ' || url) FROM journals")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def integrity_check(path: Path, read_only: bool = False) -> str:
    """SQLite's ``PRAGMA integrity_check`` of a database file: ``ok`` when it is sound.

    ``read_only``: the file is on a read-only filesystem, where SQLite can open a WAL database only as immutable
    (right when no crawl has it open and its WAL is checkpointed, as after a clean close).
    """
    with closing(sqlite3.connect(sqlite_uri(path, read_only), uri=True)) as conn:
        return ", ".join(row[0] for row in conn.execute("PRAGMA integrity_check"))


def sqlite_uri(path: Path, read_only: bool = False) -> str:
    """An SQLite URI of a database file; ``read_only`` opens it immutable (see :func:`integrity_check`)."""
    return f"file:{path}?immutable=1" if read_only else f"file:{path}"


def url_path(url: str) -> str:
    """A URL without scheme and host: path, query and a script's route (``#!/journal/acta``: a hash router's
    journals share one path), the same on every sandbox port."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "") + route_of(url)
