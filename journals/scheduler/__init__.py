"""The scheduler's parts: the shared frontier of a distributed crawl (scrapy-redis with leases), its leased queue,
the ledger of records the database holds, and the request fingerprint its duplicate filter and the cache use."""
