"""Distributed settings: any number of workers share one Redis frontier, one PostgreSQL database and page cache.

Start every worker of one crawl with the same spider, arguments and crawl name (docs/OPERATIONS.md)::

    export SCRAPY_SETTINGS_MODULE=settings.distributed
    export REDIS_URL=redis://frontier.example:6379/0
    export DATABASE_URL=postgresql+psycopg://journals:SECRET@db.example/journals
    scrapy crawl elsevier -s CRAWL_ID=elsevier-2026-w48     # on as many machines as you like

The start URLs enter the frontier once (the shared duplicate filter drops every later worker's copy), no request
is scheduled twice, journals are upserted on their (source, URL) key, and every page fetched by one worker is in
the cache for all of them. A popped request is leased, not removed: a killed worker's requests come back to the
others (docs/OPERATIONS.md, "What survives what"). Run the frontier's Redis with settings/redis.conf (AOF).
"""

import os

from settings.production import *  # noqa: F403  (a settings module extends another by design)

# The frontier: scrapy-redis's scheduler, keyed per crawl (journals.scheduler.frontier). Persist, so that the worker
# that finishes first does not clear the queue and duplicate filter the others still use; the keys expire instead.
SCHEDULER = "journals.scheduler.frontier.SharedFrontierScheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
SCHEDULER_QUEUE_CLASS = "scrapy_redis.queue.PriorityQueue"
SCHEDULER_PERSIST = True
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CRAWL_ID = os.environ.get("CRAWL_ID", "")
# The frontier's FRONTIER_* timings are set in settings.default.

# Rows and the page cache on the shared database (DATABASE_URL from the environment, see settings.production): the
# cache is what lets another worker redo a dead worker's leases without fetching its pages again.
# Smaller batches: a lease is released once the batch holding its journals is committed, so a worker holds fewer.
DATABASE_BATCH_SIZE = 20

# Remote-access services: never on a worker.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # 2.19 RemoteControl extension (runs submitted code)
