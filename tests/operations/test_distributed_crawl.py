"""Workers sharing one Redis frontier and one PostgreSQL database and page cache, against the sandbox web.

One site is crawled by one worker, then by two workers at once, then once more by a third worker: the two
together fetch what one fetches and store the same rows, each journal once; the third finds every page in the
shared cache and makes no request at all.
"""

from __future__ import annotations

import socket
import time

import pytest
from crawl_workers import (
    attribute_rows,
    finish_worker,
    journal_rows,
    start_worker,
    worker_command,
    worker_env,
)
from redis import Redis
from server_fixtures import postgres_fixture, redis_server_fixture  # noqa: F401  (pytest fixtures)

SITE = "elsevier"


@pytest.fixture(scope="module")
def single_worker_crawl(sandbox, postgres, redis_server):
    """One worker's crawl of the site into its own database: the reference."""
    database = postgres.create_database("journals_single_worker")
    before = sandbox.server.request_count
    run = finish_worker(
        start_worker(worker_command(SITE, sandbox.start_url(SITE), "single"), worker_env(database, redis_server.url))
    )
    assert run.returncode == 0, run.log[-3000:]
    return {"database": database, "run": run, "requests": sandbox.server.request_count - before}


def test_two_workers_share_one_frontier(sandbox, postgres, redis_server, single_worker_crawl):
    """Two workers fetch between them what one fetches, and store every journal exactly once."""
    database = postgres.create_database("journals_two_workers")
    env = worker_env(database, redis_server.url)
    before = sandbox.server.request_count
    # Slow enough that the second worker, however late it starts on a loaded machine, finds work left.
    command = worker_command(SITE, sandbox.start_url(SITE), "pair", "DOWNLOAD_DELAY=0.1")
    workers = [start_worker(command, env) for _ in range(2)]
    runs = [finish_worker(worker) for worker in workers]
    for run in runs:
        assert run.returncode == 0, run.log[-3000:]
    single = single_worker_crawl["run"]

    dequeued = [run.stat("scheduler/dequeued/redis") for run in runs]
    assert all(count > 0 for count in dequeued), f"a worker took no page from the shared frontier: {dequeued}"
    assert sum(dequeued) == single.stat("scheduler/dequeued/redis")
    # Each worker asks for robots.txt once unless the other one cached it first: at most one extra request.
    requests = sandbox.server.request_count - before
    assert single_worker_crawl["requests"] <= requests <= single_worker_crawl["requests"] + 1

    rows = journal_rows(database)
    assert len(rows) == len(set((source, url) for source, url, _ in rows)), "a journal was stored twice"
    assert rows == journal_rows(single_worker_crawl["database"])
    assert attribute_rows(database) == attribute_rows(single_worker_crawl["database"])


def test_the_shared_page_cache_serves_another_workers_crawl(sandbox, redis_server, single_worker_crawl):
    """A new crawl of the same site by another worker on the same database makes no request to the site."""
    before = sandbox.server.request_count
    run = finish_worker(
        start_worker(
            worker_command(SITE, sandbox.start_url(SITE), "from-cache"),
            worker_env(single_worker_crawl["database"], redis_server.url),
        )
    )
    assert run.returncode == 0, run.log[-3000:]
    assert sandbox.server.request_count == before
    assert run.stat("httpcache/hit") > 0
    assert run.stat("httpcache/miss") == 0
    assert run.stat("item_scraped_count") == single_worker_crawl["run"].stat("item_scraped_count")


def test_a_worker_stopped_mid_crawl_loses_nothing(sandbox, postgres, redis_server, single_worker_crawl):
    """SIGTERM one of two workers mid-crawl: the other finishes its share, every journal is stored once."""
    database = postgres.create_database("journals_stopped_worker")
    env = worker_env(database, redis_server.url)
    # Slow enough that the stop lands mid-crawl.
    command = worker_command(SITE, sandbox.start_url(SITE), "stopped", "DOWNLOAD_DELAY=0.05", "CONCURRENT_REQUESTS=2")
    stopped, survivor = start_worker(command, env), start_worker(command, env)
    redis = Redis.from_url(redis_server.url)
    stopped_worker = f"{socket.gethostname()}:{stopped.pid}".encode()
    deadline = time.monotonic() + 60
    # Stop it once it works on its share and the crawl is well under way.
    while time.monotonic() < deadline and not (
        (redis.hget("journals:elsevier:stopped:workers", stopped_worker) or b"").startswith(b"busy")
        and redis.scard("journals:elsevier:stopped:seen") >= 40
    ):
        time.sleep(0.05)
    queued_at_stop = redis.zcard("journals:elsevier:stopped:requests")
    stopped.terminate()
    stopped_run, survivor_run = finish_worker(stopped), finish_worker(survivor)
    assert "shutdown" in stopped_run.log, stopped_run.log[-3000:]
    assert survivor_run.returncode == 0, survivor_run.log[-3000:]
    assert stopped_run.stat("scheduler/dequeued/redis") > 0
    assert survivor_run.stat("scheduler/dequeued/redis") > 0
    assert queued_at_stop > 0, "the crawl was over before the stop: nothing was left for the survivor to finish"

    rows = journal_rows(database)
    assert len(rows) == len(set((source, url) for source, url, _ in rows)), "a journal was stored twice"
    assert rows == journal_rows(single_worker_crawl["database"])
