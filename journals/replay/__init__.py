"""Offline replay of real saved publisher pages under their original URLs (``scrapy sandbox --replay``).

- :mod:`journals.replay.pages`: the saved pages of ``../shared/data/real`` (``manifest.json``) and the loose URL
  key they are compared by.
- :mod:`journals.replay.proxy`: an HTTP forward proxy on 127.0.0.1 serving them under their URLs (plain HTTP and
  ``CONNECT`` tunnels to TLS), a stub journal page for every other URL, every request recorded.

The measurement on them (``make eval-real``: its scoring and harness) is in the lab, :mod:`lab.replay`.
"""
