"""``urljoin`` and ``urlsplit``, exactly, without parsing the URLs a page's links mostly are.

A list page's every link is made absolute, then split to be judged: ``urljoin`` parses the base and the link each
time, ``urlsplit`` checks and copies every URL it is given. Most links are root-relative paths (``/journal/acta``)
or absolute URLs of the page's own scheme, whose result the standard functions would give unchanged: those are
answered by string tests; anything else goes to the standard functions, so every answer is theirs. Pure code.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urljoin, urlsplit

_NOT_PLAIN_PATH = re.compile(r"//|/\.|[\t\r\n]")
"""What makes ``urljoin`` rewrite a root-relative link: empty or dot segments, and the bytes ``urlsplit`` drops."""
_NOT_PLAIN_URL = re.compile(r"[\t\r\n;\[\]]")
"""What ``urlsplit`` drops or checks in an absolute URL (tabs and newlines, IPv6 brackets), and the ``;`` of path
parameters that ``urljoin`` takes apart and puts back."""
_SCHEMES = ("http://", "https://")


def join_url(base: str, origin: str, href: str) -> str:
    """``urljoin(base, href)``, ``origin`` being the base's ``scheme://netloc`` when it is http(s), else ``""``.

    Answered without ``urljoin`` when it would give ``href`` itself behind the origin (a root-relative path with no
    empty or dot segments, no ``;`` parameters, no empty query or fragment) or ``href`` as it is (an absolute URL
    of the base's scheme with a plain ASCII host, no parameters, no empty query or fragment).
    """
    if origin and href[:1] == "/":
        if not _NOT_PLAIN_PATH.search(href) and _delimiters_full(href) and ";" not in href.partition("?")[0]:
            return origin + href
    elif origin and href.startswith(origin[: origin.index(":") + 3]) and _plain_absolute(href):
        return href
    return urljoin(base, href)


def _delimiters_full(url: str) -> bool:
    """Whether a ``?`` or ``#`` in ``url`` is followed by a query or a fragment (``urlunsplit`` drops empty ones)."""
    head, hash_sign, fragment = url.partition("#")
    if hash_sign and not fragment:
        return False
    _, question, query = head.partition("?")
    return bool(query) or not question


def _plain_absolute(url: str) -> bool:
    """Whether the absolute http(s) ``url`` is one ``urljoin`` gives back unchanged on a base of its scheme."""
    start = url.index("://") + 3
    end = len(url)
    for delimiter in "/?#":
        found = url.find(delimiter, start)
        if 0 <= found < end:
            end = found
    return end > start and url[start:end].isascii() and not _NOT_PLAIN_URL.search(url) and _delimiters_full(url)


def split_url(url: str) -> SplitResult:
    """``urlsplit(url)``, built from the string's parts for an absolute http(s) URL with a plain ASCII host (the
    URLs links are made into), else ``urlsplit``'s own."""
    if not url.startswith(_SCHEMES) or _NOT_PLAIN_URL.search(url):
        return urlsplit(url)
    colon = url.index(":")
    rest = url[colon + 3 :]
    end = len(rest)
    for delimiter in "/?#":
        found = rest.find(delimiter)
        if 0 <= found < end:
            end = found
    netloc = rest[:end]
    if not netloc.isascii():
        return urlsplit(url)
    path, _, fragment = rest[end:].partition("#")
    path, _, query = path.partition("?")
    return SplitResult(url[:colon], netloc, path, query, fragment)


def host_of(parts: SplitResult) -> str:
    """``parts.hostname or ""``: a plain host (no user, port, brackets or zone) is its netloc in lower case, without
    the property's taking the netloc apart."""
    netloc = parts.netloc
    if "@" in netloc or ":" in netloc or "[" in netloc or "%" in netloc:
        return parts.hostname or ""
    return netloc.lower()
