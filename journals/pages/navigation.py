"""The paper's heuristic navigation of an A–Z journal index, on one page's HTML: no site-specific XPath.

Anchors are classified by their text and position: A–Z letters (and ``0-9``, ``#``, two-letter sub-indexes),
pagination, the hop from a start page to the A–Z page, the hop from a journal page to its metrics page, and the
journal entries of a listing page (the largest repeated group of content anchors). Pure code over the page's one
lxml tree (:class:`journals.pages.parsed.ParsedPage`): raw lxml rather than ``parsel``, since every page's every
anchor is read here.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import pkgutil
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple
from urllib.parse import urlencode, urljoin, urlsplit

from lxml import etree

from journals.pages.caps import ANCHOR_TAG
from journals.pages.entries import find_journal_list
from journals.pages.parsed import ParsedPage, as_parsed
from journals.pages.scope import ROUTE_FRAGMENT
from journals.pages.urls import host_of, join_url, split_url
from journals.pages.visibility import is_hidden

CHROME_TAGS = frozenset({"nav", "header", "footer", "aside"})
"""Anchors inside these are site chrome: never pagination (``nav`` aside), and their groups count less as lists."""
SKIPPED_SCHEMES = ("javascript:", "mailto:", "tel:", "#")
"""Starts of an ``href`` that goes to no page: scripts, mail, phones and places in this page (but a script's route,
``#/…`` or ``#!/…``, which is a page of a hash router: :func:`goes_nowhere`)."""


def goes_nowhere(href: str) -> bool:
    """Whether an ``href`` (stripped) leads to no page: empty, or one of :data:`SKIPPED_SCHEMES` but a route."""
    return not href or (href.startswith(SKIPPED_SCHEMES) and not ROUTE_FRAGMENT.match(href))


RECORD_TAGS = frozenset({"li", "tr", "dd", "dt", "article"})
"""An anchor's row: the text around it there (an ISSN, "journal") says what the anchor links to."""
RECORD_TEXT_LIMIT = 400
ANCHOR_TEXT_LIMIT = 1000
"""An anchor's text is cut here: no letter, page link, hop or journal title reads that long, and an anchor wrapped
around half a page (anchors may nest) must not copy it."""
MAX_ANCHORS_PER_PAGE = 50_000
"""Anchors read per page, the first in document order (the project setting is ``MAX_ANCHORS_PER_PAGE``): the
far above the largest real list saved; a listing of 200,000 costs too much memory as a parsed tree alone."""


RowTexts = Callable[[etree._Element], "str | None"]
"""What reads a row's text as :meth:`_Open.row_text` reads it (:func:`bounded_text` of its ``itertext()``, at most
:data:`RECORD_TEXT_LIMIT` long) without lxml reading the row's texts again; None when it cannot."""
RowReader = Callable[["ParsedPage", etree._Element], "RowTexts | None"]
"""What a links pass may be given to read its rows' texts (:data:`RowTexts`) on a page's own tree (its root)."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """One link of a page: absolute URL, normalised visible text, and where it sits."""

    url: str
    text: str
    """The anchor's visible text; else its image's ``alt`` or ``title``; else its own ``title``/``aria-label``."""
    chrome: str
    """The nearest chrome element around it (``nav``, ``header``, ``footer``, ``aside``), ``""`` if none."""
    group: str
    """The anchor's structural signature: tags and classes of its ancestors, no positions."""
    shape: str = ""
    """Its tags only, with the column of a table cell: a list split into boxes of different classes shares it."""
    record_text: str = ""
    """The visible text of the anchor's row (``li``, ``tr``, ``dd``, ``article``), when short."""

    @property
    def in_chrome(self) -> bool:
        """Whether the anchor sits inside site chrome."""
        return bool(self.chrome)


@dataclass(frozen=True)
class PageLinks:
    """The links of one page that the A–Z navigation follows, by kind."""

    letters: list[Anchor]
    pages: list[Anchor]
    content: list[Anchor]
    """Every other anchor with text: where :func:`journals.pages.entries.journal_entries` finds the list."""
    browse: list[Anchor]
    metrics: list[Anchor]
    truncated_anchors: int = 0
    """``<a>`` tags of the page past the cap that were not read (see :func:`read_anchors`): 0 for most pages."""

    @property
    def journals(self) -> list[Anchor]:
        """The page's journal entries, judged on this page alone."""
        found = find_journal_list(self.content)
        return found.anchors if found is not None else []  # type: ignore[return-value]


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    raw = pkgutil.get_data("settings", "vocabulary.json")
    assert raw is not None
    navigation = json.loads(raw)["navigation"]
    return {
        kind: re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
        for kind, patterns in navigation.items()
        if not kind.startswith("_")
    }


def normalise_text(text: str) -> str:
    """Collapse whitespace and strip; anchors are matched on this form."""
    return " ".join(text.split())


UNSEEN_TAGS = frozenset({"script", "style"})
"""Elements whose text a reader never sees."""


WALKED_LIMIT = ANCHOR_TEXT_LIMIT
"""A reading of at most this many letters walks the element, and stops where the limit is reached (an anchor's
text, whether a panel holds any): a longer or unlimited one is read whole, in C (:func:`_read_whole`)."""


def visible_text(
    element: etree._Element, limit: int | None = None, unseen: frozenset[str] = UNSEEN_TAGS, separator: str = ""
) -> str:
    """The element's text without its hidden descendants and ``unseen`` elements (scripts and styles),
    whitespace collapsed; with ``limit``, its first ``limit`` characters (reading stops there). Its pieces are
    joined by ``separator`` (a space keeps the words of two cells apart).

    A reading up to :data:`WALKED_LIMIT` letters walks the element until the limit; a longer one reads it whole
    and cuts it: the pieces a walk reads up to the one that takes it past the limit are a prefix of all of them,
    and their text, collapsed, already holds the limit's characters, so both cut the same text."""
    parts: list[str] = []
    if limit is not None and limit <= WALKED_LIMIT:
        _collect_within(element, parts, _Room(limit), unseen)
    else:
        _read_whole(element, parts, unseen)
    text = normalise_text(separator.join(parts))
    return text[:limit].rstrip() if limit is not None else text


def _read_whole(element: etree._Element, parts: list[str], unseen: frozenset[str]) -> None:
    """Add all the element's visible pieces to ``parts``, as :func:`_collect_within` adds them with no limit: its
    left-out descendants (hidden, ``unseen``, entities, which an HTML parser never makes) are found first, every
    element's attributes looked at in one pass over the tree, and only their ancestors are walked: any other
    element's pieces are read by lxml's ``itertext`` (its text and its descendants', with their tails, never a
    comment's or a processing instruction's), the tree's bulk read in C."""
    left_out = {child for child in element.iterdescendants(etree.Element) if is_hidden(child)}
    left_out.update(child for child in element.iterdescendants(*unseen) if child.tag in unseen)
    left_out.update(element.iterdescendants(etree.Entity))
    if not left_out:
        parts.extend(element.itertext())
        return
    walked: set[etree._Element] = set()
    for child in left_out:
        for ancestor in child.iterancestors():
            if ancestor is element or ancestor in walked:
                break
            walked.add(ancestor)
    _read_around(element, parts, left_out, walked)


def _read_around(
    element: etree._Element, parts: list[str], left_out: set[etree._Element], walked: set[etree._Element]
) -> None:
    """Add the element's pieces to ``parts``, but those of ``left_out`` elements; ``walked``: the elements that hold
    one, whose children are looked at one by one (any other is read whole)."""
    text = element.text
    if text:
        parts.append(text)
    for child in element:
        if child in left_out:
            pass
        elif child in walked:
            _read_around(child, parts, left_out, walked)
        elif isinstance(child.tag, str):
            parts.extend(child.itertext())
        text = child.tail
        if text:
            parts.append(text)


class _Room:
    """What is left of a reading's limit of letters (non-space characters), as :func:`_collect_within` keeps it.

    ``left`` is lowered by each piece's length, which is never less than its letters, so it can only reach 0
    early: then the letters of the pieces since the last count are counted (:meth:`recount`) and ``left`` is exact
    again. A piece's letters are counted once, and only on texts that come near the limit by their length."""

    __slots__ = ("counted", "left", "letters", "limit")

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.left = limit
        self.letters = 0
        self.counted = 0

    def recount(self, parts: list[str]) -> bool:
        """Count the letters of the pieces added since the last count; whether they are still within the limit."""
        self.letters += sum(len(word) for part in itertools.islice(parts, self.counted, None) for word in part.split())
        self.counted = len(parts)
        self.left = self.limit - self.letters
        return self.left >= 0


def _collect_within(element: etree._Element, parts: list[str], room: _Room, unseen: frozenset[str]) -> bool:
    """Add the element's visible pieces to ``parts`` (its text and its visible children's, with their tails: no
    ``unseen`` or hidden element) until more than the limit of letters are read (False: reading stopped at that
    piece), ``room`` counting them (see :class:`_Room`)."""
    text = element.text
    if text:
        parts.append(text)
        room.left -= len(text)
        if room.left < 0 and not room.recount(parts):
            return False
    for child in element:
        visible = isinstance(child.tag, str) and child.tag not in unseen and not is_hidden(child)
        if visible and not _collect_within(child, parts, room, unseen):
            return False
        text = child.tail
        if text:
            parts.append(text)
            room.left -= len(text)
            if room.left < 0 and not room.recount(parts):
                return False
    return True


def anchor_text(element: etree._Element) -> str:
    """What an anchor says: its visible text, else an image's ``alt``/``title``, else its ``title``/``aria-label``
    (an image map's area: its ``alt``)."""
    if len(element):
        text = visible_text(element, ANCHOR_TEXT_LIMIT)
    else:  # most anchors hold their text alone: it is all there is to read
        own = element.text
        text = normalise_text(own)[:ANCHOR_TEXT_LIMIT].rstrip() if own else ""
    if text:
        return text
    for image in element.iter("img"):
        text = normalise_text(image.get("alt") or image.get("title") or "")
        if text:
            return text
    return normalise_text(element.get("title") or element.get("aria-label") or element.get("alt") or "")


def anchors(page_html: ParsedPage | str, page_url: str, max_anchors: int = MAX_ANCHORS_PER_PAGE) -> list[Anchor]:
    """Every followable anchor of a page, in document order, with absolute URLs (fragments dropped).

    Script links (``href="#"``, ``javascript:``) are not followable: the list they would filter is read where it is.
    Only the page's first ``max_anchors`` ``<a>`` tags are read (see :func:`read_anchors`).
    """
    return read_anchors(page_html, page_url, max_anchors)[0]


def read_anchors(
    page_html: ParsedPage | str, page_url: str, max_anchors: int = MAX_ANCHORS_PER_PAGE
) -> tuple[list[Anchor], int]:
    """:func:`anchors`, and how many ``<a>`` tags past the first ``max_anchors`` were left unread.

    ``page_html`` is the parsed page (its tree is parsed now if it was not yet) or its HTML. A page over the cap
    is read on the tree of its prefix, cut before its ``max_anchors + 1``-th ``<a>`` tag
    (:meth:`ParsedPage.prefix_tree`), so time and memory follow the anchors read, not the page. The anchors' ancestors
    are opened once each, with what they pass on to their children (:class:`_Open`), so an anchor's chrome, group,
    shape and row cost the same at any depth, each row's text is read once, anchors in one list share their group
    and shape strings, and elements with no anchor below them cost nothing.
    """
    if not page_html:
        return [], 0
    root, left_out = as_parsed(page_html, page_url).prefix_tree(ANCHOR_TAG, max_anchors)
    if root is None:
        return [], left_out
    return _walk(root.iter("a"), *_base_and_origin(root, page_url)), left_out


def _walk(
    elements: Iterable[etree._Element],
    base: str,
    origin: str,
    walked: list[etree._Element] | None = None,
    rows: RowTexts | None = None,
) -> list[Anchor]:
    """The followable anchors of the ``<a>`` ``elements``, each to its own ``href``, in order; their ancestors are
    opened once each (:class:`_Open`), and each ``href`` is resolved once (a list's rows link the same pages
    from several cells). ``walked``, when given, gets each anchor's element; ``rows`` reads rows' texts where it
    can."""
    strings: _Paths = {}
    opened: dict[etree._Element, _Open] = {}
    urls: dict[str | None, str | None] = {}  # per href, its URL (None: not followed)
    found = []
    for element in elements:
        href = element.get("href")
        url = urls.get(href, "")  # no URL is "": not resolved yet
        if url == "":
            url = urls[href] = _link_url((href or "").strip(), base, origin)
        if url is None:
            continue
        parent = element.getparent()
        found.append(_anchor(element, url, _opened(parent, opened, strings) if parent is not None else None, rows))
        if walked is not None:
            walked.append(element)
    return found


def _walk_targets(targets: Iterable[tuple[etree._Element, str]], base: str, origin: str) -> list[Anchor]:
    """:func:`_walk` of elements that are no links, each with the URL it goes to."""
    strings: _Paths = {}
    opened: dict[etree._Element, _Open] = {}
    found = []
    for element, href in targets:
        url = _link_url(href.strip(), base, origin)
        if url is not None:
            parent = element.getparent()
            found.append(_anchor(element, url, _opened(parent, opened, strings) if parent is not None else None))
    return found


class ResolvedLinks(NamedTuple):
    """The absolute URLs the links pass resolved on a page's tree, by ``<a>`` element: kept with the parsed page
    (:meth:`ParsedPage.once`) for its listing index, which reads the same anchors (the crawl reads a list page's
    links, then indexes it, on the one page), rather than join every ``href`` again. URLs and elements only: the
    page is kept for the pipelines, and its anchors' texts and rows are read by the links pass alone."""

    page_url: str
    root: etree._Element
    """The tree read: the page's own, or its prefix's on a page of more than ``MAX_ANCHORS_PER_PAGE`` anchors."""
    base: str
    """The URL the links are relative to (the page's ``<base href>``, else its own)."""
    origin: str
    """The base's ``scheme://netloc``, ``""`` unless http(s)."""
    elements: list[etree._Element]
    """The followable anchors' ``<a>`` elements, in document order."""
    urls: list[str]
    """Each one's absolute URL, without its fragment unless that is a script's route (:func:`absolute_url`)."""


def resolved_links(page: ParsedPage) -> ResolvedLinks | None:
    """The links :func:`page_links` resolved on ``page``, None when it was not read for them (nothing is read now)."""
    found: ResolvedLinks | None = page.kept(ResolvedLinks)
    return found


def _base_and_origin(root: etree._Element, page_url: str) -> tuple[str, str]:
    """The URL a page's links are relative to (its ``<base href>``, else its own) and that URL's
    ``scheme://netloc`` (``""`` unless http(s))."""
    page = split_url(page_url)
    page_origin = f"{page.scheme}://{page.netloc}" if page.scheme in ("http", "https") else ""
    base = join_url(page_url, page_origin, base_href(root) or page_url)
    parts = page if base == page_url else split_url(base)
    return base, f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


def base_href(root: etree._Element) -> str:
    """The ``href`` of the page's first ``<base>`` that has one (``string(//base/@href)``), ``""`` when none: found
    by lxml's C iteration by tag, not by an XPath evaluated over the tree on every page."""
    for base in root.iter("base"):
        href: str | None = base.get("href")
        if href is not None:
            return href
    return ""


def _unlinked_letters(root: etree._Element, text: str, base: str, origin: str) -> list[Anchor]:
    """The A–Z letters of a page (``root`` its tree, ``text`` its HTML) that are no ``<a>`` links but go to a URL
    (:func:`control_target`: a control that goes there by script, an image map's area), as anchors to that URL."""
    if not any(marker in text for marker in LETTER_CONTROL_MARKERS):
        return []
    letter = _patterns()["letter"]
    return [a for a in _walk_targets(_letter_control_targets(root, text), base, origin) if letter.fullmatch(a.text)]


LETTER_CONTROLS = (
    (("onclick", "onClick"), etree.XPath("//*[@onclick]")),
    (("data-href", "data-url"), etree.XPath("//*[@data-href or @data-url]")),
    (
        ("javascript:",),
        etree.XPath("//a[starts-with(normalize-space(@href), 'javascript:')]"),
    ),
    (("<option",), etree.XPath("//option")),
    (("<area", "<AREA"), etree.XPath("//area[@href]")),
)
"""Elements that may go to a URL by script (``onclick``, ``data-href`` and ``data-url`` controls, ``javascript:``
links, a select's options) or are image-map areas, each query run only on a page whose text holds one of its
markers as usually written
(a query on the tree takes several times what looking for a string in the text takes)."""
LETTER_CONTROL_MARKERS = tuple(marker for markers, _ in LETTER_CONTROLS for marker in markers)
_URL_FORM = r"""(?:https?://|/|\.{1,2}/|\?)[^'"\s<>]*|[\w.-]+\.(?:s?html?|php|aspx?|jsp|cfm)(?:\?[^'"\s<>]*)?"""
"""What reads as a URL: absolute, root- or dot-relative, a query, or a page's file name (``list.php?l=B``)."""
_SCRIPT_URL = re.compile(rf"""['"]({_URL_FORM})['"]""", re.IGNORECASE)
"""A quoted URL in a script."""
_URL_VALUE = re.compile(_URL_FORM, re.IGNORECASE)


def _letter_control_targets(root: etree._Element, text: str) -> Iterator[tuple[etree._Element, str]]:
    """Controls of a page (``text`` its HTML) that go to a URL, with that URL (:func:`control_target`); links
    followed as links are left to the anchor walk."""
    seen: set[etree._Element] = set()
    for markers, query in LETTER_CONTROLS:
        if not any(marker in text for marker in markers):
            continue
        for element in query(root):
            if not isinstance(element, etree._Element) or element in seen:
                continue
            seen.add(element)
            href = (element.get("href") or "").strip()
            if element.tag == "a" and href and not href.startswith(("#", "javascript:")):
                continue
            if target := control_target(element):
                yield element, target


def control_target(element: etree._Element) -> str | None:
    """Where a control that is no ``<a>`` link goes, read off its markup, else None.

    - an image map's ``<area>``: its ``href``;
    - ``data-href``/``data-url``;
    - the first quoted URL of its ``onclick`` or ``javascript:`` href (``location.href='/az/b'``,
      ``goTo('list.php?l=B')``); a call with no URL (``showLetter('B')``) goes nowhere a crawler can follow;
    - an ``<option>``: its value when it reads as a URL (a ``<select>`` whose change goes to ``this.value``), else,
      in a select with a ``name`` inside a ``GET`` form, the form's URL with ``name=value`` (a select that submits
      its form).

    Why here: sites of every age keep their A–Z letters in such controls; reading their URLs costs a few queries on
    an index page with no linked letter, where rendering costs a browser and cannot follow a control that leaves
    the page.
    """
    if element.tag == "area":
        return (element.get("href") or "").strip() or None
    for attribute in ("data-href", "data-url"):
        if value := (element.get(attribute) or "").strip():
            return value
    if element.tag == "option":
        return _option_target(element)
    href = (element.get("href") or "").strip()
    script = element.get("onclick") or (href if href.lower().startswith("javascript:") else "")
    found = _SCRIPT_URL.search(script)
    return found.group(1) if found else None


def _option_target(option: etree._Element) -> str | None:
    """The URL an ``<option>`` stands for (see :func:`control_target`)."""
    value = (option.get("value") if option.get("value") is not None else option.text or "").strip()
    if _URL_VALUE.fullmatch(value):
        return value
    select = next(option.iterancestors("select"), None)
    form = next(option.iterancestors("form"), None)
    name = select.get("name") if select is not None else None
    if not (name and value and form is not None and (form.get("method") or "get").strip().lower() == "get"):
        return None
    return f"{(form.get('action') or '').strip()}?{urlencode({name: value})}"


def _opened(element: etree._Element, opened: dict[etree._Element, _Open], strings: _Paths) -> _Open:
    """The :class:`_Open` of ``element``, its ancestors' opened first (each once, kept in ``opened``): only the
    ancestors of anchors are ever opened, not every element of the page."""
    chain = []
    node: etree._Element | None = element
    while node is not None and node not in opened:
        chain.append(node)
        node = node.getparent()
    below = opened[node] if node is not None else None
    for ancestor in reversed(chain):
        below = opened[ancestor] = _Open.below(ancestor, below, strings)
    assert below is not None
    return below


def _link_url(href: str, base: str, origin: str) -> str | None:
    """The absolute URL a link's stripped ``href`` goes to (:func:`absolute_url`), None when it goes nowhere a
    crawler follows."""
    if goes_nowhere(href):
        return None
    url = absolute_url(href, base, origin)
    return url if _followable(url, origin) else None


def _anchor(element: etree._Element, url: str, parent: _Open | None, rows: RowTexts | None = None) -> Anchor:
    """The anchor ``element`` going to ``url``, inside ``parent``; its row is the nearest of its (up to) four nearest
    ancestors that is a record's element (:meth:`_Open.row`), its text read by ``rows`` where it can."""
    if parent is None:
        return Anchor(url=url, text=anchor_text(element), chrome="", group="", shape="")
    row = parent.row()
    return Anchor(
        url=url,
        text=anchor_text(element),
        chrome=parent.chrome,
        group=parent.group,
        shape=parent.shape,
        record_text=row.row_text(rows) if row is not None else "",
    )


def absolute_url(href: str, base: str, origin: str = "") -> str:
    """``urljoin(base, href)`` without its fragment, unless that is a script's route (``#!/journal/acta``:
    :func:`journals.pages.scope.route_of`); ``origin`` is the base's ``scheme://netloc`` (http(s) only).

    Joined by :func:`~journals.pages.urls.join_url` (most links of a wide page are root-relative paths or absolute
    URLs that ``urljoin`` would give back unchanged, and it parses both URLs each time).
    """
    head, hash_sign, _ = href.partition("#")
    if hash_sign and ROUTE_FRAGMENT.match(href, len(head)):
        return join_url(base, origin, href)
    if not head:  # the base itself, less its own fragment
        return urljoin(base, href).split("#", 1)[0]
    return join_url(base, origin, head)


def _followable(url: str, origin: str) -> bool:
    """Whether an absolute ``url`` goes to a page a crawler fetches: on the page's origin, or http(s)."""
    return (
        (bool(origin) and url.startswith(origin))
        or url.startswith(("http://", "https://"))
        or urlsplit(url).scheme in ("http", "https")
    )


_Paths = dict[tuple[str, str, str | int], str]
"""The group and shape paths made so far, by the parent's path and the step's tag and class (or column): a list's
anchors share one string, not a copy each."""


class _Open:
    """An element the walk is inside, and what its descendants inherit: the nearest chrome around them, their group
    (tags and classes of the ancestors) and shape (tags, with a cell's column)."""

    __slots__ = ("_columns", "_row", "_row_known", "_row_text", "chrome", "element", "group", "record", "shape", "up")

    def __init__(
        self,
        element: etree._Element,
        chrome: str,
        group: str,
        shape: str,
        up: _Open | None = None,
        *,
        record: bool = False,
    ) -> None:
        self.element = element
        self.up = up
        """The parent element's."""
        self.chrome = chrome
        self.group = group
        self.shape = shape
        self.record = record
        """Whether the element is a record's (:data:`RECORD_TAGS`)."""
        self._columns: dict[etree._Element, int] | None = None
        self._row: _Open | None = None
        self._row_known = False
        self._row_text: str | None = None

    @classmethod
    def below(cls, element: etree._Element, parent: _Open | None, strings: _Paths) -> _Open:
        """``element`` opened inside ``parent`` (None at the top); ``strings`` makes equal paths one string."""
        tag = element.tag
        klass = element.get("class", "")
        if parent is None:
            chrome = group_path = shape_path = ""
        else:
            chrome, group_path, shape_path = parent.chrome, parent.group, parent.shape
        if tag in CHROME_TAGS:
            chrome = tag
        elif element.get("role") == "navigation":
            chrome = "nav"
        column = (parent.column(element) if parent is not None else 0) if tag in ("td", "th") else -1
        group = strings.get((group_path, tag, klass))
        if group is None:
            step = f"{tag}.{klass}"
            group = strings[group_path, tag, klass] = f"{group_path}/{step}" if group_path else step
        shape = strings.get((shape_path, tag, column))
        if shape is None:
            step = f"{tag}[{column}]" if column >= 0 else tag
            shape = strings[shape_path, tag, column] = f"{shape_path}/{step}" if shape_path else step
        return cls(element, chrome, group, shape, parent, record=tag in RECORD_TAGS)

    def row(self) -> _Open | None:
        """The row of the anchors this element holds as a child: the nearest record's element among itself and its
        three nearest ancestors, looked for once."""
        if not self._row_known:
            found: _Open | None = self
            for _ in range(4):
                if found is None or found.record:
                    break
                found = found.up
            else:
                found = None
            self._row, self._row_known = found, True
        return self._row

    def column(self, cell: etree._Element) -> int:
        """A child cell's position among this element's children, as ``index()`` counts it (comments too): the
        children are numbered once, where ``index()`` would count the siblings before a cell for every cell (all
        of them: reading each one's tag to leave out what is no cell costs more than numbering it)."""
        if self._columns is None:
            self._columns = {child: n for n, child in enumerate(self.element)}
        return self._columns[cell]

    def row_text(self, rows: RowTexts | None = None) -> str:
        """This element's visible text as a row's, read once (a row holds several anchors): ``""`` when longer
        than a record's."""
        if self._row_text is None:
            known = rows(self.element) if rows is not None else None
            self._row_text = known if known is not None else bounded_text(self.element.itertext(), RECORD_TEXT_LIMIT)
        return self._row_text


def bounded_text(pieces: Iterable[str], limit: int) -> str:
    """The pieces joined with spaces, whitespace collapsed, or ``""`` when that is longer than ``limit``.

    Reading stops once the pieces hold more than ``limit`` non-space characters: a row that is half the page
    (a list nested in a list) costs no more than a short one. The pieces are taken in runs of
    :data:`TEXT_RUN` (a row's text is mostly indentation, a piece between each two tags), each run split into its
    words at once: its words are the words of the row's text it holds, and their letters count towards the limit.
    """
    pieces = iter(pieces)
    words: list[str] = []
    letters = 0
    while run := list(itertools.islice(pieces, TEXT_RUN)):
        found = " ".join(run).split()
        letters += sum(map(len, found))
        if letters > limit:
            return ""
        words += found
    text = " ".join(words)
    return text if len(text) <= limit else ""


TEXT_RUN = 64
"""Pieces of a row's text read at once by :func:`bounded_text`: a whole row, mostly."""


def classify(page_anchors: Iterable[Anchor], page_url: str = "") -> PageLinks:
    """Sort a page's anchors into letters, pagination, browse and metrics hops, and content.

    A letter is an anchor reading ``B``, ``0-9`` or ``Ab`` among anchors that mostly read so: a journal called
    "AI" or "C" in a list of journals is not an index. A page link ("2", "41-80", "Next ›") links to a page like
    this one (same path, or a sibling or child of it): "82" linking to a search of a journal's articles is not.
    """
    page_anchors = list(page_anchors)
    readings: dict[str, _Reading] = {}  # a text recurs on a page (a row's "RSS", a menu's items): read it once
    for anchor in page_anchors:
        if anchor.text not in readings:
            readings[anchor.text] = _Reading.of(anchor.text)
    letter_texts: dict[str, list[str]] = {}
    reads_letter = [readings[anchor.text].letter for anchor in page_anchors]
    for anchor, reads in zip(page_anchors, reads_letter, strict=True):
        if reads:
            letter_texts.setdefault(anchor.group, []).append(anchor.text)
    summaries = {group: _LetterGroup.of(texts) for group, texts in letter_texts.items()}
    letter_like = [
        reads and _is_index_letter(anchor.text, summaries[anchor.group])
        for anchor, reads in zip(page_anchors, reads_letter, strict=True)
    ]
    group_letters = Counter(a.group for a, like in zip(page_anchors, letter_like, strict=True) if like)
    # the sizes of the groups holding letters, the only ones asked for (a list page mostly has none)
    group_sizes = Counter(a.group for a in page_anchors if a.group in group_letters) if group_letters else Counter()
    letters, pages, browse, metrics, content = [], [], [], [], []
    for anchor, like in zip(page_anchors, letter_like, strict=True):
        text = anchor.text
        if like and group_letters[anchor.group] * 2 >= group_sizes[anchor.group]:
            letters.append(anchor)
        elif (reading := readings[text]).browse:
            browse.append(anchor)
        elif reading.metrics_page:
            metrics.append(anchor)  # a journal's own menu often holds "About the journal"
            content.append(anchor)  # and a list may hold journals called "Information" or "Metrics"
        elif anchor.chrome in ("", "nav") and reading.next_page and (not page_url or is_near(anchor.url, page_url)):
            pages.append(anchor)
        elif text:
            content.append(anchor)
    if page_url:  # a menu's "About" is the site's unless it names this journal
        metrics = [a for a in metrics if not a.chrome or is_about(a.url, page_url)]
    # Content links before menu links, and "About the journal" before a bare "About" that may be the site's.
    metrics.sort(key=lambda anchor: (anchor.in_chrome, " " not in anchor.text))
    return PageLinks(letters=letters, pages=pages, content=content, browse=browse, metrics=metrics)


class _Reading(NamedTuple):
    """What an anchor text reads as, by the navigation's patterns (:func:`_patterns`)."""

    letter: bool
    browse: bool
    metrics_page: bool
    next_page: bool

    @classmethod
    def of(cls, text: str) -> _Reading:
        """The reading of ``text``."""
        patterns = _patterns()
        return cls(
            bool(patterns["letter"].fullmatch(text)),
            bool(patterns["browse"].fullmatch(text)),
            bool(patterns["metrics_page"].fullmatch(text)),
            bool(patterns["next_page"].fullmatch(text)),
        )


class _LetterGroup(NamedTuple):
    """What the letter-like texts of one group say, worked out once per group (not once per anchor)."""

    single: bool
    """Some text is one character long."""
    alone: bool
    """The group has one letter-like text."""
    repeated_initial: bool
    """Two texts start with the same letter."""

    @classmethod
    def of(cls, texts: Sequence[str]) -> _LetterGroup:
        """The summary of a group's letter-like texts."""
        initials = Counter(t[0].upper() for t in texts)
        return cls(any(len(t) == 1 for t in texts), len(texts) == 1, max(initials.values()) > 1)


def _is_index_letter(text: str, group: _LetterGroup) -> bool:
    """Whether ``text``, a letter-like text, reads as an index letter among the letter-like texts of its group.

    A two-letter text is a sub-index ("Ab") unless its group reads like a language menu: two-letter texts
    only, each initial once ("EN", "DE", "FR").
    """
    if len(text) != 2 or not text.isalpha() or group.single:
        return True
    return group.alone or group.repeated_initial


def page_links(
    page_html: ParsedPage | str, page_url: str, max_anchors: int = MAX_ANCHORS_PER_PAGE, rows: RowReader | None = None
) -> PageLinks:
    """:func:`classify` the anchors of one page, the first ``max_anchors`` only (:attr:`PageLinks.truncated_anchors`
    says how many more it had). The URLs resolved are kept with the parsed page for its listing index
    (:class:`ResolvedLinks`): each anchor is resolved once, for the links, the journal list and the index. A page
    read on the tree of its prefix keeps none: that tree would outlive the pass beside the index's own. ``rows``,
    given the page's own tree (not a prefix's), may read its rows' texts (:data:`RowReader`)."""
    page = as_parsed(page_html, page_url)
    root, left_out = page.prefix_tree(ANCHOR_TAG, max_anchors)
    if root is None:
        return dataclasses.replace(classify([], page_url), truncated_anchors=left_out)
    base, origin = _base_and_origin(root, page_url)
    elements: list[etree._Element] = []
    row_texts = rows(page, root) if rows is not None and not left_out else None
    found = _walk(root.iter("a"), base, origin, elements, row_texts)
    if not left_out:  # a prefix's tree is this pass's alone (the index reads a prefix of its own): not kept alive
        urls = [anchor.url for anchor in found]
        page.once(ResolvedLinks, lambda _: ResolvedLinks(page_url, root, base, origin, elements, urls))
    links = classify(found, page_url)
    if not links.letters and (unlinked := _unlinked_letters(root, page.text, base, origin)):
        links = classify([*found, *unlinked], page_url)
    if "<option" in page.text and (options := _option_entries(root, base, origin)):
        links = dataclasses.replace(links, content=[*links.content, *options])
    return dataclasses.replace(links, truncated_anchors=left_out)


def _option_entries(root: etree._Element, base: str, origin: str) -> list[Anchor]:
    """A ``<select>``'s options that go to a page (their value a URL, or their GET form submitted with them), as
    content anchors: where a site's only journal list is a "Choose a journal… Go" menu, its options are the
    entries. Options reading as letters or numbers ("B", "50" per page) are left to the letters and pages."""
    letter = _patterns()["letter"]
    options = []
    for option in root.iter("option"):
        text = " ".join("".join(option.itertext()).split())
        if not text or letter.fullmatch(text) or not any(c.isalpha() for c in text):
            continue
        if target := control_target(option):
            options.append((option, target))
    return _walk_targets(options, base, origin) if len(options) >= MIN_OPTION_ENTRIES else []


MIN_OPTION_ENTRIES = 3
"""A select of fewer options (a sort order, a language) is no list of journals."""


def metrics_links(page_html: ParsedPage | str, page_url: str, max_anchors: int = MAX_ANCHORS_PER_PAGE) -> PageLinks:
    """The links of a journal's page that the navigation follows: its metrics hops alone, as :func:`page_links`
    finds them (only :attr:`PageLinks.metrics` and :attr:`PageLinks.truncated_anchors` are filled).

    A journal's page is read for its hop to a metrics page only, so its anchors are read for their text and
    chrome alone: no row, group or shape (a fraction of what :func:`page_links` costs on a link-heavy page). A metrics
    text ("About the journal") is never an index letter, and a browse text ("Browse journals A-Z") is a browse link
    here as there.
    """
    root, left_out = as_parsed(page_html, page_url).prefix_tree(ANCHOR_TAG, max_anchors)
    if root is None:
        return PageLinks([], [], [], [], [], truncated_anchors=left_out)
    patterns = _patterns()
    metrics_page, browse = patterns["metrics_page"], patterns["browse"]
    base, origin = _base_and_origin(root, page_url)
    metrics = []
    for element in root.iter("a"):
        href = (element.get("href") or "").strip()
        if goes_nowhere(href):
            continue
        text = anchor_text(element)
        if not metrics_page.fullmatch(text) or browse.fullmatch(text):
            continue
        url = absolute_url(href, base, origin)
        if not _followable(url, origin):
            continue
        metrics.append(Anchor(url=url, text=text, chrome=_chrome(element), group=""))
    if page_url:
        metrics = [a for a in metrics if not a.chrome or is_about(a.url, page_url)]
    metrics.sort(key=lambda anchor: (anchor.in_chrome, " " not in anchor.text))
    return PageLinks([], [], [], [], metrics, truncated_anchors=left_out)


def _chrome(element: etree._Element) -> str:
    """The nearest chrome around ``element`` (as :meth:`_Open.below` passes it down), ``""`` if none."""
    for ancestor in element.iterancestors():
        if ancestor.tag in CHROME_TAGS:
            return str(ancestor.tag)
        if ancestor.get("role") == "navigation":
            return "nav"
    return ""


def is_about(url: str, page_url: str) -> bool:
    """Whether ``url`` is about what the page is about: under the page's path, or naming its last path segment
    or one of its query values (``/journal/acta`` → ``/journal/acta/about``, ``/page/acta/info.html``)."""
    link, page = split_url(url), split_url(page_url)
    path = page.path.rstrip("/")
    if path and link.path.startswith(path + "/"):
        return True
    names = [path.rpartition("/")[2].rpartition(".")[0] or path.rpartition("/")[2]]
    names += [value for _, _, value in (pair.partition("=") for pair in page.query.split("&"))]
    target = f"{link.path}?{link.query}"
    return any(len(name) >= 3 and name in target for name in names)


def is_near(url: str, page_url: str) -> bool:
    """Whether ``url`` is on the page's host and its path is the page's, a sibling of it, or under it."""
    link, page = split_url(url), split_url(page_url)
    if host_of(link).removeprefix("www.") != host_of(page).removeprefix("www."):
        return False
    path, here = link.path.rstrip("/"), page.path.rstrip("/")
    return path == here or path.rpartition("/")[0] == here.rpartition("/")[0] or path.startswith(here + "/")
