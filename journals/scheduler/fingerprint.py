"""Request fingerprints that tell a script's routes apart.

Scrapy's fingerprint drops a URL's fragment, which is right for ``#section`` but wrong for a hash router's pages:
``/#!/journal/acta`` and ``/#!/journal/bmj`` are two journals that the server answers with one shell and the
browser shows as two views. Without their route in the fingerprint, the duplicate filter would drop all but the
first, and the page cache would keep one page for all of them.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.utils.request import RequestFingerprinter, fingerprint

from journals.pages.scope import route_of


class RouteFingerprinter(RequestFingerprinter):
    """``REQUEST_FINGERPRINTER_CLASS``: Scrapy's fingerprint, with the URL's fragment kept when it is a script's
    route (:func:`journals.pages.scope.route_of`); every other request's fingerprint is Scrapy's own."""

    def fingerprint(self, request: Request) -> bytes:
        """The request's fingerprint, its route fragment included."""
        if route_of(request.url):
            return fingerprint(request, keep_fragments=True)
        return super().fingerprint(request)
