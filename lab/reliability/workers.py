"""Issue 15's scenarios: distributed workers (``settings.distributed``) killed, and their Redis restarted.

Each runs real processes against a real Redis (``settings/redis.conf``, AOF) and PostgreSQL, both from
``tests/operations/servers.py``, and a sandbox served in a thread of this process (so that its per-page request
counts can be read). The final database of every run must equal an uninterrupted single-worker crawl, row for row:

- 3 workers, one ``kill -9``-ed when the crawl has fetched a random share of its pages, while it holds leases (one
  run kills it while it holds an unsaved batch: its store batches are set too large to fill before the kill);
  pages fetched twice must be at most the requests the killed worker had leased;
- 2 workers whose Redis is stopped (``redis-cli shutdown``) for 3 s mid-crawl and started on the same data.

In every run, no worker may miss a page when it puts a journal together: a listing or a journal page fetched by
another worker must be in the shared page cache by the time its request is popped (a page missed is a journal
stored without it, or fetched again).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redis import Redis

from journals.sandbox.server import SandboxServer
from journals.sandbox.web import SandboxWeb
from lab.crawlrun import PROJECT_ROOT, stats_from_log
from lab.reliability.harness import WAIT_SECONDS, count_rows, duplicated_journals, snapshot, wait_until
from lab.reliability.postgres import postgres_available, throwaway_postgres, throwaway_server
from lab.reliability.scenarios import Outcome, kill_points

SPIDER = "publisher"
WORKER_SETTINGS = (
    "FRONTIER_WORKER_TIMEOUT_SECS=5",  # a dead worker's leases come back after 5 s, not 30
    "FRONTIER_HEARTBEAT_SECS=0.5",
    "CONCURRENT_REQUESTS=4",
    "PROGRESS_ENABLED=False",
)
MISSED_PAGE_STATS = {
    "journal_pages_unavailable": "journals/journal_page_unavailable",
    "listings_unavailable": "mdr/listing_unavailable",
    "journal_pages_fetched_again": "journals/journal_page_fetched_again",
}
"""Figure → the worker stat that counts a page a worker found in neither its memory nor the shared page cache."""
UNSAVED_BATCH_SIZE = 100_000
"""The killed worker's ``DATABASE_BATCH_SIZE`` in the unsaved-batch run: nothing it extracts is committed before
it goes idle."""


@dataclass
class Frontier:
    """What the scenarios share: the sandbox, PostgreSQL, a scratch folder, and the single-worker reference."""

    sandbox: SandboxServer
    postgres: Any
    """A ``servers.PostgresServer``."""
    folder: Path
    start_urls: str
    baseline: list[Any]
    pages: int

    def database(self, name: str) -> str:
        """A new empty database on the PostgreSQL server."""
        return self.postgres.create_database(f"journals_{name}")


def redis_server() -> AbstractContextManager[Any]:
    """A ``servers.RedisServer`` (the project's configuration) on a free port, deleted on exit."""
    return throwaway_server("RedisServer")


def start_worker(frontier: Frontier, crawl_id: str, database_url: str, redis_url: str, *settings: str) -> Any:
    """One ``scrapy crawl publisher`` worker of crawl ``crawl_id``; its log in the scratch folder."""
    command = [sys.executable, "-m", "scrapy", "crawl", SPIDER, "-a", f"start_urls={frontier.start_urls}"]
    for setting in (f"CRAWL_ID={crawl_id}", *WORKER_SETTINGS, *settings):
        command += ["-s", setting]
    env = {
        **os.environ,
        "SCRAPY_SETTINGS_MODULE": "settings.distributed",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
    }
    log = frontier.folder / f"{crawl_id}-{time.monotonic_ns()}.log"
    with log.open("w", encoding="utf-8") as handle:
        process = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=handle)
    process.log_path = log  # type: ignore[attr-defined]
    return process


def finish(process: Any) -> dict[str, Any]:
    """Wait for a worker; its stats (``{}`` when it dumped none) with its exit code as ``returncode``."""
    process.wait(timeout=WAIT_SECONDS)
    stats = stats_from_log(process.log_path.read_text(encoding="utf-8", errors="replace"))
    return {**stats, "returncode": process.returncode}


def compare(frontier: Frontier, outcome: Outcome, database_url: str) -> None:
    """Journals lost, stored twice, and rows differing from the single-worker crawl."""
    rows = snapshot(database_url)
    expected, found = {r[:2] for r in frontier.baseline}, {r[:2] for r in rows}
    outcome.figures["journals_expected"] = len(expected)
    outcome.figures["journals_lost"] = len(expected - found)
    outcome.figures["journals_stored_twice"] = duplicated_journals(database_url)
    if expected - found:
        outcome.problems.append(f"{len(expected - found)} journals lost, e.g. {sorted(expected - found)[:3]}")
    if outcome.figures["journals_stored_twice"]:
        outcome.problems.append(f"{outcome.figures['journals_stored_twice']} journals stored twice")
    if rows != frontier.baseline:
        differing = sorted(set(rows) ^ set(frontier.baseline))
        outcome.problems.append(f"{len(differing)} rows differ from the single-worker crawl, e.g. {differing[:3]}")


def missed_pages(outcome: Outcome, runs: list[dict[str, Any]]) -> None:
    """The pages the workers ``runs`` found in no cache when they put a journal together, each a problem."""
    for figure, stat in MISSED_PAGE_STATS.items():
        outcome.figures[figure] = sum(int(stats.get(stat, 0)) for stats in runs)
    missed = sum(outcome.figures[figure] for figure in MISSED_PAGE_STATS)
    if missed:
        outcome.problems.append(f"{missed} pages were in neither a worker's memory nor the shared page cache")


def refetched(before: Counter[str], after: Counter[str]) -> int:
    """Pages (not robots.txt) served more than once between two snapshots of the sandbox's per-path counts."""
    return sum(1 for path, count in (after - before).items() if count > 1 and not path.startswith("/robots.txt"))


def killed_worker(frontier: Frontier, name: str, point: float, unsaved_batch: bool) -> Outcome:
    """Three workers, the first ``kill -9``-ed once the crawl fetched ``point`` of the pages and it holds leases
    (with ``unsaved_batch``: leases of pages whose journals wait in its store's buffer)."""
    title = f"3 workers, one kill -9 at {point:.0%} of the pages" + (
        " holding an unsaved batch" if unsaved_batch else ""
    )
    outcome = Outcome(title)
    database = frontier.database(name)
    with redis_server() as redis:
        client = Redis.from_url(redis.url)
        before = Counter(frontier.sandbox.requests_per_path)
        victim_settings = (f"DATABASE_BATCH_SIZE={UNSAVED_BATCH_SIZE}",) if unsaved_batch else ()
        workers = [start_worker(frontier, name, database, redis.url, *victim_settings)]
        workers += [start_worker(frontier, name, database, redis.url) for _ in range(2)]
        victim = workers[0]
        prefix = f"{socket.gethostname()}:{victim.pid}#".encode()
        leases_key = f"journals:{SPIDER}:{name}:leases"
        target = max(1, int(point * frontier.pages))
        # More leases than requests it may have in flight: some are done, waiting for their journals' commit.
        enough = 5 if unsaved_batch else 1

        def victim_leases() -> int:
            return sum(lease.startswith(prefix) for lease in client.hkeys(leases_key))

        def killable() -> bool:
            return count_rows(database, "cached_pages") >= target and victim_leases() >= enough

        wait_until(killable, f"{target} pages fetched and the victim holding {enough} leases", victim)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        time.sleep(0.2)  # what it sent just before it died reaches Redis
        held = victim_leases()
        survivors = [finish(worker) for worker in workers[1:]]
    outcome.figures["victim_leases_at_kill"] = held
    outcome.figures["leases_recovered"] = sum(stats.get("frontier/leases/recovered", 0) for stats in survivors)
    outcome.figures["pages_fetched_twice"] = refetched(before, frontier.sandbox.requests_per_path)
    if any(stats["returncode"] for stats in survivors):
        outcome.problems.append(f"a surviving worker failed: {[stats['returncode'] for stats in survivors]}")
    if outcome.figures["leases_recovered"] != held:
        outcome.problems.append(f"{held} leases held at the kill, {outcome.figures['leases_recovered']} recovered")
    if outcome.figures["pages_fetched_twice"] > held:
        outcome.problems.append(f"{outcome.figures['pages_fetched_twice']} pages fetched twice, {held} were leased")
    missed_pages(outcome, survivors)
    compare(frontier, outcome, database)
    return outcome


def redis_restarted(frontier: Frontier, down_secs: float = 3.0) -> Outcome:
    """Two workers; their Redis shut down (AOF flushed) once a third of the pages are fetched, started again on the
    same data ``down_secs`` later."""
    outcome = Outcome(f"2 workers, Redis restarted mid-crawl ({down_secs:.0f} s away)")
    database = frontier.database("redis_restart")
    with redis_server() as redis:
        workers = [start_worker(frontier, "restart", database, redis.url) for _ in range(2)]
        target = max(1, frontier.pages // 3)
        wait_until(lambda: count_rows(database, "cached_pages") >= target, f"{target} pages fetched", workers[0])
        queued = Redis.from_url(redis.url).zcard(f"journals:{SPIDER}:restart:requests")
        redis.restart(down_secs=down_secs)
        runs = [finish(worker) for worker in workers]
    outcome.figures["queued_at_restart"] = queued
    outcome.figures["redis_outages_seen"] = sum(stats.get("frontier/redis_outages", 0) for stats in runs)
    if any(stats["returncode"] for stats in runs):
        outcome.problems.append(f"a worker failed: {[stats['returncode'] for stats in runs]}")
    if not queued:
        outcome.problems.append("the crawl was over before the restart")
    missed_pages(outcome, runs)
    compare(frontier, outcome, database)
    return outcome


def worker_scenarios(folder: Path, seed: int, journals: int, sites: tuple[str, ...], kills: int) -> Iterator[Outcome]:
    """After the single-worker reference crawl: ``kills`` kill runs (the last one holding an unsaved batch) and
    the Redis restart, each yielded as it ends; skipped when PostgreSQL or Redis is not installed."""
    if not postgres_available() or shutil.which("redis-server") is None:
        yield Outcome("distributed workers killed, Redis restarted", {"skipped": "no PostgreSQL or redis-server"})
        return
    server = SandboxServer(SandboxWeb(seed=seed, size=journals), port=0)
    server.start_in_thread()
    try:
        with throwaway_postgres() as postgres:
            start_urls = ",".join(f"{server.base_url}/{site}/" for site in sites)
            frontier = Frontier(server, postgres, folder, start_urls, [], 0)
            reference = frontier.database("single_worker")
            with redis_server() as redis:
                stats = finish(start_worker(frontier, "single", reference, redis.url))
            if stats["returncode"]:
                raise RuntimeError(f"the single-worker crawl failed with {stats['returncode']}")
            frontier.baseline = snapshot(reference)
            frontier.pages = count_rows(reference, "cached_pages")
            for i, point in enumerate(kill_points(seed + 100, kills)):
                yield killed_worker(frontier, f"kill{i}", point, unsaved_batch=i == kills - 1)
            yield redis_restarted(frontier)
    finally:
        server.shutdown()
        server.server_close()
