"""A page read for the crawl: decoded and parsed once, its links classified and, on an index page, its journal list.

Pure: the spider runs :func:`read_page` in its analysis thread
(:class:`~journals.pages.analysis_thread.AnalysisThread`), once per page, so a page reaches the reactor parsed and
read: everything the spider may ask of it (its links, its journal list, its meta refresh, whether it names journal
data, a journal page read as a listing) is read in that one hand-off, rather than in a hand-off for each question.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from journals.pages.entries import EntryGroup, ListingMemory, anchor_score, find_journal_list
from journals.pages.meta_refresh import MetaRefresh, RefreshRule
from journals.pages.navigation import PageLinks, RowReader, is_about, metrics_links, page_links
from journals.pages.parsed import ParsedPage
from journals.pages.script_signs import ScriptSigns, VisibleData, journal_facts, names_journal_data, script_signs

LinksRead = Literal["all", "metrics", "none"]
"""Which links of a page are read: all (index pages), a journal page's metrics hops, none (a metrics page)."""
LISTING_MIN_ENTRIES = 5
"""Entries a page linked as a journal must list, with no journal data of its own, to be read as a listing."""
SHORT_LISTING_SCORE = 0.8
"""A shorter list in the page's content (a subject area with one journal) makes it a listing when its entries score
this much on average as journal entries (:func:`~journals.pages.entries.anchor_score`: a title-case name scores 0.6 or
0.7, 1.4 with a journal word, 0.3 more under a ``/journal/`` path or beside an ISSN)."""


@dataclass
class ReadPage:
    """What the analysis of a page found: the parsed page, its links (None when not asked for), and (on an index
    page) its journal list. Distinct from the parsed page it holds: what the crawl read off it, which only the
    spider needs."""

    page: ParsedPage
    links: PageLinks | None
    group: EntryGroup | None = None
    signs: ScriptSigns | None = None
    """The page's signs of being script-built, when read with it."""
    refresh: MetaRefresh | None = None
    """The meta refresh to follow the page declares, when refreshes were read: a page that has one is read for
    nothing else (it is left, as Scrapy's ``MetaRefreshMiddleware`` leaves it, before the spider reads it)."""
    names_data: bool | None = None
    """Whether the page's visible text names journal data
    (:func:`~journals.pages.script_signs.names_journal_data`); None when not read with it."""
    facts: int | None = None
    """How much journal data the page names (:func:`~journals.pages.script_signs.journal_facts`, what a rendering
    probe compares); None when not read with it."""
    as_index: ReadPage | None = None
    """A journal page that names no journal data, read as an index too (:func:`read_links`: its links and journal
    list), to be taken for a listing when it lists journals; None when not read so."""

    @property
    def text(self) -> str:
        """The page's decoded text."""
        return self.page.text

    @property
    def charset_corrected(self) -> bool:
        """Whether the page's declared charset was wrong."""
        return self.page.charset_corrected


def read_page(
    body: bytes,
    content_type: str,
    url: str,
    max_anchors: int,
    *,
    memory: ListingMemory | None = None,
    letter: str | None = None,
    links: LinksRead = "all",
    signs: bool = False,
    refreshes: RefreshRule | None = None,
    final: bool = False,
    facts: bool = False,
    rows: RowReader | None = None,
) -> ReadPage:
    """A page decoded and parsed (:class:`~journals.pages.parsed.ParsedPage`), its links (the first ``max_anchors``:
    all of them, a journal page's metrics hops alone, or none), and, given a site's listing ``memory`` (read and
    updated), its journal list; with ``signs``, its signs of being script-built, read in the same pass (an index
    page's, which count its script letters, only when it links no letter, list or browse link: when it gives
    nothing). Given the
    ``refreshes`` followed, a page with such a meta refresh is read for that alone (:attr:`ReadPage.refresh`).

    A journal page (``links="metrics"``) is also read for what the spider asks of it next: whether it names journal
    data and, naming none, its reading as an index with ``memory`` (:attr:`ReadPage.as_index`), unless it may be
    rendered first: a page whose signs say it is script-built, not ``final`` (rendered, or its rendering failed),
    is read as an index once rendered. A script-built or ``final`` metrics page is read for whether it names journal
    data, and with ``facts`` (a rendering probe) or when it looks unfinished, for how much it names.

    An index page's links pass is given ``rows`` (e.g. :func:`journals.mdr.listing.tree_rows`, which builds the tag
    tree its listing index reads, and keeps it with the page under its own name, forgotten here when the page lists
    no journal) to read its rows' texts."""
    page = ParsedPage.from_body(url, body, content_type)
    if links != "all":
        # Parsed here, off the reactor, for its reading below, for an extraction in the crawl's own process (the
        # page store keeps the tree for it), and before its refresh is looked for: on its tree.
        page.tree  # noqa: B018
    if refreshes is not None and (refresh := refreshes.followed(page)) is not None:
        return ReadPage(page, None, refresh=refresh)
    if links == "all":
        index = read_links(page, max_anchors, memory, letter, rows)
        found = index.links
        if signs and found is not None and not (found.letters or found.browse or index.group is not None):
            index.signs = script_signs(page, letters=True)
        return index
    found_links = metrics_links(page, url, max_anchors) if links == "metrics" else None
    found_signs = script_signs(page) if signs else None
    read = ReadPage(page, found_links, signs=found_signs)
    script_built = found_signs is not None and found_signs.script_built
    visible = VisibleData(page.tree) if page.tree is not None else None  # read once, by either question below
    if links == "metrics" or script_built or (signs and final):
        read.names_data = names_journal_data(page, visible)
    if links == "metrics" and memory is not None and not read.names_data and (final or not script_built):
        read.as_index = read_links(page, max_anchors, memory)
    if facts or (read.names_data and found_signs is not None and script_built and found_signs.unfinished):
        read.facts = journal_facts(page, visible)
    return read


def read_links(
    page: ParsedPage,
    max_anchors: int,
    memory: ListingMemory | None = None,
    letter: str | None = None,
    rows: RowReader | None = None,
) -> ReadPage:
    """An already parsed ``page`` read as an index: all its links and, given ``memory``, its journal list;
    :func:`read_page`'s second half, also run on a journal page that may be a listing (it is not parsed again).
    ``rows``: see :func:`read_page`."""
    page_links_found = page_links(page, page.url, max_anchors, rows)
    group = find_journal_list(page_links_found.content, memory, letter) if memory is not None else None
    if rows is not None and group is None:
        page.forget(rows)  # what it kept for the listing index: no journal of the page is indexed
    return ReadPage(page, page_links_found, group)


def lists_journals(group: EntryGroup, page_url: str) -> bool:
    """Whether ``group``, the best list of a page linked as a journal whose text names no journal data, makes the
    page a listing: a confident list of :data:`LISTING_MIN_ENTRIES` entries outside the site's header and footer,
    or a short list of entries that look like journals' (a subject area with one journal) in the page's content.
    The page's own sub-pages (its issues, its sections) are no entries of it."""
    entries = [a for a in group.anchors if not is_about(a.url, page_url)]
    if not entries or entries[0].chrome not in ("", "nav"):
        return False
    if group.confident and len(entries) >= LISTING_MIN_ENTRIES:
        return True
    return entries[0].chrome == "" and sum(anchor_score(a) for a in entries) / len(entries) >= SHORT_LISTING_SCORE


def index_letter(anchor_text: str) -> str:
    """The A–Z letter an index anchor stands for: ``Ab`` → ``A``; digits and ``#`` → ``0-9``."""
    first = anchor_text[:1].upper()
    return first if "A" <= first <= "Z" else "0-9"
