"""The shared frontier's pure parts: its keys, who counts as busy, and refusing to start without a crawl name."""

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from journals.frontier import SharedFrontierScheduler, busy_workers, frontier_keys, worker_state


def test_frontier_keys_are_per_spider_and_crawl():
    assert frontier_keys("elsevier", "2026-w48") == {
        "requests": "journals:elsevier:2026-w48:requests",
        "seen": "journals:elsevier:2026-w48:seen",
        "workers": "journals:elsevier:2026-w48:workers",
        "leases": "journals:elsevier:2026-w48:leases",
        "deadlines": "journals:elsevier:2026-w48:deadlines",
    }


def test_busy_workers_are_recent_busy_beats_of_others():
    now = 1000.0
    states = {
        "a:1": worker_state(busy=True, now=now - 1),
        "b:2": worker_state(busy=False, now=now - 1),
        "c:3": worker_state(busy=True, now=now - 60),  # silent for a minute: dead
        "me:4": worker_state(busy=True, now=now),
    }
    assert busy_workers(states, now, timeout=30, exclude="me:4") == ["a:1"]
    assert busy_workers(states, now, timeout=120, exclude="me:4") == ["a:1", "c:3"]


@pytest.mark.parametrize("crawl_id", ["", "has space", "a%b", "x" * 101])
def test_the_scheduler_refuses_to_start_without_a_proper_crawl_id(crawl_id):
    crawler = get_crawler(settings_dict={"CRAWL_ID": crawl_id})
    with pytest.raises(NotConfigured, match="CRAWL_ID"):
        SharedFrontierScheduler.from_crawler(crawler)
