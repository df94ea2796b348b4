"""Items: what a spider fetched for one journal, and the clean journal record the pipelines make of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(kw_only=True)
class FetchedPage:
    """One fetched page of a journal: its URL, its decoded HTML and its role, what led the spider to it. The page
    the extraction reads (:func:`journals.extraction.extract_journal`); its parsed tree, when the spider kept one, is
    a :class:`~journals.pages.parsed.ParsedPage` of the same URL."""

    url: str
    html: str
    role: str = "home"
    """``listing`` for the A–Z listing page that linked to the journal, ``home`` for the journal page it
    linked to, ``metrics`` for the extra hop ("About the journal", "Journal metrics")."""
    from_cache: bool = False
    """Whether the page came from the page cache (replayed, fresh, or revalidated with 304)."""


@dataclass(kw_only=True)
class JournalPages:
    """What a spider yields per journal: the pages that matter, before any extraction.

    The extraction pipeline turns it into a :class:`JournalItem`; it is never exported.
    """

    source: str
    """Name of the site (``elsevier``, ``wiley``…, or the host for the generic spider)."""
    url: str
    """The journal page linked from the A–Z listing, after redirects."""
    listing_url: str
    """The A–Z listing page that linked to the journal."""
    listing_title: str
    """The anchor text of the journal's entry on the listing."""
    pages: list[FetchedPage] = field(default_factory=list)
    """The journal page and the metrics page if any (the listing page is named by ``listing_url``, not copied)."""
    listing_record: dict[str, Any] = field(default_factory=dict)
    """What the MDR pipeline read off the journal's record on the listing (title, link, ISSN…)."""


@dataclass(kw_only=True)
class JournalItem:
    """One journal as one source publishes it: the exported record and the rows of the database."""

    source: str
    """Name of the site the record comes from."""
    url: str
    """The journal page linked from the A–Z listing."""
    title: str | None = None
    """The journal's own title (not the ``<title>`` tag with the site's suffix)."""
    issn: str | None = None
    """Print ISSN as ``NNNN-NNNC``, check digit validated."""
    eissn: str | None = None
    """Electronic ISSN as ``NNNN-NNNC``, check digit validated."""
    impact_factor: float | None = None
    """Two-year impact factor, the latest year shown."""
    five_year_impact_factor: float | None = None
    """Five-year impact factor, the latest year shown."""
    citescore: float | None = None
    """Scopus CiteScore."""
    sjr: float | None = None
    """SCImago Journal Rank."""
    snip: float | None = None
    """Source Normalized Impact per Paper."""
    editor_in_chief: str | None = None
    """Name(s) of the editor(s)-in-chief, as shown."""
    attributes: dict[str, Any] = field(default_factory=dict)
    """Every other attribute found (vocabulary name → normalised value)."""
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """Per attribute: raw text, page URL, XPath and extractor. Stored, not exported."""
    pages: list[dict[str, str | None]] = field(default_factory=list, repr=False)
    """The pages the record was read from: ``url``, ``role`` and ``template`` signature. Stored, not exported."""
    unchanged: bool = field(default=False, repr=False)
    """Seen again by a re-crawl with every page unchanged: the store only marks its rows as re-confirmed."""
