"""The listing pages a crawl's journal requests refer to, kept once per page rather than copied into each request.

A journal's request names its listing page by URL; the MDR pipeline reads the journal's record (title, row cells)
off that page. A request pickled into ``JOBDIR`` or Redis therefore stays a few hundred bytes whatever the listing's
size. The page itself is in memory while recent (bounded in characters, oldest dropped first) and in the page
cache for good: a resumed crawl, or another worker of a distributed one, reads it from there.
"""

from __future__ import annotations

from collections import OrderedDict

DEFAULT_MAX_CHARS = 64 * 1024 * 1024
"""Characters of listing HTML kept in memory by default (``LISTING_MEMORY_CHARS``)."""


class RecentListings:
    """The most recent listing pages' HTML by URL, at most ``max_chars`` characters in all (the latest page is
    always kept, whatever its size)."""

    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.max_chars = max_chars
        self._pages: OrderedDict[str, str] = OrderedDict()
        self._chars = 0

    def keep(self, url: str, html: str) -> None:
        """Remember ``html`` as the listing page at ``url``, dropping the oldest pages beyond the bound."""
        self._chars -= len(self._pages.pop(url, ""))
        self._pages[url] = html
        self._chars += len(html)
        while self._chars > self.max_chars and len(self._pages) > 1:
            _, dropped = self._pages.popitem(last=False)
            self._chars -= len(dropped)

    def get(self, url: str) -> str | None:
        """The listing page at ``url`` if still in memory."""
        html = self._pages.get(url)
        if html is not None:
            self._pages.move_to_end(url)
        return html

    def __len__(self) -> int:
        return len(self._pages)
