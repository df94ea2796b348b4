"""Downloader middlewares, as Scrapy lays them out: the crawl's scope (``offsite``), robots.txt read as RFC 9309
says (``robotstxt``), rate limits (``ratelimit``), the page cache kept in the database (``httpcache``), and rendering
in a browser (``rendering``) with the download handler that runs it (``playwright_handler``; the browser's own,
``playwright_browser``, imported at the first render)."""
