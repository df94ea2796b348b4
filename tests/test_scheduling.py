"""The pure core of recurring crawls: intervals, plans, what is due now, job ids, the state file."""

from datetime import UTC, datetime, timedelta

import pytest

from journals.scheduling import (
    CrawlPlan,
    crawl_id,
    crawl_plans,
    due_plans,
    dump_last_runs,
    job_id,
    load_last_runs,
    next_due,
    parse_interval,
    running_plans,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7d", timedelta(days=7)),
        ("12h", timedelta(hours=12)),
        ("1w 2d", timedelta(days=9)),
        ("90m", timedelta(minutes=90)),
        ("1.5h", timedelta(minutes=90)),
        ("30s", timedelta(seconds=30)),
    ],
)
def test_parse_interval(text, expected):
    assert parse_interval(text) == expected


@pytest.mark.parametrize("text", ["", "weekly", "7", "7x", "0d", "7d fortnight"])
def test_parse_interval_refuses_what_is_not_an_interval(text):
    with pytest.raises(ValueError):
        parse_interval(text)


def test_crawl_plans_read_the_schedule_data():
    plans = crawl_plans(
        {
            "_doc": "ignored",
            "wiley": {"every": "7d"},
            "elsevier-sandbox": {
                "spider": "elsevier",
                "every": "12h",
                "args": {"start_url": "http://127.0.0.1:8000/elsevier/"},
                "settings": {"DOWNLOAD_DELAY": 1},
            },
        }
    )
    assert plans == [
        CrawlPlan(
            name="elsevier-sandbox",
            spider="elsevier",
            every=timedelta(hours=12),
            args={"start_url": "http://127.0.0.1:8000/elsevier/"},
            settings={"DOWNLOAD_DELAY": "1"},
        ),
        CrawlPlan(name="wiley", spider="wiley", every=timedelta(days=7)),
    ]
    with pytest.raises(ValueError, match="no 'every'"):
        crawl_plans({"bmj": {}})


def test_due_plans_never_run_or_older_than_their_interval_and_not_running():
    weekly, daily, hourly = (
        CrawlPlan(name=name, spider=name, every=every)
        for name, every in (("weekly", timedelta(days=7)), ("daily", timedelta(days=1)), ("hourly", timedelta(hours=1)))
    )
    last_runs = {"weekly": NOW - timedelta(days=6), "daily": NOW - timedelta(days=1)}
    assert due_plans([weekly, daily, hourly], last_runs, NOW) == [daily, hourly]
    assert due_plans([weekly, daily, hourly], last_runs, NOW, running={"hourly"}) == [daily]
    assert next_due([weekly], last_runs, NOW) == NOW + timedelta(days=1)
    assert next_due([weekly, hourly], last_runs, NOW) == NOW
    assert next_due([], last_runs, NOW) is None


def test_job_ids_map_back_to_their_plans():
    plans = [CrawlPlan(name=name, spider="elsevier", every=timedelta(days=1)) for name in ("elsevier", "elsevier-2")]
    crawl = crawl_id(plans[1], NOW)
    assert crawl == "elsevier-2-20261130T1200Z"
    assert running_plans({job_id(crawl, 1), job_id(crawl, 2), "a-job-of-someone-else"}) == {"elsevier-2"}
    assert running_plans({job_id(crawl_id(plans[0], NOW), 1)}) == {"elsevier"}


def test_state_file_round_trip():
    last_runs = {"elsevier": NOW, "wiley": NOW - timedelta(days=3)}
    assert load_last_runs(dump_last_runs(last_runs)) == last_runs
    assert load_last_runs("") == {}
