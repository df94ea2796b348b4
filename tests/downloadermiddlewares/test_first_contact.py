"""A host that is not there fails in seconds (:mod:`journals.downloadermiddlewares.first_contact`): crawls of small
local sites (:mod:`lab.reliability.rules`) whose start host refuses connections, drops them or does not resolve,
whose robots.txt never answers, or whose every answer comes late."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.reliability.rules import DEAD_START, rules_crawl

ROBOTS_SETTINGS = ("DOWNLOAD_TIMEOUT=2", "RETRY_TIMES=1")
"""A robots.txt that never answers is given up after 2 s (and, before the host was watched, after a second try)."""


def test_a_robots_txt_that_never_answers_is_asked_once(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "robots-stall", ROBOTS_SETTINGS)
    assert len(run.server.answers("/robots.txt")) == 1  # the host never answered: its timeout is not retried
    assert run.result.stats.get("first_contact/silent_hosts") == 1
    assert run.result.returncode == 3


@pytest.mark.parametrize("rule", DEAD_START)
def test_a_dead_start_host_fails_the_crawl_at_once_without_retries(tmp_path: Path, rule: str) -> None:
    run = rules_crawl(tmp_path, rule)
    assert run.result.returncode == 3, run.result.log[-2000:]
    reasons = " ".join(run.result.stats.get("health/reasons", []))
    assert "start page" in reasons and "could not be fetched" in reasons
    stats = run.result.stats
    assert stats.get("first_contact/unreachable_hosts") == 1 and stats.get("first_contact/probes") == 1
    assert "retry/count" not in stats  # one probe settles it: robots.txt and the start page fail unretried
    assert "Gave up retrying" not in run.result.log and "Traceback" not in run.result.log


def test_a_slow_site_answering_later_than_the_probe_timeout_is_crawled_whole(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "slow", ("FIRST_CONTACT_TIMEOUT=0.5",))
    assert run.result.returncode == 0, run.result.log[-2000:]
    assert run.journals_lost == []
    assert "first_contact/unreachable_hosts" not in run.result.stats
