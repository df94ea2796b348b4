"""Workers sharing one Redis frontier and one PostgreSQL database and page cache, against the sandbox web.

One site is crawled by one worker, then by two workers at once, then once more by a third worker: the two
together fetch what one fetches and store the same rows, each journal once; the third finds every page in the
shared cache and makes no request at all. Then the failures: one of three workers killed with SIGKILL mid-crawl,
and the frontier's Redis restarted mid-crawl; both end with the reference crawl's rows, each journal once.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from collections import Counter

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
from servers import RedisServer

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
    # Every lease released as its work ended, none put back at the close (errors and dropped requests included).
    assert run.stat("frontier/leases/taken") == run.stat("frontier/leases/released") > 0
    assert run.stat("frontier/leases/returned") == 0
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


FAILURE_SETTINGS = (
    "FRONTIER_WORKER_TIMEOUT_SECS=3",  # a killed worker's leases come back after 3 s, not 30
    "FRONTIER_HEARTBEAT_SECS=0.5",
    "DOWNLOAD_DELAY=0.05",  # slow enough that the failure lands mid-crawl
    "CONCURRENT_REQUESTS=4",
)


def refetched_pages(before: Counter[str], after: Counter[str]) -> dict[str, int]:
    """Pages (not robots.txt) the sandbox served more than once between two snapshots of its per-path counts."""
    fetched = after - before
    return {path: count for path, count in fetched.items() if count > 1 and not path.startswith("/robots.txt")}


def wait_for(ready, what: str, timeout: float = 60) -> None:
    """Poll ``ready`` every 20 ms until it is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail(f"never saw {what}")
        time.sleep(0.02)


def test_a_worker_killed_mid_crawl_loses_nothing(sandbox, postgres, redis_server, single_worker_crawl):
    """SIGKILL one of three workers while it holds leases: the others redo its leased requests, the database
    equals the single worker's row for row, and only pages it had leased are fetched twice."""
    database = postgres.create_database("journals_killed_worker")
    env = worker_env(database, redis_server.url)
    command = worker_command(SITE, sandbox.start_url(SITE), "killed", *FAILURE_SETTINGS)
    before = Counter(sandbox.server.requests_per_path)
    workers = [start_worker(command, env) for _ in range(3)]
    victim = workers[0]
    redis = Redis.from_url(redis_server.url)
    prefix = f"{socket.gethostname()}:{victim.pid}#"

    def victim_leases() -> list[str]:
        return [
            lease.decode()
            for lease in redis.hkeys("journals:elsevier:killed:leases")
            if lease.decode().startswith(prefix)
        ]

    wait_for(lambda: redis.scard("journals:elsevier:killed:seen") >= 40 and victim_leases(), "the victim mid-crawl")
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(10)
    time.sleep(0.2)  # what it sent just before it died reaches Redis
    held_at_kill = len(victim_leases())
    survivors = [finish_worker(worker) for worker in workers[1:]]
    for run in survivors:
        assert run.returncode == 0, run.log[-3000:]
    assert sum(run.stat("frontier/leases/recovered") for run in survivors) == held_at_kill > 0
    assert redis.hlen("journals:elsevier:killed:leases") == 0

    rows = journal_rows(database)
    assert len(rows) == len(set((source, url) for source, url, _ in rows)), "a journal was stored twice"
    assert rows == journal_rows(single_worker_crawl["database"]), "journals lost (or different) after the kill"
    assert attribute_rows(database) == attribute_rows(single_worker_crawl["database"])
    refetched = refetched_pages(before, sandbox.server.requests_per_path)
    assert len(refetched) <= held_at_kill, f"{len(refetched)} pages fetched twice, {held_at_kill} were leased"


def test_a_redis_restart_mid_crawl_loses_nothing(sandbox, postgres, single_worker_crawl):
    """`redis-cli shutdown` mid-crawl, 2 s away, then Redis again on the same AOF: two workers wait for it and
    finish the crawl, every journal stored once."""
    database = postgres.create_database("journals_redis_restart")
    redis_server = RedisServer.start()
    try:
        env = worker_env(database, redis_server.url)
        command = worker_command(SITE, sandbox.start_url(SITE), "restart", *FAILURE_SETTINGS)
        workers = [start_worker(command, env) for _ in range(2)]
        redis = Redis.from_url(redis_server.url)
        # Both workers in the frontier first: one still starting when Redis goes away would fail to start.
        wait_for(
            lambda: redis.hlen("journals:elsevier:restart:workers") == 2
            and redis.scard("journals:elsevier:restart:seen") >= 40,
            "both workers in the crawl under way",
        )
        queued_at_restart = redis.zcard("journals:elsevier:restart:requests")
        redis_server.restart(down_secs=2)
        runs = [finish_worker(worker) for worker in workers]
    finally:
        redis_server.stop()
    for run in runs:
        assert run.returncode == 0, run.log[-3000:]
        assert "Redis unreachable" in run.log and "Redis is back" in run.log, run.log[-3000:]
    assert queued_at_restart > 0, "the crawl was over before the restart"

    rows = journal_rows(database)
    assert len(rows) == len(set((source, url) for source, url, _ in rows)), "a journal was stored twice"
    assert rows == journal_rows(single_worker_crawl["database"]), "journals lost (or different) after the restart"
    assert attribute_rows(database) == attribute_rows(single_worker_crawl["database"])
