"""``scrapy schedule``: run each crawl plan on its own interval through scrapyd's ``schedule.json``.

scrapyd has no scheduler of its own; this small long-running command is one. Every ``SCHEDULE_POLL_SECS`` (or
sooner, when a plan falls due) it asks each scrapyd which jobs still run, schedules the due plans that do not,
and records when it did in ``SCHEDULE_STATE_FILE``. Each run of a plan is one job per scrapyd in
``SCRAPYD_URLS``, all with one ``CRAWL_ID``: with ``settings.distributed`` they are the workers of one crawl.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import pkgutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.scheduling import (
    CrawlPlan,
    crawl_id,
    crawl_plans,
    due_plans,
    dump_last_runs,
    job_id,
    load_last_runs,
    next_due,
    running_plans,
)
from journals.scrapyd_api import Scrapyd, ScrapydError

logger = logging.getLogger(__name__)


class Command(ScrapyCommand):
    """Schedule the crawl plans of ``CRAWL_SCHEDULE`` (default: ``settings/schedule.json``) through scrapyd."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "INFO"}

    def syntax(self) -> str:
        """Usage line."""
        return "[--once] [--state FILE]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Run each crawl plan on its interval through scrapyd (long-running)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--once`` and ``--state``."""
        super().add_options(parser)
        parser.add_argument("--once", action="store_true", help="schedule what is due now, then exit")
        parser.add_argument("--state", metavar="FILE", help="last-run times (default: SCHEDULE_STATE_FILE)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Schedule due plans, then sleep until the next is due; stop on Ctrl-C (or after one pass)."""
        if args:
            raise UsageError("scrapy schedule takes no positional arguments")
        settings = self.settings
        try:
            plans = crawl_plans(schedule_data(settings.get("CRAWL_SCHEDULE")))
        except ValueError as error:
            raise UsageError(f"bad CRAWL_SCHEDULE: {error}") from error
        servers = scrapyd_servers(settings)
        state = Path(opts.state or settings.get("SCHEDULE_STATE_FILE"))
        job_settings = {str(k): str(v) for k, v in settings.getdict("SCHEDULE_JOB_SETTINGS").items()}
        poll_secs = settings.getfloat("SCHEDULE_POLL_SECS")
        logger.info("Scheduling %d crawl plans on %s", len(plans), ", ".join(s.url for s in servers))
        try:
            while True:
                last_runs = load_last_runs(state.read_text(encoding="utf-8")) if state.exists() else {}
                now = datetime.now(UTC)
                scheduled = schedule_due(plans, last_runs, now, servers, job_settings)
                if scheduled:
                    last_runs.update(dict.fromkeys(scheduled, now))
                    state.write_text(dump_last_runs(last_runs), encoding="utf-8")
                if opts.once:
                    return
                wake = next_due(plans, last_runs, datetime.now(UTC))
                wait = poll_secs if wake is None else (wake - datetime.now(UTC)).total_seconds()
                time.sleep(min(poll_secs, max(1.0, wait)))
        except KeyboardInterrupt:
            logger.info("Scheduler stopped")


def schedule_data(setting: Any) -> dict[str, Any]:
    """The ``CRAWL_SCHEDULE`` setting (a dict, or its JSON text), else ``settings/schedule.json``."""
    if isinstance(setting, str) and setting.strip():
        return json.loads(setting)
    if setting:
        return dict(setting)
    raw = pkgutil.get_data("settings", "schedule.json")
    assert raw is not None
    return json.loads(raw)


def scrapyd_servers(settings: Any) -> list[Scrapyd]:
    """The scrapyd servers to schedule on: ``SCRAPYD_URLS`` (environment, comma-separated, wins over the
    setting), the ``SCRAPYD_PROJECT`` on them, and ``SCRAPYD_USERNAME``/``SCRAPYD_PASSWORD`` from the environment."""
    urls = os.environ.get("SCRAPYD_URLS") or settings.get("SCRAPYD_URLS")
    if isinstance(urls, str):
        urls = [url.strip() for url in urls.split(",") if url.strip()]
    username, password = os.environ.get("SCRAPYD_USERNAME", ""), os.environ.get("SCRAPYD_PASSWORD", "")
    if not (username and password):
        raise UsageError("set SCRAPYD_USERNAME and SCRAPYD_PASSWORD: scrapyd runs only with HTTP Basic auth")
    project = settings.get("SCRAPYD_PROJECT")
    return [Scrapyd(url=url, project=project, username=username, password=password) for url in urls]


def schedule_due(
    plans: list[CrawlPlan],
    last_runs: dict[str, datetime],
    now: datetime,
    servers: list[Scrapyd],
    job_settings: dict[str, str],
) -> list[str]:
    """Schedule every due plan whose jobs no longer run, one job per server; the names of the plans scheduled.

    A server that cannot be reached is logged and skipped: the plan is scheduled where it can be, and is due
    again on the next pass if it could be scheduled nowhere.
    """
    active: set[str] = set()
    for server in servers:
        try:
            active |= server.active_job_ids()
        except ScrapydError as error:
            logger.error("Cannot list jobs: %s", error)
    scheduled = []
    for plan in due_plans(plans, last_runs, now, running_plans(active)):
        crawl = crawl_id(plan, now)
        settings = {**job_settings, **plan.settings, "CRAWL_ID": crawl}
        accepted = 0
        for number, server in enumerate(servers, 1):
            try:
                server.schedule(plan.spider, job_id(crawl, number), settings, plan.args)
                accepted += 1
            except ScrapydError as error:
                logger.error("Cannot schedule %s: %s", plan.name, error)
        if accepted:
            logger.info("Scheduled %s as crawl %s (%d jobs)", plan.name, crawl, accepted)
            scheduled.append(plan.name)
    return scheduled
