"""A page's ``<meta http-equiv="refresh">``, read off the tree the page was parsed into.

Scrapy's ``MetaRefreshMiddleware`` finds it by decoding every response and scanning its first 4,096 characters with
regular expressions, on the reactor. The crawl parses every page anyway (in its analysis thread), so the refresh is
read there, from the tree, as w3lib's ``get_meta_refresh`` reads it: the first ``<meta>`` whose ``http-equiv``
names a refresh and whose ``content`` is ``SECONDS; url=URL``, outside the ignored tags (``METAREFRESH_IGNORE_TAGS``:
a ``<noscript>`` refresh is for browsers without scripts), its URL made absolute against the page's ``<base href>``.
Pure: no Scrapy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urljoin

from lxml import etree
from w3lib.url import safe_url_string

from journals.pages.parsed import ParsedPage

_REFRESH_METAS = etree.XPath(
    "//meta[contains(translate(@http-equiv, 'REFSH', 'refsh'), 'refresh')][@content]",
)
"""The ``<meta>`` elements that may declare a refresh, in document order (one pass of libxml2 over the tree)."""
_MAY_REFRESH = "refresh"
"""A page not parsed yet whose text never says "refresh" (in any case: looked for in its case-folded text, which
holds every spelling a case-insensitive search finds) declares no refresh: it is not parsed to find that out (a
wide listing's whole tree is hundreds of MB; the page is otherwise read by its prefixes). A substring search of the
folded text, not a case-insensitive regex search, which goes character by character over the whole page. A page
already parsed is asked its tree alone: libxml2 finds its refresh metas in a fifth of the time the text takes to
fold (and finds one whose ``http-equiv`` is written with character references, which the text does not show)."""
_CONTENT = re.compile(
    r"\s*(?P<seconds>([0-9]*\.)?[0-9]+)\s*;\s*url=\s*(?P<url>.*)", re.DOTALL | re.IGNORECASE | re.ASCII
)
"""A refresh's ``content``: its delay in seconds (ASCII digits, as the HTML refresh steps read it) and its URL; a
refresh without ``url=`` reloads the page itself and leads nowhere."""


class MetaRefresh(NamedTuple):
    """A refresh a page declares: after ``seconds``, go to ``url`` (absolute)."""

    seconds: float
    url: str


@dataclass(frozen=True)
class RefreshRule:
    """Which refreshes are followed: those outside ``ignore_tags`` (``METAREFRESH_IGNORE_TAGS``) due in less than
    ``max_delay`` seconds (``METAREFRESH_MAXDELAY``), as Scrapy's middleware follows them."""

    ignore_tags: tuple[str, ...] = ("noscript",)
    max_delay: float = 100

    def followed(self, page: ParsedPage) -> MetaRefresh | None:
        """The refresh of ``page`` to follow (:func:`meta_refresh`, due in time); None when there is none."""
        refresh = meta_refresh(page, self.ignore_tags)
        return refresh if refresh is not None and refresh.seconds < self.max_delay else None


def meta_refresh(page: ParsedPage, ignore_tags: tuple[str, ...] = ("noscript",)) -> MetaRefresh | None:
    """The refresh ``page`` declares to another URL (see the module's docstring); None when it declares none.

    ``ignore_tags``: a refresh inside one of these elements is not the page's (``METAREFRESH_IGNORE_TAGS``)."""
    if not page.has_tree and _MAY_REFRESH not in page.text.casefold():
        return None
    tree = page.tree
    if tree is None:
        return None
    ignored = {tag.lower() for tag in ignore_tags}
    for meta in _REFRESH_METAS(tree):
        if ignored and any(isinstance(a.tag, str) and a.tag.lower() in ignored for a in meta.iterancestors()):
            continue
        found = _CONTENT.match(meta.get("content") or "")
        if found is None:
            continue
        base = urljoin(page.url, tree.xpath("string(//base/@href)") or page.url)
        url = safe_url_string(found.group("url").strip(" \"'"), page.charset)
        return MetaRefresh(float(found.group("seconds")), urljoin(base, url))
    return None
