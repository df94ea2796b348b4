"""Resuming a crawl with ``JOBDIR`` after a crash (``kill -9``), a database outage or a pause, losing nothing.

Scrapy's ``JOBDIR`` keeps the scheduler's queue and the duplicate filter, which is enough after a clean pause
but not after a crash, for three reasons:

- the queue's bookkeeping (``requests.queue/active.json`` and each queue's ``info.json``) is written only when
  the crawl closes: after ``kill -9`` the resumed queue is empty, while ``requests.seen`` (written as the crawl
  went) filters out every request already made, the start page included, so the resume ends at once;
- requests being downloaded or parsed when the crawl stops are in ``requests.seen`` but in no queue;
- items are stored in batches (:class:`journals.pipelines.store.SQLStorePipeline`): the journals of a batch not
  yet written die with the process, or are left in ``unsaved-journals-*.jsonl`` when the database stopped the
  crawl, although their pages count as crawled.

:class:`ResumeMiddleware` therefore makes the database, not the job directory, the record of what is done. It
writes ``JOBDIR/journals-job.json`` as the crawl opens (``finish_reason`` null) and again as it closes. When the
crawl starts on a job whose last run did not finish (killed, stopped by the database, paused), it *repairs*:
it empties the job's queue and duplicate filter before the scheduler reads them, so that the crawl walks every
start, letter and listing page again (from the page cache, when it is on), and it drops each request for a
journal page already stored by this job (``journals.crawled_at`` at or after the job's first start). Every
journal not stored is therefore requested again, and a stored one is not; a journal whose URL redirects is
requested again and stored again in place (the store upserts), never twice. Skipping is only a saving: when the
stored journals cannot be read, nothing is skipped and the repair still loses nothing.

A job that finished is left as Scrapy leaves it. Without ``JOBDIR`` the middleware is off.

Stats: ``resume/repairs`` (1 when this run repaired its job), ``resume/stored_journals`` (journals the job had
stored before this run), ``resume/skipped_requests``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from scrapy import Request, signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread
from scrapy.utils.job import job_dir
from sqlalchemy.exc import SQLAlchemyError

from journals.extensions.database import crawl_database
from journals.store import DatabaseError
from journals.store.crawl_history import journal_urls_stored_since
from journals.store.models import utcnow

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

JOB_STATE_FILE = "journals-job.json"
"""The job's own record in ``JOBDIR``: when it first started and how its last run ended."""
SCRAPY_JOB_FILES = ("requests.seen", "requests.queue")
"""What Scrapy keeps in ``JOBDIR`` for the scheduler: the duplicate filter and the request queue."""


def read_job_state(jobdir: Path) -> dict[str, Any] | None:
    """The job's state (``started_at``, ``finish_reason``), or None when the job has none (new, or older)."""
    try:
        state = json.loads((jobdir / JOB_STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def write_job_state(jobdir: Path, state: dict[str, Any]) -> None:
    """Replace the job's state atomically: a crash while writing leaves the old state, never half a file."""
    jobdir.mkdir(parents=True, exist_ok=True)
    temporary = jobdir / f"{JOB_STATE_FILE}.tmp"
    temporary.write_text(json.dumps(state), encoding="utf-8")
    os.replace(temporary, jobdir / JOB_STATE_FILE)


def needs_repair(state: dict[str, Any] | None) -> bool:
    """Whether a job's last run ended without finishing (killed, paused, or stopped by an error)."""
    return state is not None and state.get("finish_reason") != "finished"


class ResumeMiddleware:
    """Spider middleware making a ``JOBDIR`` resume lose nothing after a crash (see the module docstring).

    Scrapy builds spider middlewares before the scheduler, so the job's queue and duplicate filter can still be
    emptied here when the job needs a repair.
    """

    def __init__(self, crawler: Crawler, jobdir: Path) -> None:
        """Read the job's state, empty its queue and duplicate filter if it needs a repair, mark it running."""
        self.crawler = crawler
        self.jobdir = jobdir
        previous = read_job_state(jobdir)
        self.repairing = needs_repair(previous)
        self.started_at: str = previous["started_at"] if previous and self.repairing else utcnow().isoformat()
        self.stored_urls: frozenset[str] = frozenset()
        if self.repairing:
            assert previous is not None
            logger.warning(
                "The last run of job %s did not finish (%s): walking the listings again, skipping journals stored",
                jobdir,
                previous.get("finish_reason") or "killed",
            )
            for name in SCRAPY_JOB_FILES:
                path = jobdir / name
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
        write_job_state(jobdir, {"started_at": self.started_at, "finish_reason": None})
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """On only when the crawl has a ``JOBDIR``; off in silence otherwise (a ``NotConfigured`` with a message
        would warn "Disabled …" on every crawl without one, the usual case)."""
        jobdir = job_dir(crawler.settings)
        if not jobdir:
            raise NotConfigured
        return cls(crawler, Path(jobdir))

    async def spider_opened(self) -> None:
        """When repairing, read which journals the job has stored already."""
        if not self.repairing:
            return
        self.crawler.stats.set_value("resume/repairs", 1)
        try:
            engine = crawl_database(self.crawler).engine
            since = datetime.fromisoformat(self.started_at)
            self.stored_urls = await run_in_thread(journal_urls_stored_since, engine, since)
        except (DatabaseError, SQLAlchemyError) as exc:
            logger.warning("Cannot read the journals stored by this job, requesting them all again: %s", exc)
        self.crawler.stats.set_value("resume/stored_journals", len(self.stored_urls))

    def spider_closed(self, reason: str) -> None:
        """Record how the run ended: only ``finished`` closes the job."""
        write_job_state(self.jobdir, {"started_at": self.started_at, "finish_reason": reason})

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Pass everything through, except requests for journal pages the job has stored already."""
        async for entry in result:
            if self.stored_urls and isinstance(entry, Request) and entry.url in self.stored_urls:
                self.crawler.stats.inc_value("resume/skipped_requests")
                continue
            yield entry
