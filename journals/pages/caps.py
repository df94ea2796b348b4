"""Caps on how much of a wide page is parsed: the page cut just before its ``N+1``-th anchor or element.

A listing of hundreds of thousands of anchors costs more memory as an lxml tree than a crawl can spare, before any
analysis. libxml2's HTML parser reads in one pass and never reopens what it has closed, so the tree of a page's prefix
is the full tree's prefix: the elements started before the cut, with the same XPaths (the last ones lose what came after
the cut). So a page over
a cap is analysed as its first ``N`` anchors or elements, in document order, by the same code as any other page,
and the memory and time it takes are those of its prefix. lxml has no such cap of its own (``huge_tree`` lifts
libxml2's limits instead), and a pull parser cleared as it goes would need a second analysis written for it.

Tags are counted on the raw text with a regular expression, so ``<a`` inside a comment or a script counts too: the
cut comes at most that much earlier, and the count of tags left out is an estimate of the same kind.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

ANCHOR_TAG = re.compile(r"<a[\s/>]", re.IGNORECASE)
"""The start of an ``<a>`` tag (not ``<abbr>``, ``<area>``, ``<article>``...)."""
ELEMENT_TAG = re.compile(r"<[a-zA-Z]")
"""The start of any start tag: one element each."""


class PagePrefix(NamedTuple):
    """A page cut before its ``limit + 1``-th tag of a kind, and how many such tags it left out."""

    page: str | bytes
    """The page itself when it has ``limit`` such tags or fewer, else its text before the first tag left out."""
    left_out: int
    """Tags of the kind after the cut: 0 when the page was not cut."""


def page_prefix(page: str | bytes, tag: re.Pattern[str], limit: int) -> PagePrefix:
    """The page up to (not including) its ``limit + 1``-th match of ``tag``, and the matches left out.

    A ``bytes`` page is searched with the same expression on bytes (ASCII-compatible encodings: the cut falls on
    a ``<``, never inside a multi-byte character). One pass over the page, whatever ``limit``; none in Python when
    the page holds no more than ``limit`` ``<`` at all and every match of ``tag`` starts with one (most pages:
    counting them is a C loop, going through the matches a Python one).
    """
    if tag.pattern.startswith("<"):
        brackets = page.count(b"<") if isinstance(page, bytes) else page.count("<")
        if brackets <= limit:
            return PagePrefix(page, 0)
    starts = (m.start() for m in _bytes_pattern(tag).finditer(page)) if isinstance(page, bytes) else (
        m.start() for m in tag.finditer(page)
    )
    cut = -1
    count = 0
    for count, start in enumerate(starts, 1):
        if count == limit + 1:
            cut = start
    if cut < 0:
        return PagePrefix(page, 0)
    return PagePrefix(page[:cut], count - limit)


@functools.cache
def _bytes_pattern(pattern: re.Pattern[str]) -> re.Pattern[bytes]:
    """``pattern`` compiled for ``bytes`` (an ASCII expression)."""
    return re.compile(pattern.pattern.encode("ascii"), pattern.flags & ~re.UNICODE)
