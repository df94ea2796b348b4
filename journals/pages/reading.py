"""A page read for the crawl: decoded and parsed once, its links classified and, on an index page, its journal list.

Pure: the spider runs these functions in its analysis thread (:class:`~journals.pages.analysis_thread.AnalysisThread`),
so a page reaches the reactor parsed and read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from journals.pages.entries import EntryGroup, ListingMemory, anchor_score, find_journal_list
from journals.pages.navigation import PageLinks, is_about, metrics_links, page_links
from journals.pages.parsed import ParsedPage
from journals.pages.script_signs import ScriptSigns, script_signs

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
) -> ReadPage:
    """A page decoded and parsed (:class:`~journals.pages.parsed.ParsedPage`), its links (the first ``max_anchors``:
    all of them, a journal page's metrics hops alone, or none), and, given a site's listing ``memory`` (read and
    updated), its journal list; with ``signs``, a journal or metrics page's signs of being script-built, read in the
    same pass (an index page's, which count its script letters, are read only when it gives nothing)."""
    page = ParsedPage.from_body(url, body, content_type)
    if links != "all":
        page.tree  # noqa: B018 - parsed here, off the reactor, for the pipelines
        found_links = metrics_links(page, url, max_anchors) if links == "metrics" else None
        return ReadPage(page, found_links, signs=script_signs(page) if signs else None)
    return read_links(page, max_anchors, memory, letter)


def read_links(
    page: ParsedPage, max_anchors: int, memory: ListingMemory | None = None, letter: str | None = None
) -> ReadPage:
    """An already parsed ``page`` read as an index: all its links and, given ``memory``, its journal list;
    :func:`read_page`'s second half, also run on a journal page that may be a listing (it is not parsed again)."""
    page_links_found = page_links(page, page.url, max_anchors)
    group = find_journal_list(page_links_found.content, memory, letter) if memory is not None else None
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
