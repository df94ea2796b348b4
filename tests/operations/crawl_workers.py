"""Running distributed crawl workers as a user would, and reading what they stored."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

from servers import PROJECT_ROOT
from sqlalchemy import create_engine, text

from lab.crawlrun import stats_from_log


@dataclass
class WorkerRun:
    """One finished ``scrapy crawl`` worker: its exit code, its log, and the stats it dumped."""

    returncode: int
    log: str

    def stat(self, name: str) -> int:
        """An integer stat from the dump at the end of the log (0 when absent)."""
        return int(stats_from_log(self.log).get(name, 0))


def worker_command(spider: str, start_url: str, crawl_id: str, *settings: str) -> list[str]:
    """``scrapy crawl SPIDER -a start_url=... -s CRAWL_ID=...`` as a distributed worker runs it."""
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-a", f"start_url={start_url}"]
    command += ["-s", f"CRAWL_ID={crawl_id}", "-s", "LOG_LEVEL=INFO"]
    for setting in settings:
        command += ["-s", setting]
    return command


def worker_env(database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of a distributed worker: settings.distributed on this database and frontier."""
    return {
        **os.environ,
        "SCRAPY_SETTINGS_MODULE": "settings.distributed",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
    }


def start_worker(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start one worker process in the project directory; its log goes to a pipe."""
    return subprocess.Popen(
        command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish_worker(process: subprocess.Popen, timeout: float = 120) -> WorkerRun:
    """Wait for a worker and collect its log."""
    log, _ = process.communicate(timeout=timeout)
    return WorkerRun(returncode=process.returncode, log=log)


def journal_rows(database_url: str) -> list[tuple[str, str, str | None]]:
    """Every journal row as (source, url, title), sorted, duplicates kept."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT s.name, j.url, j.title FROM journals j JOIN sources s ON s.id = j.source_id "
                    "ORDER BY s.name, j.url"
                )
            ).all()
    finally:
        engine.dispose()
    return [tuple(row) for row in rows]


def attribute_rows(database_url: str) -> list[tuple[str, str, str | None]]:
    """Every attribute value as (journal url, attribute, value), sorted."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT j.url, a.attribute, a.value FROM attribute_values a JOIN journals j ON j.id = a.journal_id "
                    "ORDER BY j.url, a.attribute"
                )
            ).all()
    finally:
        engine.dispose()
    return [tuple(row) for row in rows]
