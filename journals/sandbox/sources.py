"""Sources of the sandbox world: each site's selection, projection and error, per the integration paper's model.

A *publisher* site publishes the journals it owns (selection by publisher), a few attributes of each (projection)
and rarely leaves a value out (error). An *aggregator* publishes a sample of every publisher's journals and its
values may be missing, a year stale, rounded or slightly wrong. What a site shows is what :meth:`Site.shown_values`
returns: the truth an extractor is measured against.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from journals.domain.sites import site, site_names
from journals.sandbox.relation import JournalRelation, SandboxJournal
from journals.vocabulary import metric_names


@dataclass(frozen=True)
class SiteSpec:
    """How one site selects, projects and corrupts the hidden relation."""

    name: str
    kind: str
    """``publisher``, ``aggregator``, ``heldout``, ``realweb`` (a publisher-like site with the real web's shapes,
    listing a share of every publisher's journals), ``scripted`` (the same, its list or metrics written by
    JavaScript) or ``unseen`` (the same, its navigation or journal pages drawn from real sites without reading the
    crawler), as the site registry says; ``trap`` for a traps world's site."""
    attributes: tuple[str, ...]
    """The projection: attributes this site publishes (``title`` always)."""
    page_size: int
    selection_rate: float = 1.0
    """Every kind but ``publisher``: the share of all journals the site lists."""
    null_rate: float = 0.03
    stale_rate: float = 0.0
    round_rate: float = 0.0
    wrong_rate: float = 0.0
    omitted: tuple[tuple[str, float], ...] = ()
    """(attribute, share): a site that leaves a row out of some journals' pages (real sites' optional rows) shows
    nothing for that share of its journals, each attribute drawn apart from the others and from the error."""
    decimals: tuple[tuple[str, int], ...] = ()
    """(metric, decimals): a site that writes a metric with fewer decimals than the relation holds (a five-year
    impact factor of "4.02") shows, and so its truth holds, the rounded value."""


def _registered(name: str, attributes: tuple[str, ...], page_size: int, **options: Any) -> SiteSpec:
    """The spec of the registry's site ``name``, of the kind the registry (``settings/sites.json``) gives it;
    ``options`` are the :class:`SiteSpec` fields after ``page_size`` (rates, omitted rows, decimals)."""
    return SiteSpec(name, site(name).kind, attributes, page_size, **options)


_SPECS: tuple[SiteSpec, ...] = (
    _registered(
        "elsevier",
        (
            "title",
            "issn",
            "impact_factor",
            "five_year_impact_factor",
            "citescore",
            "sjr",
            "snip",
            "editor_in_chief",
            "open_access",
        ),
        page_size=25,
    ),
    _registered(
        "wiley", ("title", "issn", "eissn", "impact_factor", "editor_in_chief", "subject"), page_size=40
    ),
    _registered(
        "nature",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "editor_in_chief"),
        page_size=20,
    ),
    _registered(
        "bmj", ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"), page_size=30
    ),
    _registered(
        "oxford",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "editor_in_chief"),
        page_size=50,
    ),
    _registered(
        "springer",
        (
            "title",
            "issn",
            "eissn",
            "impact_factor",
            "five_year_impact_factor",
            "sjr",
            "snip",
            "editor_in_chief",
            "open_access",
            "apc",
        ),
        page_size=20,
    ),
    _registered(
        "scimago",
        ("title", "issn", "eissn", "sjr", "h_index", "citescore", "subject", "publisher"),
        page_size=50,
        selection_rate=0.6,
        null_rate=0.03,
        stale_rate=0.04,
        round_rate=0.02,
        wrong_rate=0.01,
    ),
    _registered(
        "metricsdb",
        ("title", "issn", "impact_factor", "citescore", "snip"),
        page_size=100,
        selection_rate=0.5,
        null_rate=0.03,
        stale_rate=0.04,
        round_rate=0.02,
        wrong_rate=0.01,
    ),
    _registered(
        "heldout",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=30,
        selection_rate=0.3,
    ),
    # Issue 13: sites with the shapes of the real web's journal lists (journals.sandbox.realsites). Each lists a
    # share of every publisher's journals, as the aggregators do, so the hidden relation stays as it was.
    _registered(
        "openaccess",
        ("title", "issn", "eissn", "impact_factor", "citescore"),
        page_size=100,
        selection_rate=0.12,
    ),
    _registered(
        "societypress",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.08,
    ),
    _registered(
        "campuspress",
        ("title", "issn", "eissn", "impact_factor", "citescore", "sjr", "editor_in_chief"),
        page_size=6,
        selection_rate=0.1,
    ),
    # Issue 16: sites whose list or metrics a browser builds (journals.sandbox.scripted); each lists a share of every
    # publisher's journals. scriptlist's 20 a page give its large letters two pages or more.
    _registered(
        "scriptlist",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=20,
        selection_rate=0.15,
    ),
    _registered(
        "scriptapp",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.1,
    ),
    # Issue 23: sites whose journal pages have real sites' shapes, built without reading the crawler
    # (journals.sandbox.unseen_pages); each lists a share of every publisher's journals.
    _registered(
        "sidebar",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "sjr", "editor_in_chief"),
        page_size=20,
        selection_rate=0.08,
    ),
    _registered(
        "prose",
        (
            "title",
            "issn",
            "eissn",
            "impact_factor",
            "five_year_impact_factor",
            "citescore",
            "acceptance_rate",
            "editor_in_chief",
        ),
        page_size=15,
        selection_rate=0.06,
        omitted=(("impact_factor", 0.2),),
        decimals=(("five_year_impact_factor", 2),),
    ),
    _registered(
        "yeartable",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "sjr", "editor_in_chief"),
        page_size=25,
        selection_rate=0.1,
        omitted=(("issn", 0.25), ("impact_factor", 0.25), ("sjr", 0.25), ("editor_in_chief", 0.25)),
    ),
    _registered(
        "masthead",
        ("title", "issn", "eissn", "publisher", "impact_factor"),
        page_size=10,
        selection_rate=0.07,
        omitted=(("impact_factor", 0.3),),
    ),
    # Issue 23: sites whose navigation has shapes of real publisher sites, built without reading the crawler
    # (journals.sandbox.unseen_lists); each lists a share of every publisher's journals.
    _registered(
        "rowlinks",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=20,
        selection_rate=0.08,
    ),
    _registered(
        "selectgo",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.06,
    ),
    _registered(
        "bysubject",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.1,
    ),
    _registered(
        "areas",
        (
            "title",
            "issn",
            "eissn",
            "impact_factor",
            "five_year_impact_factor",
            "citescore",
            "editor_in_chief",
            "publisher",
        ),
        page_size=10,
        selection_rate=0.07,
    ),
    # Sites built by scripts in shapes real script-built sites have, built without reading the crawler
    # (journals.sandbox.unseen_scripts); each lists a share of every publisher's journals, small because every one
    # of their pages is rendered in a browser.
    _registered(
        "spa",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=10,
        selection_rate=0.04,
    ),
    _registered(
        "loadmore",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=10,
        selection_rate=0.05,
    ),
    _registered(
        "nextdata",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "editor_in_chief"),
        page_size=12,
        selection_rate=0.035,
    ),
    _registered(
        "deferred",
        ("title", "issn", "eissn", "impact_factor", "citescore", "sjr", "editor_in_chief"),
        page_size=10,
        selection_rate=0.04,
    ),
    # A second set of script-built sites in real sites' shapes, built without reading the crawler
    # (journals.sandbox.unseen_scripts2): an infinite-scroll list, tabs and sections filled on a click, hashbang
    # routes, metrics fetched late behind skeleton placeholders. Small shares, as every page is rendered in a browser.
    _registered(
        "infinite",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=12,
        selection_rate=0.045,
        omitted=(("citescore", 0.15),),
    ),
    _registered(
        "tabs",
        (
            "title",
            "issn",
            "eissn",
            "impact_factor",
            "five_year_impact_factor",
            "citescore",
            "sjr",
            "editor_in_chief",
            "publisher",
            "open_access",
        ),
        page_size=6,
        selection_rate=0.04,
    ),
    _registered(
        "hashbang",
        ("title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.035,
        omitted=(("citescore", 0.1),),
    ),
    _registered(
        "accordion",
        ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "editor_in_chief"),
        page_size=1000,
        selection_rate=0.04,
        omitted=(("five_year_impact_factor", 0.2),),
    ),
    _registered(
        "skeleton",
        ("title", "issn", "eissn", "impact_factor", "citescore", "sjr", "snip", "editor_in_chief"),
        page_size=8,
        selection_rate=0.045,
        omitted=(("sjr", 0.1), ("snip", 0.15)),
    ),
)
SITE_SPECS: tuple[SiteSpec, ...] = tuple({spec.name: spec for spec in _SPECS}[name] for name in site_names())
"""Every site of the registry, in its order, as the sandbox builds it (a registry site without a spec here is a
``KeyError`` on import: the sandbox simulates every site)."""
PUBLISHER_NAMES = site_names("publisher")
REALWEB_NAMES = site_names("realweb")
UNSEEN_NAMES = site_names("unseen")
"""The sites built with the real web's shapes (issue 13); the crawler is measured on them by ``make evaluate``."""
SCRIPTED_NAMES = site_names("scripted")
"""The sites whose journal list or metrics JavaScript builds in the browser (issue 16); Scrapy alone sees none."""
NUMERIC = frozenset(metric_names())
LETTERS = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0-9")


def slugify(title: str) -> str:
    """A URL slug for a title: ASCII letters and digits joined by hyphens."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")


def letter_of(title: str) -> str:
    """The A–Z index letter a title is listed under (``0-9`` for digits)."""
    first = title[0].upper()
    return first if "A" <= first <= "Z" else "0-9"


class Site:
    """One source of the sandbox world over a :class:`JournalRelation`."""

    def __init__(self, spec: SiteSpec, relation: JournalRelation) -> None:
        self.spec = spec
        self.relation = relation
        self.name = spec.name

    @cached_property
    def journal_indices(self) -> list[int]:
        """Indices of the journals this site lists, in A–Z order of their titles (the selection)."""
        titles = self.relation.titles
        if self.spec.kind == "publisher":
            chosen = [i for i in range(len(self.relation)) if self.relation.journal(i).publisher == self.name]
        else:
            rng = random.Random(f"select:{self.relation.seed}:{self.name}")
            chosen = [i for i in range(len(self.relation)) if rng.random() < self.spec.selection_rate]
        return sorted(chosen, key=lambda i: titles[i].casefold())

    @cached_property
    def by_letter(self) -> dict[str, list[int]]:
        """Journal indices per index letter, in A–Z order; letters without journals are absent."""
        groups: dict[str, list[int]] = {}
        for i in self.journal_indices:
            groups.setdefault(letter_of(self.relation.titles[i]), []).append(i)
        return groups

    @cached_property
    def by_slug(self) -> dict[str, int]:
        """Journal index per URL slug."""
        return {slugify(self.relation.titles[i]): i for i in self.journal_indices}

    def journal(self, index: int) -> SandboxJournal:
        """The hidden journal at ``index``."""
        return self.relation.journal(index)

    def rng(self, index: int, purpose: str) -> random.Random:
        """A random stream fixed by the world's seed, this site, one journal and a purpose."""
        return random.Random(f"{purpose}:{self.relation.seed}:{self.name}:{index}")

    def shown_values(self, journal: SandboxJournal) -> dict[str, object]:
        """What this site shows for ``journal``: projected attributes after the error operator, None if absent."""
        rng = self.rng(journal.index, "error")
        spec = self.spec
        shown: dict[str, object] = {}
        for name in spec.attributes:
            value: object = getattr(journal, name, None)
            if name == "publisher":
                value = {"bmj": "BMJ", "oxford": "Oxford University Press"}.get(
                    journal.publisher, journal.publisher.title()
                )
            if name == "apc" and value == 0:
                value = None
            if name != "title" and rng.random() < spec.null_rate:
                value = None
            elif name in NUMERIC and isinstance(value, float):
                roll = rng.random()
                if roll < spec.stale_rate:
                    value = (
                        journal.previous_impact_factor
                        if name == "impact_factor"
                        else round(value * rng.uniform(0.85, 1.1), 3)
                    )
                elif roll < spec.stale_rate + spec.round_rate:
                    value = round(value, 1)
                elif roll < spec.stale_rate + spec.round_rate + spec.wrong_rate:
                    value = round(value * rng.choice((0.99, 1.01)), 3)
                if name == "citescore":
                    value = round(value, 1)  # CiteScore is published with one decimal, stale or not
            shown[name] = value
        return self._as_written(journal, shown)

    def _as_written(self, journal: SandboxJournal, shown: dict[str, object]) -> dict[str, object]:
        """``shown`` without the rows this journal's pages leave out and with the site's decimals (a stream of its
        own, so the other sites' values stay as they were)."""
        omit = self.rng(journal.index, "omit")
        for name, share in self.spec.omitted:
            if omit.random() < share:
                shown[name] = None
        for name, places in self.spec.decimals:
            value = shown.get(name)
            if isinstance(value, float):
                shown[name] = round(value, places)
        return shown
