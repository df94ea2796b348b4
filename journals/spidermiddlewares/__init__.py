"""Spider middlewares: resuming a crawl after a crash with the database as the record of what is done."""
