"""scrapyd for real: ``make scrapyd`` with credentials, ``make deploy``, jobs scheduled over its HTTP API and by
``scrapy schedule``, their rows in PostgreSQL and their logs and stats through scrapyd."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest
from server_fixtures import postgres_fixture, scrapyd_database_fixture, scrapyd_fixture  # noqa: F401  (pytest fixtures)
from servers import PROJECT_ROOT
from sqlalchemy import create_engine, text

JOB_TIMEOUT_SECS = 120


def call(scrapyd, endpoint: str, data: list[tuple[str, str]] | None = None, auth: bool = True) -> dict[str, Any]:
    """One scrapyd API call (GET, or POST with ``data``); the JSON answer."""
    return json.loads(fetch(scrapyd, endpoint, data, auth))


def fetch(scrapyd, path: str, data: list[tuple[str, str]] | None = None, auth: bool = True) -> str:
    """The body of one scrapyd URL, with HTTP Basic credentials unless ``auth`` is false."""
    request = urllib.request.Request(
        scrapyd.url + path, data=urllib.parse.urlencode(data).encode() if data is not None else None
    )
    if auth:
        token = base64.b64encode(f"{scrapyd.username}:{scrapyd.password}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode("utf-8")


def wait_for_jobs(scrapyd, job_ids: set[str]) -> dict[str, dict[str, Any]]:
    """Poll ``listjobs.json`` until every job in ``job_ids`` is finished; their entries by id."""
    deadline = time.monotonic() + JOB_TIMEOUT_SECS
    while time.monotonic() < deadline:
        finished = {job["id"]: job for job in call(scrapyd, "listjobs.json?project=journals")["finished"]}
        if job_ids <= finished.keys():
            return finished
        time.sleep(0.5)
    pytest.fail(f"jobs {sorted(job_ids)} not finished after {JOB_TIMEOUT_SECS} s: {scrapyd.output()[-2000:]}")


def journal_count(database_url: str, source: str) -> int:
    """How many journal rows a source has, and that no (source, url) repeats."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            count, distinct = conn.execute(
                text(
                    "SELECT count(*), count(DISTINCT j.url) FROM journals j JOIN sources s ON s.id = j.source_id "
                    "WHERE s.name = :source"
                ),
                {"source": source},
            ).one()
    finally:
        engine.dispose()
    assert count == distinct, f"{source}: a journal was stored twice"
    return count


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a command in the project directory as a user would; never raises on failure."""
    return subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False)


def scrapyd_env(scrapyd, tmp_path) -> dict[str, str]:
    """The environment of ``make deploy`` and ``scrapy schedule``: credentials and a deploy target ``test``."""
    (tmp_path / "scrapy.cfg").write_text(f"[deploy:test]\nurl = {scrapyd.url}\n", encoding="utf-8")
    return {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path),
        "SCRAPYD_USERNAME": scrapyd.username,
        "SCRAPYD_PASSWORD": scrapyd.password,
        "SCRAPYD_URLS": scrapyd.url,
    }


@pytest.fixture(scope="module")
def deployed(scrapyd, tmp_path_factory):
    """The project deployed with ``make deploy`` to the test scrapyd."""
    env = scrapyd_env(scrapyd, tmp_path_factory.mktemp("deploy"))
    done = run(["make", "-s", "deploy", "DEPLOY_TARGET=test"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"status": "ok"' in done.stdout + done.stderr
    return scrapyd


def test_make_scrapyd_refuses_to_start_without_credentials():
    env = {k: v for k, v in os.environ.items() if k not in ("SCRAPYD_USERNAME", "SCRAPYD_PASSWORD")}
    done = run(["make", "-s", "scrapyd"], env)
    assert done.returncode != 0
    assert "SCRAPYD_USERNAME and SCRAPYD_PASSWORD" in done.stderr


def test_deployed_egg_lists_the_spiders(deployed):
    spiders = call(deployed, "listspiders.json?project=journals")["spiders"]
    assert {"publisher", "elsevier", "wiley", "nature", "bmj", "oxford", "springer"} <= set(spiders)


def test_unauthenticated_requests_are_refused(deployed):
    for path, data in (("listprojects.json", None), ("schedule.json", [("project", "journals"), ("spider", "bmj")])):
        with pytest.raises(urllib.error.HTTPError) as refused:
            fetch(deployed, path, data, auth=False)
        assert refused.value.code == 401
    assert call(deployed, "listjobs.json?project=journals")["pending"] == []


def test_a_job_scheduled_over_http_stores_its_rows(deployed, sandbox, scrapyd_database):
    answer = call(
        deployed,
        "schedule.json",
        [("project", "journals"), ("spider", "oxford"), ("start_url", sandbox.start_url("oxford"))],
    )
    assert answer["status"] == "ok"
    job = wait_for_jobs(deployed, {answer["jobid"]})[answer["jobid"]]
    log = fetch(deployed, job["log_url"].lstrip("/"))
    assert "Spider closed (finished)" in log
    items = int(log.split("'item_scraped_count': ")[1].split(",")[0])
    assert items > 0
    assert journal_count(scrapyd_database, "oxford") == items


def test_scrapy_schedule_runs_due_plans_once_per_interval(deployed, sandbox, scrapyd_database, tmp_path):
    env = scrapyd_env(deployed, tmp_path)
    schedule = json.dumps(
        {"bmj-sandbox": {"spider": "bmj", "every": "7d", "args": {"start_url": sandbox.start_url("bmj")}}}
    )
    state = tmp_path / "state.json"
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "schedule",
        "--once",
        "--state",
        str(state),
        "-s",
        f"CRAWL_SCHEDULE={schedule}",
    ]

    first = run(command, env)
    assert first.returncode == 0, first.stderr
    assert "Scheduled bmj-sandbox as crawl bmj-sandbox-" in first.stderr
    assert "bmj-sandbox" in json.loads(state.read_text())
    listed = call(deployed, "listjobs.json?project=journals")
    job_ids = {job["id"] for state in ("pending", "running", "finished") for job in listed[state]}
    job_ids = {job_id for job_id in job_ids if job_id.startswith("bmj-sandbox-")}
    assert len(job_ids) == 1

    again = run(command, env)
    assert again.returncode == 0, again.stderr
    assert "Scheduled" not in again.stderr  # not due again for a week

    finished = wait_for_jobs(deployed, job_ids)
    log = fetch(deployed, finished[job_ids.pop()]["log_url"].lstrip("/"))
    assert "'HTTPCACHE_POLICY': 'scrapy.extensions.httpcache.RFC2616Policy'" in log
    assert journal_count(scrapyd_database, "bmj") > 0


def test_scrapy_jobs_tells_a_job_that_failed_its_health_check_from_a_healthy_one(
    deployed, sandbox, scrapyd_database, tmp_path
):
    jobs = {}
    for name, start in (("healthy", sandbox.start_url("bmj")), ("failed", sandbox.start_url("bmj") + "no-such-page/")):
        answer = call(deployed, "schedule.json", [("project", "journals"), ("spider", "bmj"), ("start_url", start)])
        jobs[name] = answer["jobid"]
    wait_for_jobs(deployed, set(jobs.values()))

    listed = run(
        [sys.executable, "-m", "scrapy", "jobs"],
        {**scrapyd_env(deployed, tmp_path), "DATABASE_URL": scrapyd_database},
    )

    assert listed.returncode == 3, listed.stdout + listed.stderr
    lines = {line.split("\t")[0]: line for line in listed.stdout.splitlines()}
    assert "finished, healthy (" in lines[jobs["healthy"]]
    assert "finished, health check failed: " in lines[jobs["failed"]]
    assert "finished jobs failed their health check" in listed.stderr
