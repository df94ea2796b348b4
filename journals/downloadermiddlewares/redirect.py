"""Redirects that come back to a page already on the way: a loop, stopped at once and told as such.

Scrapy's ``RedirectMiddleware`` follows a loop (``/a`` → ``/a/`` → ``/a``) until the duplicate filter drops the
request that comes back, at DEBUG level: the journal is lost with no failed page counted and nothing above DEBUG.
This subclass ends a loop where it is seen, with an ``IgnoreRequest`` whose reason the spider's errback counts as a
failed page (``journals/failed_pages/redirect_loop``).
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.exceptions import IgnoreRequest

from journals.pages.scope import canonical_url

REDIRECT_LOOP = "redirect loop"
"""The reason of the ``IgnoreRequest`` of a redirect back to a URL its chain has passed."""

logger = logging.getLogger(__name__)


class RedirectLoopMiddleware(RedirectMiddleware):
    """``DOWNLOADER_MIDDLEWARES`` entry in place of Scrapy's ``RedirectMiddleware``: the same redirects, but one back
    to a URL the chain already passed (its canonical form) ends the chain as a redirect loop."""

    def _redirect(self, redirected: Request, request: Request, reason: Any) -> Request:
        """Scrapy's redirect, unless ``redirected`` goes back to a URL of the chain so far."""
        chain = {canonical_url(url) for url in (*request.meta.get("redirect_urls", ()), request.url)}
        if canonical_url(redirected.url) in chain:
            logger.debug("Discarding %s: it redirects back to %s", request, redirected.url)
            raise IgnoreRequest(REDIRECT_LOOP)
        return super()._redirect(redirected, request, reason)
