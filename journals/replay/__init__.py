"""Offline replay of real saved publisher pages under their original URLs, and the measurement on them.

- :mod:`journals.replay.pages`: the saved pages of ``../shared/data/real`` (``manifest.json``) and the loose URL
  key they are compared by.
- :mod:`journals.replay.proxy`: an HTTP forward proxy on 127.0.0.1 serving them under their URLs (plain HTTP and
  ``CONNECT`` tunnels to TLS), a stub journal page for every other URL, every request recorded.
- :mod:`journals.replay.scoring`: recall and precision of a crawl of a list page, right/wrong/missing per attribute
  of a journal page's extraction.
- :mod:`journals.replay.evaluation`: ``make eval-real``, the harness that runs both and prints the table.
"""
