"""The leased queue on a real Redis: a pop is a lease, a release forgets it, and recovery puts a dead worker's
leases back exactly once however many workers run it together."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from redis import Redis
from scrapy import Request, Spider
from server_fixtures import redis_server_fixture  # noqa: F401  (pytest fixture)

from journals.scheduler.frontier import frontier_keys, worker_state
from journals.scheduler.leased_queue import LeasedPriorityQueue, lease_owner


@pytest.fixture
def frontier(redis_server, request):
    """A leased queue on keys of its own (the test's name), and its keys."""
    server = Redis.from_url(redis_server.url)
    keys = frontier_keys("leases", request.node.name.replace("[", "-").rstrip("]"))
    queue = LeasedPriorityQueue(server, Spider("leases"), keys["requests"])
    queue.leases_key, queue.deadlines_key = keys["leases"], keys["deadlines"]
    yield queue, keys
    server.delete(*keys.values())


def push(queue: LeasedPriorityQueue, keys: dict[str, str], url: str, **kwargs) -> bool:
    return queue.push_new(Request(url, **kwargs), url, keys["seen"])


def test_a_pop_is_a_lease_until_released(frontier):
    queue, keys = frontier
    assert push(queue, keys, "http://a/1", priority=1)
    assert push(queue, keys, "http://a/2")
    assert not push(queue, keys, "http://a/2"), "the duplicate filter let a request in twice"
    assert push(queue, keys, "http://a/2", dont_filter=True)

    first = queue.lease("w:1#1", time.time() + 60)
    assert first is not None and first.url == "http://a/1"  # the higher priority first
    assert len(queue) == 2
    assert queue.leased_ids() == ["w:1#1"]
    queue.release(["w:1#1"])
    assert queue.leased_ids() == []
    assert len(queue) == 2


def test_requeue_puts_a_lease_back_with_its_priority(frontier):
    queue, keys = frontier
    push(queue, keys, "http://a/low", priority=-5)
    push(queue, keys, "http://a/high", priority=5)
    leased = queue.lease("w:1#1", time.time() + 60)
    assert leased.url == "http://a/high"
    assert queue.requeue(["w:1#1", "w:1#unknown"]) == 1
    assert queue.leased_ids() == []
    assert queue.lease("w:1#2", time.time() + 60).url == "http://a/high"


def test_recovery_takes_dead_and_expired_leases_only(frontier):
    queue, keys = frontier
    server = queue.server
    now = time.time()
    for number in range(4):
        push(queue, keys, f"http://a/{number}")
    server.hset(keys["workers"], "alive:1", worker_state(True, now))
    server.hset(keys["workers"], "dead:2", worker_state(True, now - 100))
    queue.lease("alive:1#1", now + 600)
    queue.lease("alive:1#2", now - 1)  # past its deadline
    queue.lease("dead:2#1", now + 600)
    queue.lease("gone:3#1", now + 600)  # its worker left the table without putting it back
    recovered = queue.recover(keys["workers"], now, worker_timeout=30)
    assert sorted(recovered) == ["alive:1#2", "dead:2#1", "gone:3#1"]
    assert queue.leased_ids() == ["alive:1#1"]
    assert len(queue) == 3
    assert queue.recover(keys["workers"], now, worker_timeout=30) == []


def test_workers_recovering_together_put_each_lease_back_once(frontier):
    queue, keys = frontier
    now = time.time()
    leases = 200
    for number in range(leases):
        push(queue, keys, f"http://a/{number}")
    for number in range(leases):
        queue.lease(f"dead:9#{number}", now + 600)
    assert len(queue) == 0
    results: list[list[str]] = []

    def recover() -> None:
        results.append(queue.recover(keys["workers"], time.time(), worker_timeout=30))

    threads = [threading.Thread(target=recover) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = Counter(lease for result in results for lease in result)
    assert len(counts) == leases and set(counts.values()) == {1}
    assert len(queue) == leases, "a lease was put back twice, or not at all"
    assert {lease_owner(lease) for lease in counts} == {"dead:9"}


def test_a_plain_pop_is_refused(frontier):
    queue, _ = frontier
    with pytest.raises(TypeError, match="lease"):
        queue.pop()
