"""``scrapy jobs``: scrapyd's jobs of the project, each finished one with what its crawl came to.

scrapyd lists a job as ``finished`` whether its crawl passed the health check, failed it or never got to it: its
API knows processes, not crawls. Each crawl records its stats in ``crawl_runs`` with the job it ran as
(:data:`journals.extensions.crawl_runs.JOB_STAT`), so this command joins the two and says which finished jobs
failed (:func:`journals.crawl_health.job_verdict`). It exits 3, as a crawl that fails its health check does, when a
listed finished job failed, so a monitor can run it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.commands.schedule import scrapyd_servers
from journals.crawl_health import job_verdict
from journals.extensions.crawl_runs import JOB_STAT
from journals.scrapyd_api import ScrapydError
from journals.store import DatabaseError, database_url, open_database
from journals.store.crawl_runs import runs_by_stat

FAILED_EXIT_CODE = 3
"""The exit status when a finished job failed its health check (that of ``scrapy crawl`` in that case)."""


class Command(ScrapyCommand):
    """List the project's scrapyd jobs with their crawls' health."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return ""

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "scrapyd's jobs, each finished one with its crawl's health check"

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Ask each scrapyd in ``SCRAPYD_URLS`` for its jobs, read their crawls' records, print one line a job."""
        if args:
            raise UsageError("scrapy jobs takes no positional arguments")
        listed: list[tuple[str, dict[str, Any]]] = []
        for server in scrapyd_servers(self.settings):
            try:
                jobs = server.jobs()
            except ScrapydError as error:
                raise UsageError(f"cannot list jobs: {error}") from None
            listed += [(state, job) for state, entries in jobs.items() for job in entries]
        try:
            engine = open_database(database_url(self.settings), must_exist=True)
        except DatabaseError as error:
            raise UsageError(str(error)) from None
        try:
            runs = runs_by_stat(engine, JOB_STAT, [str(job["id"]) for state, job in listed if state == "finished"])
        finally:
            engine.dispose()
        failed = 0
        for state, job in listed:
            verdict = job_verdict(state, runs.get(str(job["id"])) if state == "finished" else None)
            failed += verdict.failed
            when = job.get("end_time") or job.get("start_time") or ""
            print(f"{job['id']}\t{job.get('spider', '')}\t{when}\t{verdict.text}")
        if not listed:
            print("no jobs")
        if failed:
            print(f"{failed} finished jobs failed their health check", file=sys.stderr)
            self.exitcode = FAILED_EXIT_CODE
