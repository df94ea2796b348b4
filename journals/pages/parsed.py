"""One parsed page: its decoded text and the one lxml tree navigation, MDR, extraction and structured data all read.

A page is decoded once (:func:`journals.pages.decoding.decode_html`) and parsed once, with one parser set-up
(:data:`PARSER`), so an XPath MDR finds is evaluated by the extraction on the very tree it was found on. What is
derived from the tree (MDR's tag tree and regions) is computed lazily and once (:meth:`ParsedPage.once`). The tree is
raw lxml, not ``parsel``: every page of a crawl goes through it, and a plain ``_Element`` proxy costs a quarter of
an ``lxml.html`` one to create. Pure code: no Scrapy.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple, TypeVar, cast

from lxml import etree

from journals.pages.caps import page_prefix
from journals.pages.decoding import declared_encoding, decode_html_body

T = TypeVar("T")

_OPTIONS: dict[str, Any] = {"remove_pis": True, "default_doctype": False, "huge_tree": True}
"""libxml2's HTML parse, as ``lxml.html`` does it, with processing instructions dropped (the extraction's XPaths
count text nodes, and a PI splits one) and no made-up DOCTYPE node (which no XPath sees). IDs are still collected:
microdata's ``itemref`` is resolved with XPath's ``id()``.

``huge_tree``: without it libxml2 stops at 255 nested elements and drops the rest of the page in silence (a listing
nested 300 deep gave no journal); with it a page is read down to libxml2's own limit of 2,048 levels, its elements
kept down to :data:`MAX_DEPTH`. Memory stays within the wide-page bounds: a page is at most ``DOWNLOAD_MAXSIZE``
and its analyses read the first ``MAX_ANCHORS_PER_PAGE`` anchors and ``MDR_MAX_NODES`` elements
(:mod:`journals.pages.caps`); what ``huge_tree`` also lifts (a text node over 10 MB) is bounded by the same size."""
MAX_DEPTH = 400
"""How deep a page's elements are kept as elements: below it, an element's descendants are kept as their text
alone (an ISSN or a title nested 3,000 deep is still read, its markup is not), and the page says so
(:attr:`ParsedPage.depth_cut`). The tree's readers walk it recursively, a Python frame or two per level, within
Python's recursion limit of 1,000; libxml2 itself stops at 2,048 even with ``huge_tree`` (what is deeper than
that is lost, and said too)."""
_AT_MAX_DEPTH = etree.XPath("/" + "/".join(["*"] * MAX_DEPTH))
"""The elements at :data:`MAX_DEPTH` (the root element is at 1): one pass of libxml2 over the tree, which ends
where the page's nesting does."""
PARSER = etree.HTMLParser(**_OPTIONS)
"""The parser of every page's bytes: libxml2 reads the charset from the bytes (``<meta>``, BOM)."""
UTF8_PARSER = etree.HTMLParser(encoding="utf-8", **_OPTIONS)
"""The parser of decoded text, handed to lxml as UTF-8 bytes whatever charset its ``<meta>`` once declared."""
UTF8_KEPT_BYTES = 2_000_000
"""The largest body a :class:`ParsedPage` keeps beside its text until it is parsed (the body of a wide listing,
often read by its prefixes alone, would double what the page holds)."""


MINING_PARSER = etree.HTMLParser(collect_ids=False, **_OPTIONS)
"""The parser of a page's bytes that only MDR reads (:func:`journals.mdr.mining.mine_data_regions` given bytes:
the labelled sets, ``scrapy mdr``): :data:`PARSER` without the hash table of ``id`` attributes, which only
XPath's ``id()`` reads (microdata's ``itemref``, in the extraction), 5–10% of libxml2's parse. Same elements, same
text, same XPaths."""

_thread_parsers = threading.local()
"""Each thread's own copies of the three parsers: a parser's error log (which tells a cut at :data:`MAX_DEPTH`)
is that of its last parse, and pages are parsed in several threads at once."""


def _parser(kind: str) -> etree.HTMLParser:
    """This thread's parser of ``kind`` (``bytes``, ``text`` or ``mining``), set up as the module's."""
    parsers: dict[str, etree.HTMLParser] | None = getattr(_thread_parsers, "parsers", None)
    if parsers is None:
        parsers = {
            "bytes": etree.HTMLParser(**_OPTIONS),
            "text": etree.HTMLParser(encoding="utf-8", **_OPTIONS),
            "mining": etree.HTMLParser(collect_ids=False, **_OPTIONS),
        }
        _thread_parsers.parsers = parsers
    return parsers[kind]


class ParsedTree(NamedTuple):
    """A document's root element and whether elements nested deeper than :data:`MAX_DEPTH` were stripped (their
    text kept) or left out by libxml2."""

    root: etree._Element | None
    depth_cut: bool


def parse_tree(html: str | bytes, *, ids: bool = True) -> ParsedTree:
    """The document's root element with the one parser set-up (None for an empty or unparsable document), and
    whether it was cut at :data:`MAX_DEPTH`.

    Without ``ids``, bytes are parsed by a :data:`MINING_PARSER` (for a tree no XPath ``id()`` reads)."""
    if isinstance(html, str):
        return _parse(html.encode("utf-8", errors="replace"), _parser("text"))
    return _parse(html, _parser("bytes" if ids else "mining"))


def parse_utf8(body: bytes) -> ParsedTree:
    """:func:`parse_tree` of ``body.decode("utf-8")``, for a body that is exactly the UTF-8 of its text
    (:attr:`~journals.pages.decoding.DecodedHtml.utf8`): read as that text is, whatever charset the page declares,
    without the text encoded back to the same bytes first."""
    return _parse(body, _parser("text"))


def _parse(data: bytes, parser: etree.HTMLParser) -> ParsedTree:
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, ValueError):
        return ParsedTree(None, False)
    cut = any("Excessive depth" in error.message for error in parser.error_log)
    if root is not None and _flatten_deep(root):
        cut = True
    return ParsedTree(root, cut)


def _flatten_deep(root: etree._Element) -> int:
    """Strip the tags below :data:`MAX_DEPTH`, keeping their text in place; return how many elements were
    stripped."""
    stripped = 0
    for element in _AT_MAX_DEPTH(root):
        if len(element):
            stripped += sum(1 for _ in element.iterdescendants())
            etree.strip_tags(element, "*")
    return stripped


def parse_html(html: str | bytes, *, ids: bool = True) -> etree._Element | None:
    """The document's root element with the one parser set-up; None for an empty or unparsable document.

    Without ``ids``, bytes are parsed by :data:`MINING_PARSER` (for a tree no XPath ``id()`` reads)."""
    return parse_tree(html, ids=ids).root


class TreePrefix(NamedTuple):
    """The tree of a page's prefix (:mod:`journals.pages.caps`) and how many tags of the kind it left out."""

    root: etree._Element | None
    left_out: int


class ParsedPage:
    """A page's URL, decoded text and charset, and its lxml tree (parsed on first use, then kept)."""

    def __init__(
        self, url: str, text: str, charset: str = "utf-8", *, charset_corrected: bool = False, utf8: bytes | None = None
    ) -> None:
        """A page of ``text``; ``utf8``, when given, is exactly ``text`` in UTF-8 (its body as served), parsed in
        its place (the text is not encoded back to the same bytes)."""
        self.url = url
        self.text = text
        """The decoded text, without the characters lxml refuses."""
        self.charset = charset
        """The encoding the text was decoded with."""
        self.charset_corrected = charset_corrected
        """Whether the page declared another charset than the one its bytes are valid in."""
        self._utf8 = utf8 if utf8 is not None and len(utf8) <= UTF8_KEPT_BYTES else None
        self._derived: dict[object, Any] = {}
        self._depth_cut = False
        self._parsed = False
        """Whether a tree of the page, whole or a prefix's, has been parsed (and :attr:`_depth_cut` says of it)."""

    @classmethod
    def from_body(cls, url: str, body: bytes, content_type: str | None = None) -> ParsedPage:
        """The page of a response body, decoded by :func:`~journals.pages.decoding.decode_html` (not parsed yet)."""
        text, charset, utf8 = decode_html_body(body, content_type)
        declared = declared_encoding(body, content_type)
        return cls(url, text, charset, charset_corrected=declared is not None and declared != charset, utf8=utf8)

    @cached_property
    def tree(self) -> etree._Element | None:
        """The document's root element (:func:`parse_tree` of the text), None for an empty or unparsable page."""
        if not self.text:
            return None
        parsed = parse_tree(self.text) if self._utf8 is None else parse_utf8(self._utf8)
        self._utf8 = None  # read: the text alone is kept
        self._parsed = True
        self._depth_cut = self._depth_cut or parsed.depth_cut
        return parsed.root

    @property
    def has_tree(self) -> bool:
        """Whether :attr:`tree` was parsed already (asking costs nothing; reading :attr:`tree` may parse)."""
        return "tree" in self.__dict__

    @property
    def depth_cut(self) -> bool:
        """Whether the trees read of the page (its :attr:`tree`, or the prefix trees of a wide page) nest elements
        deeper than :data:`MAX_DEPTH`, kept as their text only. Asked of a page no tree was read of yet, it parses
        the page; asked of a wide page read by its prefixes, it answers for them without parsing the whole page
        (a 13 MB listing's whole tree takes hundreds of MB and a second)."""
        if not self._parsed:
            self.tree  # noqa: B018 - parsed on first use
        return self._depth_cut

    def prefix_tree(self, tag: re.Pattern[str], limit: int) -> TreePrefix:
        """The tree of the page up to its ``limit + 1``-th ``tag`` (:func:`~journals.pages.caps.page_prefix`): the
        page's own :attr:`tree` when it has no more, else a tree of the prefix alone (a wide page costs its cap)."""
        prefix, left_out = page_prefix(self.text, tag, limit)
        if not left_out:
            return TreePrefix(self.tree, 0)
        if not prefix:
            return TreePrefix(None, left_out)
        parsed = parse_tree(prefix)
        self._parsed = True
        self._depth_cut = self._depth_cut or parsed.depth_cut
        return TreePrefix(parsed.root, left_out)

    def once(self, key: object, compute: Callable[[ParsedPage], T]) -> T:
        """What ``compute`` derives from this page, computed on the first call for ``key`` and kept."""
        if key not in self._derived:
            self._derived[key] = compute(self)
        return cast(T, self._derived[key])

    def kept(self, key: object) -> Any:
        """What :meth:`once` computed for ``key``, None when it was not asked for yet (nothing is computed)."""
        return self._derived.get(key)

    def forget(self, key: object) -> None:
        """Drop what :meth:`once` computed for ``key`` (its last reader is done with it; the page stays kept)."""
        self._derived.pop(key, None)

    def __repr__(self) -> str:
        return f"<ParsedPage {self.url} {len(self.text)} characters>"


def as_parsed(page: ParsedPage | str | bytes, url: str = "") -> ParsedPage:
    """``page`` itself, or a page of that HTML (bytes are decoded by :func:`~journals.pages.decoding.decode_html`)."""
    if isinstance(page, ParsedPage):
        return page
    if isinstance(page, bytes):
        return ParsedPage.from_body(url, page)
    return ParsedPage(url, page)


class RecentPages:
    """The most recent parsed pages by URL, at most ``max_chars`` characters of text in all, oldest dropped first.

    A crawl's spider parses each page in its analysis thread and leaves it here; the pipelines take it rather than
    parse the page again. An item carries only the page's URL and text (it stays exportable, and small when a
    request is pickled); a page dropped or never kept (a resumed crawl) is parsed again from its text. The bound
    keeps trees of a few hundred pages at most: items leave the spider for the pipelines within moments.

    Why a registry by URL rather than the tree in the item or in ``cb_kwargs``: an item's fields are exported and a
    request's ``cb_kwargs`` are pickled into ``JOBDIR`` or Redis, and neither may hold a tree. Pages are kept and
    taken on the reactor thread; a tree is parsed in the spider's analysis thread and only read afterwards, by one
    thread at a time (lxml allows a tree to be read in another thread than the one that parsed it; none is modified).
    """

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self._pages: OrderedDict[str, ParsedPage] = OrderedDict()
        self._chars = 0

    def keep(self, page: ParsedPage) -> None:
        """Remember ``page`` under its URL, dropping the oldest pages beyond the bound (never ``page`` itself)."""
        self._forget(page.url)
        self._pages[page.url] = page
        self._chars += len(page.text)
        while self._chars > self.max_chars and len(self._pages) > 1:
            _, dropped = self._pages.popitem(last=False)
            self._chars -= len(dropped.text)

    def get(self, url: str) -> ParsedPage | None:
        """The page at ``url`` if kept (it stays kept)."""
        return self._pages.get(url)

    def take(self, url: str) -> ParsedPage | None:
        """The page at ``url`` if kept, forgotten now (a journal page is read by one item)."""
        return self._forget(url)

    def _forget(self, url: str) -> ParsedPage | None:
        page = self._pages.pop(url, None)
        if page is not None:
            self._chars -= len(page.text)
        return page

    def __len__(self) -> int:
        return len(self._pages)
