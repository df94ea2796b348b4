"""Settings modules of the ``journals`` project, and the domain data they point to.

``default`` crawls into a local SQLite file with a page cache and polite defaults; ``production`` reads the
database from ``DATABASE_URL`` and throttles itself. ``vocabulary.json`` (attributes, value types, labels) and
``sites.json`` (the one list of sites: each one's kind, a real publisher's start URL and hosts) are data, read
with :func:`pkgutil.get_data` so they travel inside a scrapyd egg.
"""
