"""A scheduled job's verdict: scrapyd's state joined with its crawl's record."""

from __future__ import annotations

from journals.crawl_health import job_verdict


def test_a_job_still_queued_or_running_is_what_scrapyd_says():
    assert job_verdict("pending", None).text == "pending"
    assert job_verdict("running", {"health/failed": True}).failed is False


def test_a_finished_job_whose_crawl_failed_its_health_check_says_so_with_the_first_reason():
    verdict = job_verdict("finished", {"health/failed": True, "health/reasons": ["oxford: 0 journals", "other"]})
    assert verdict.failed
    assert verdict.text == "finished, health check failed: oxford: 0 journals"


def test_a_healthy_finished_job_counts_its_items():
    verdict = job_verdict("finished", {"health/failed": False, "item_scraped_count": 12})
    assert not verdict.failed
    assert verdict.text == "finished, healthy (12 items)"


def test_a_finished_job_without_a_crawl_record_or_health_check_is_not_called_healthy():
    assert "no crawl record" in job_verdict("finished", None).text
    assert "no health check" in job_verdict("finished", {"finish_reason": "shutdown"}).text
    interrupted = job_verdict("finished", {"health/interrupted": "shutdown", "health/failed": False})
    assert interrupted.text == "finished, interrupted (shutdown)"
    assert not interrupted.failed
