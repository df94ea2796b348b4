"""The one page a command reads (``scrapy extract``, ``scrapy mdr``): a file or a URL, decoded and parsed as a crawl
decodes and parses a page (:class:`journals.pages.parsed.ParsedPage`)."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from scrapy.exceptions import UsageError

from journals.pages.decoding import looks_binary
from journals.pages.parsed import ParsedPage

FETCH_TIMEOUT_SECS = 30
USER_AGENT = "journals-command"


def load_page(page_or_url: str) -> ParsedPage:
    """The page of a local file, or of an ``http(s)``/``file`` URL fetched with urllib (its ``Content-Type``
    charset weighed as a crawl weighs it); :class:`UsageError` naming the problem when it cannot be read or is
    binary (a PDF), as the crawl skips a binary page."""
    content_type = None
    if page_or_url.startswith(("http://", "https://", "file://")):
        request = urllib.request.Request(page_or_url, headers={"User-Agent": USER_AGENT})
        try:
            with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_SECS) as response:
                body, content_type = response.read(), response.headers.get("Content-Type")
        except OSError as error:
            raise UsageError(f"cannot fetch {page_or_url}: {error}") from error
    else:
        try:
            body = Path(page_or_url).read_bytes()
        except OSError as error:
            raise UsageError(f"cannot read {page_or_url}: {error.strerror}") from error
    if looks_binary(body):
        raise UsageError(f"{page_or_url} is no web page: its bytes are binary (an image, a PDF, an archive?)")
    return ParsedPage.from_body(page_or_url, body, content_type)
