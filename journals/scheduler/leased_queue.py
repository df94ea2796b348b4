"""scrapy-redis's priority queue with leases: a popped request stays in Redis until its worker says it is done.

A pop moves the request, in one Lua script, from the queue (``…:requests``, scrapy-redis's sorted set, its
serialisation unchanged) into the crawl's in-flight leases:

- ``…:leases``, a hash from lease id to ``SCORE\\nENCODED_REQUEST`` (what it takes to put the request back),
- ``…:deadlines``, a sorted set of lease ids by the time after which anyone may put the request back.

A lease id is ``WORKER#N``: the worker that holds it (``HOST:PID``, its name in the ``workers`` hash) and a counter.
:meth:`LeasedPriorityQueue.release` forgets leases whose work is done; :meth:`LeasedPriorityQueue.recover` puts back,
in one script (so exactly once however many workers call it together), every lease past its deadline or held by
a worker whose heartbeat stopped. :meth:`LeasedPriorityQueue.push_new` is scrapy-redis's duplicate filter and
push in one script, so that a Redis that loses its last second of writes never keeps a request as seen without
keeping it queued.
"""

from __future__ import annotations

from typing import Any

from scrapy import Request
from scrapy_redis.queue import PriorityQueue

_POP = """
local popped = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #popped == 0 then return false end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0)
redis.call('HSET', KEYS[2], ARGV[1], popped[2] .. '\\n' .. popped[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return popped[1]
"""
"""KEYS: requests, leases, deadlines; ARGV: lease id, deadline. The popped request, now leased, or nil."""

_PUT_BACK = """
local function put_back(lease)
  local held = redis.call('HGET', KEYS[2], lease)
  redis.call('HDEL', KEYS[2], lease)
  redis.call('ZREM', KEYS[3], lease)
  if not held then return 0 end
  local cut = string.find(held, '\\n', 1, true)
  redis.call('ZADD', KEYS[1], string.sub(held, 1, cut - 1), string.sub(held, cut + 1))
  return 1
end
"""

_REQUEUE = (
    _PUT_BACK
    + """
local moved = 0
for i = 1, #ARGV do moved = moved + put_back(ARGV[i]) end
return moved
"""
)
"""KEYS: requests, leases, deadlines; ARGV: lease ids. Puts those leases' requests back; how many there were."""

_RECOVER = (
    _PUT_BACK
    + """
local now, timeout = tonumber(ARGV[1]), tonumber(ARGV[2])
local alive = {}
local states = redis.call('HGETALL', KEYS[4])
for i = 1, #states, 2 do
  local stamp = tonumber(string.match(states[i + 1], ' (.+)$'))
  if stamp and now - stamp <= timeout then alive[states[i]] = true end
end
local moved = {}
local leases = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
for i = 1, #leases, 2 do
  local lease, deadline = leases[i], tonumber(leases[i + 1])
  local owner = string.match(lease, '^(.*)#[^#]*$')
  if deadline < now or not alive[owner] then
    if put_back(lease) == 1 then table.insert(moved, lease) end
  end
end
return moved
"""
)
"""KEYS: requests, leases, deadlines, workers; ARGV: now, worker timeout. The lease ids put back."""

_PUSH_NEW = """
if ARGV[4] == '0' and redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
"""
"""KEYS: seen, requests; ARGV: fingerprint, score, encoded request, dont_filter (1/0). 1 when queued."""


def lease_owner(lease_id: str) -> str:
    """The worker that holds ``lease_id`` (``WORKER#N``)."""
    return lease_id.rpartition("#")[0]


class LeasedPriorityQueue(PriorityQueue):
    """``SCHEDULER_QUEUE_CLASS``: scrapy-redis's :class:`~scrapy_redis.queue.PriorityQueue` whose pops are leases.

    :meth:`pop` without a lease (scrapy-redis's own API) is refused: a request popped without one would be lost
    with its worker. The lease keys default to the queue key with ``:leases`` and ``:deadlines``; the shared
    frontier sets them beside its other keys.
    """

    leases_key: str
    """Hash: lease id → ``SCORE\\nENCODED_REQUEST``."""
    deadlines_key: str
    """Sorted set: lease id by deadline (a Unix time)."""

    def __init__(self, server: Any, spider: Any, key: str, serializer: Any = None) -> None:
        """scrapy-redis's queue on ``key``, and the Lua scripts of leases."""
        super().__init__(server, spider, key, serializer)
        self.leases_key = f"{self.key}:leases"
        self.deadlines_key = f"{self.key}:deadlines"
        self._pop = server.register_script(_POP)
        self._requeue = server.register_script(_REQUEUE)
        self._recover = server.register_script(_RECOVER)
        self._push_new = server.register_script(_PUSH_NEW)

    def pop(self, timeout: int = 0) -> Request | None:
        """Refused: pop with :meth:`lease`."""
        raise TypeError("LeasedPriorityQueue.pop() would lose the request with its worker: use lease()")

    def lease(self, lease_id: str, deadline: float) -> Request | None:
        """Pop the first request into lease ``lease_id`` until ``deadline`` (a Unix time); None when empty."""
        encoded = self._pop(keys=[self.key, self.leases_key, self.deadlines_key], args=[lease_id, repr(deadline)])
        return None if encoded is None else self._decode_request(encoded)

    def push_new(self, request: Request, fingerprint: str, seen_key: str) -> bool:
        """Queue ``request`` unless its ``fingerprint`` is in the duplicate filter's set ``seen_key`` (which it
        joins), in one step; ``dont_filter`` requests are always queued. Whether it was queued."""
        data = self._encode_request(request)
        args = [fingerprint, -request.priority, data, 1 if request.dont_filter else 0]
        return bool(self._push_new(keys=[seen_key, self.key], args=args))

    def release(self, lease_ids: list[str]) -> None:
        """Forget leases whose work is done (ids already put back or released are ignored)."""
        if not lease_ids:
            return
        pipe = self.server.pipeline(transaction=True)
        pipe.hdel(self.leases_key, *lease_ids)
        pipe.zrem(self.deadlines_key, *lease_ids)
        pipe.execute()

    def requeue(self, lease_ids: list[str]) -> int:
        """Put the requests of these leases back in the queue; how many were still leased."""
        if not lease_ids:
            return 0
        return int(self._requeue(keys=[self.key, self.leases_key, self.deadlines_key], args=lease_ids))

    def recover(self, workers_key: str, now: float, worker_timeout: float) -> list[str]:
        """Put back every lease past its deadline or held by a worker of ``workers_key`` silent for more than
        ``worker_timeout`` seconds (or absent from it); the lease ids put back, each by one caller only."""
        keys = [self.key, self.leases_key, self.deadlines_key, workers_key]
        moved = self._recover(keys=keys, args=[repr(now), repr(worker_timeout)])
        return [lease.decode() if isinstance(lease, bytes) else lease for lease in moved]

    def leased_ids(self) -> list[str]:
        """Every lease id of the crawl, whoever holds it."""
        return [lease.decode() for lease in self.server.zrange(self.deadlines_key, 0, -1)]

    def clear(self) -> None:
        """Delete the queue and its leases."""
        self.server.delete(self.key, self.leases_key, self.deadlines_key)
