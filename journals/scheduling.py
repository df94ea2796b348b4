"""Recurring crawls, as plain data: which crawl plans are due now, given when each last ran.

No Scrapy, no HTTP: ``scrapy schedule`` (:mod:`journals.commands.schedule`) reads the plans from the settings,
asks scrapyd which jobs still run, and calls these functions.

A plan is one entry of ``CRAWL_SCHEDULE`` (or ``settings/schedule.json``)::

    "elsevier": {"every": "7d"}
    "elsevier-sandbox": {"spider": "elsevier", "every": "12h", "args": {"start_url": "http://127.0.0.1:8000/elsevier/"}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

_INTERVAL = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([wdhms])\s*")
_JOB_ID = re.compile(r"(.+)-\d{8}T\d{4}Z-\d+")
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


@dataclass(frozen=True)
class CrawlPlan:
    """One recurring crawl: a spider, how often, with which arguments and settings."""

    name: str
    """The plan's key in the schedule; also the prefix of its scrapyd job ids."""
    spider: str
    """The spider scrapyd runs (the plan's name unless given)."""
    every: timedelta
    """How long after the last run the next one is due."""
    args: dict[str, str] = field(default_factory=dict)
    """Spider arguments (``-a``), e.g. ``start_url``."""
    settings: dict[str, str] = field(default_factory=dict)
    """Settings for this plan's jobs (``-s``), on top of the scheduler's ``SCHEDULE_JOB_SETTINGS``."""


def parse_interval(text: str) -> timedelta:
    """``"7d"``, ``"12h"``, ``"1w 2d"``, ``"90m"``, ``"30s"`` as a positive :class:`timedelta`."""
    parts = _INTERVAL.findall(text)
    if not parts or _INTERVAL.sub("", text):
        raise ValueError(f"not an interval: {text!r} (expected e.g. '7d', '12h', '1w 2d', '30m')")
    interval = timedelta()
    for amount, unit in parts:
        interval += timedelta(**{_UNITS[unit]: float(amount)})
    if interval <= timedelta(0):
        raise ValueError(f"the interval must be positive: {text!r}")
    return interval


def crawl_plans(schedule: Mapping[str, Mapping[str, Any]]) -> list[CrawlPlan]:
    """The plans of a schedule mapping (keys starting with ``_`` are comments), sorted by name."""
    plans = []
    for name, entry in sorted(schedule.items()):
        if name.startswith("_"):
            continue
        if "every" not in entry:
            raise ValueError(f"crawl plan {name!r} has no 'every' interval")
        plans.append(
            CrawlPlan(
                name=name,
                spider=str(entry.get("spider", name)),
                every=parse_interval(str(entry["every"])),
                args={str(k): str(v) for k, v in (entry.get("args") or {}).items()},
                settings={str(k): str(v) for k, v in (entry.get("settings") or {}).items()},
            )
        )
    return plans


def due_plans(
    plans: list[CrawlPlan], last_runs: Mapping[str, datetime], now: datetime, running: Collection[str] = ()
) -> list[CrawlPlan]:
    """Plans due at ``now``: never run, or last run at least ``every`` ago; never one whose job still runs."""
    return [
        plan
        for plan in plans
        if plan.name not in running and (plan.name not in last_runs or now - last_runs[plan.name] >= plan.every)
    ]


def next_due(plans: list[CrawlPlan], last_runs: Mapping[str, datetime], now: datetime) -> datetime | None:
    """When the next plan falls due (``now`` if one already is); ``None`` without plans."""
    times = [last_runs[plan.name] + plan.every if plan.name in last_runs else now for plan in plans]
    return max(now, min(times)) if times else None


def crawl_id(plan: CrawlPlan, now: datetime) -> str:
    """The crawl's name: the plan and the UTC minute it started, e.g. ``elsevier-20261130T1200Z``.

    Every scrapyd job of one run of a plan gets it as ``CRAWL_ID``, so that distributed workers share a frontier.
    """
    return f"{plan.name}-{now.astimezone(UTC):%Y%m%dT%H%MZ}"


def job_id(crawl: str, worker: int) -> str:
    """The scrapyd job id of one worker of a crawl: ``CRAWL_ID-N``."""
    return f"{crawl}-{worker}"


def running_plans(job_ids: Collection[str]) -> set[str]:
    """Names of the plans that pending or running scrapyd jobs belong to (ids made by :func:`job_id`)."""
    return {match.group(1) for job in job_ids if (match := _JOB_ID.fullmatch(job))}


def load_last_runs(text: str) -> dict[str, datetime]:
    """The state file's contents (JSON: plan name → ISO 8601 time) as aware datetimes."""
    raw = json.loads(text) if text.strip() else {}
    return {name: datetime.fromisoformat(stamp) for name, stamp in raw.items()}


def dump_last_runs(last_runs: Mapping[str, datetime]) -> str:
    """The inverse of :func:`load_last_runs`."""
    return json.dumps({name: when.isoformat() for name, when in sorted(last_runs.items())}, indent=2) + "\n"
