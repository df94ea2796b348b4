"""Distributed settings: any number of workers share one Redis frontier, one PostgreSQL database and page cache.

Start every worker of one crawl with the same spider, arguments and crawl name (docs/OPERATIONS.md)::

    export SCRAPY_SETTINGS_MODULE=settings.distributed
    export REDIS_URL=redis://frontier.example:6379/0
    export DATABASE_URL=postgresql+psycopg://journals:SECRET@db.example/journals
    scrapy crawl elsevier -s CRAWL_ID=elsevier-2026-w48     # on as many machines as you like

The start URLs enter the frontier once (the shared duplicate filter drops every later worker's copy), no request
is scheduled twice, journals are upserted on their (source, URL) key, and every page fetched by one worker is in
the cache for all of them. What a worker loses when it is killed is in docs/OPERATIONS.md.
"""

import os

from settings.production import *  # noqa: F403  (a settings module extends another by design)

# The frontier: scrapy-redis's scheduler, keyed per crawl (journals.frontier). Persist, so that the worker that
# finishes first does not clear the queue and duplicate filter the others still use; the keys expire instead.
SCHEDULER = "journals.frontier.SharedFrontierScheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
SCHEDULER_QUEUE_CLASS = "scrapy_redis.queue.PriorityQueue"
SCHEDULER_PERSIST = True
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CRAWL_ID = os.environ.get("CRAWL_ID", "")
FRONTIER_TTL_SECS = 7 * 24 * 3600
FRONTIER_HEARTBEAT_SECS = 1.0
FRONTIER_WORKER_TIMEOUT_SECS = 30.0

# Rows and the page cache on the shared database (DATABASE_URL from the environment, see settings.production).
# Smaller batches: a worker killed with SIGKILL loses at most this many extracted journals (see the docs).
DATABASE_BATCH_SIZE = 20

# Remote-access services: never on a worker.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # 2.19 RemoteControl extension (runs submitted code)
