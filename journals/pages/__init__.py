"""One page, read: its bytes decoded, parsed once into one tree, capped when wide, its links and journal list found,
its script signs read, and where a crawl may go from it.

Pure modules: they import neither Scrapy nor the database; the spider and the middlewares call them.
"""
