"""Crawl records on a real SQLite file: the last crawl, and crawls found by a stat such as their scrapyd job."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from journals.store.crawl_runs import last_run, record_run, runs_by_stat
from journals.store.database import open_database


def test_the_last_crawl_holding_each_job_id_is_found_and_unknown_ids_left_out(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path / 'runs.db'}")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        record_run(engine, "bmj", {"finish_time": start, "scrapyd/job": "a", "item_scraped_count": 1})
        record_run(
            engine, "bmj", {"finish_time": start + timedelta(hours=1), "scrapyd/job": "a", "item_scraped_count": 2}
        )
        record_run(engine, "oxford", {"finish_time": start + timedelta(hours=2), "scrapyd/job": "b"})
        record_run(engine, "oxford", {"finish_time": start + timedelta(hours=3)})
        found = runs_by_stat(engine, "scrapyd/job", ["a", "b", "c"])
        assert set(found) == {"a", "b"}
        assert found["a"]["item_scraped_count"] == 2
        latest = last_run(engine)
        assert latest is not None and latest[0].spider == "oxford"
    finally:
        engine.dispose()
