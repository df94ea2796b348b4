"""The generic A–Z spider: start page → letters → paginated listings → journal page → metrics hop.

It uses no site-specific XPath: :mod:`journals.pages.navigation` classifies each page's anchors. It yields one
:class:`~journals.items.JournalPages` per journal, holding the pages that matter; the item pipelines extract.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response, TextResponse
from scrapy.settings import SETTINGS_PRIORITIES

from journals.downloadermiddlewares.httpcache import cached_page_text
from journals.downloadermiddlewares.redirect import REDIRECT_LOOP
from journals.downloadermiddlewares.rendering import RENDERING_FAILED, reader_actions, rendering_meta, was_rendered
from journals.health import START_FAILED_STATS, TRAPS_STATS
from journals.items import FetchedPage, JournalPages
from journals.pages.decoding import looks_binary
from journals.pages.entries import EntryGroup, ListingMemory, anchor_score, find_journal_list
from journals.pages.listings import DEFAULT_MAX_CHARS, RecentListings
from journals.pages.navigation import MAX_ANCHORS_PER_PAGE, Anchor, PageLinks, is_about, metrics_links, page_links
from journals.pages.parsed import MAX_DEPTH, ParsedPage, RecentPages
from journals.pages.scope import (
    Origin,
    SiteScope,
    canonical_url,
    listing_url,
    may_be_sister_site,
    on_public_web,
    redact_url,
)
from journals.pages.script_signs import ScriptSigns, journal_facts, names_journal_data, script_signs

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

T = TypeVar("T")
DEFAULT_PARSED_PAGES_CHARS = 8 * 1024 * 1024
"""Characters of parsed pages kept for the pipelines by default (``PARSED_PAGES_CHARS``): a tree costs several
times its text, and items reach the pipelines within moments of their pages."""
LISTING_TITLE_LIMIT = 500
"""Characters of an entry's anchor text a journal request carries (its title when the listing is gone)."""


def index_letter(anchor_text: str) -> str:
    """The A–Z letter an index anchor stands for: ``Ab`` → ``A``; digits and ``#`` → ``0-9``."""
    first = anchor_text[:1].upper()
    return first if "A" <= first <= "Z" else "0-9"


SIGNS_WITHOUT_MEANING = 5
"""Pages of a role shown with signs of scripts and their data as served, after which a source's signs on that role
are taken to mean nothing (its pages are read as served, without looking for their data again)."""
REDIRECT_FAILURES = {"max redirections reached": "too_many_redirects", REDIRECT_LOOP: "redirect_loop"}
"""The reasons of the ``IgnoreRequest`` of a page lost to redirects (past ``REDIRECT_MAX_TIMES``, or a loop:
:mod:`journals.downloadermiddlewares.redirect`), by the cause its failed page is counted under."""
GONE_CAUSES = frozenset({"http_404", "http_410"})
"""Failed pages that are gone, the site's dead links: logged as INFO (still counted), other failures as WARNING."""
PROBES_TO_DECIDE = 2
"""Probes of a role that gain nothing from rendering after which the source's pages of that role are read as
served (one that gains decides at once that they are rendered)."""
PROBE_WAIT_SECONDS = 120
"""Seconds an unfinished page waits for its role's probes to end before it is read as served."""
PROBE_META = "journals_probe"
"""Request meta of a page rendered as a probe: the journal data its served HTML named
(:func:`~journals.pages.script_signs.journal_facts`), which its rendering is compared with."""
RENDER_FAILURES_TO_STOP = 3
"""Pages of a source the browser fails on in a row after which the source is no longer rendered (the browser cannot
start or keeps crashing, or the site refuses it; a render that timed out is retried and does not count): each
failed page is fetched as served, and so are the source's pages from then on."""
LISTING_MIN_ENTRIES = 5
"""Entries a page linked as a journal must list, with no journal data of its own, to be read as a listing."""
SHORT_LISTING_SCORE = 0.8
"""A shorter list in the page's content (a subject area with one journal) makes it a listing when its entries score
this much on average as journal entries (:func:`~journals.pages.entries.anchor_score`: a title-case name scores 0.6 or
0.7, 1.4 with a journal word, 0.3 more under a ``/journal/`` path or beside an ISSN)."""
RENDER_MODES = ("auto", "browser", "never")
"""When pages are rendered in the browser: those that need it (detected), every page of the source, none."""
SPIDER_META = ("source", "page_role", "letter", "index_depth", "start_page", "journal_origin", PROBE_META)
"""The request meta keys the spider sets (a request made again to render carries them over)."""
PageRole = Literal["index", "listing", "journal", "metrics"]
"""What a page is to the crawl: a start or browse page, a letter's listing or one of its pages, a journal's home
page, its metrics page. A site builds all pages of one role with one template, so rendering is learned per role."""

LinksRead = Literal["all", "metrics", "none"]
"""Which links of a page are read: all (index pages), a journal page's metrics hops, none (a metrics page)."""


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
    all of
    them, a journal page's metrics hops alone, or none), and, given a site's listing ``memory`` (read and updated),
    its journal list; with ``signs``, a journal or metrics page's signs of being script-built, read in the same
    pass (an index page's, which count its script letters, are read only when it gives nothing). Pure; the spider
    runs it in its analysis thread, so the page reaches the reactor parsed."""
    page = ParsedPage.from_body(url, body, content_type)
    if links != "all":
        page.tree  # noqa: B018 - parsed here, off the reactor, for the pipelines
        found_links = metrics_links(page, url, max_anchors) if links == "metrics" else None
        return ReadPage(page, found_links, signs=script_signs(page) if signs else None)
    return read_links(page, max_anchors, memory, letter)


def read_links(
    page: ParsedPage, max_anchors: int, memory: ListingMemory | None = None, letter: str | None = None
) -> ReadPage:
    """An already parsed ``page`` read as an index: all its links and, given ``memory``, its journal list. Pure;
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


def source_name(start_url: str) -> str:
    """The source a start URL stands for: its first path segment on a sandbox-like host, else the host."""
    parts = urlsplit(start_url)
    segment = parts.path.strip("/").split("/")[0]
    if parts.hostname in ("127.0.0.1", "localhost") and segment:
        return segment
    return parts.hostname or start_url


@dataclass
class SiteState:
    """What the spider keeps per source: its scope, its listing memory, and its counts against the bounds."""

    scope: SiteScope
    memory: ListingMemory = field(default_factory=ListingMemory)
    requests: int = 0
    """Requests made for the source so far (every kind)."""
    listing_pages: Counter[str] = field(default_factory=Counter)
    """Listing pages requested per A–Z letter (``""`` for the start page's own pages)."""
    bounds_hit: set[str] = field(default_factory=set)
    """Bounds this source hit (each logged and recorded once)."""
    rendered_roles: set[str] = field(default_factory=set)
    """Roles of page (:data:`PageRole`) this source builds with scripts: requested in the browser from then on."""
    served_with_data: Counter[str] = field(default_factory=Counter)
    """Pages per role that showed the signs of a script-built page but had their data as served (a site-wide
    ``<noscript>`` asking for JavaScript): after :data:`SIGNS_WITHOUT_MEANING` of them, the role's signs are no
    longer looked into."""
    failed_renders: int = 0
    """Pages of this source the browser has failed on since it last rendered one."""
    probes_without_gain: Counter[str] = field(default_factory=Counter)
    """Pages per role probed (rendered because they looked unfinished though they had data) whose rendering named
    no more journal data than their served HTML: after :data:`PROBES_TO_DECIDE` of them, the role is read as
    served."""
    probing: Counter[str] = field(default_factory=Counter)
    """Probes per role in flight: at most :data:`PROBES_TO_DECIDE`; the role's other unfinished pages wait for
    their verdict."""
    probe_ended: dict[str, asyncio.Event] = field(default_factory=dict)
    """Per role, set when a probe in flight ends (and replaced by a fresh one): what waiting pages wait for."""

    def end_probe(self, role: str) -> None:
        """One probe of ``role`` ended: the pages waiting for a verdict look again."""
        self.probing[role] -= 1
        if (ended := self.probe_ended.pop(role, None)) is not None:
            ended.set()

    def decided(self, role: str) -> str | None:
        """The verdict on ``role``'s pages: ``"browser"``, ``"served"``, or None while it is undecided."""
        if role in self.rendered_roles:
            return "browser"
        return "served" if self.probes_without_gain[role] >= PROBES_TO_DECIDE else None

    reclassified_logged: bool = False
    """Whether a page linked as a journal and read as a listing was logged for this source (once)."""
    rendering_stopped: bool = False
    """Whether the browser failed on :data:`RENDER_FAILURES_TO_STOP` of its pages in a row: its pages are read as
    served from then on."""


@dataclass(frozen=True)
class CrawlBounds:
    """The limits that end every crawl, traps included (settings ``CRAWL_MAX_*``)."""

    pages_per_site: int = 50_000
    """Requests per source, every kind (``CRAWL_MAX_PAGES_PER_SITE``)."""
    index_depth: int = 5
    """Letter and browse hops below the start page, pagination not counted (``CRAWL_MAX_INDEX_DEPTH``): letters
    nested in letters beyond it are a trap."""
    listing_pages: int = 200
    """Listing pages per letter, pagination included (``CRAWL_MAX_LISTING_PAGES``)."""

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CrawlBounds:
        """The bounds the settings ask for, the defaults otherwise."""
        return cls(
            pages_per_site=settings.getint("CRAWL_MAX_PAGES_PER_SITE", cls.pages_per_site),
            index_depth=settings.getint("CRAWL_MAX_INDEX_DEPTH", cls.index_depth),
            listing_pages=settings.getint("CRAWL_MAX_LISTING_PAGES", cls.listing_pages),
        )


@dataclass
class ReadPage:
    """What the analysis of a page found: the parsed page, its links (None when not asked for), and (on an index
    page) its journal list."""

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


class PublisherSpider(scrapy.Spider):
    """Crawl any site that lists its journals under A–Z links.

    Arguments: ``start_url`` (one site) or ``start_urls`` (comma-separated, one source each); ``source`` names
    the source when there is one start URL (default: from the URL); ``render`` (:data:`RENDER_MODES`, default the
    setting ``RENDER_PAGES`` when set above the project's defaults, as with ``-s``, else the spider's
    :meth:`default_render_mode`: the site registry's ``render`` for a site's spider, ``auto`` otherwise) says which
    pages are rendered in the browser.

    Rendering (``auto``): a page whose served HTML lacks what the crawl came for (letters or a journal list on an
    index page, an ISSN or a metric on a journal page) and shows the signs of a script-built page
    (:func:`~journals.pages.script_signs.script_signs`) is requested again in the browser
    (:mod:`journals.downloadermiddlewares.rendering`), its
    script letters clicked when it has some; from then on every page of that role (:data:`PageRole`) of the
    source is requested in the browser at once. Counted in ``journals/rendering/*``.

    Pages are analysed (decoded, their links classified, their journal list found) in one worker thread, one page
    at a time: a page of 200,000 anchors never blocks the reactor, and only one such page is analysed at once;
    only its first ``MAX_ANCHORS_PER_PAGE`` anchors are (logged and counted in ``journals/anchors_over_cap``).
    Every URL is requested in its :func:`~journals.pages.scope.canonical_url` form, once. A journal's request names its
    listing page by URL (kept in :attr:`recent_listings` and the page cache), never carries a copy of it.

    Bounds (:class:`CrawlBounds`): requests per source, letter nesting, listing pages per letter. A listing page
    whose journals are all known already (endless "Next" pages repeating a list, calendars) ends its branch;
    pagination is followed only from pages that list journals. A bound hit is logged once, counted in
    ``journals/bounds/KIND`` and recorded in ``journals/traps/SOURCE``, which fails the health check.
    """

    name = "publisher"
    max_browse_depth = 2
    """How many "Browse journals A–Z" hops the spider takes from a start page without letters."""

    def __init__(
        self,
        start_url: str | None = None,
        start_urls: str | None = None,
        source: str | None = None,
        render: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        urls = [canonical_url(url) for url in self.check_arguments(start_url=start_url, start_urls=start_urls)]
        self.seed_urls = urls
        self._requested: set[str] = set(urls)
        self.source_override = source if len(urls) == 1 else None
        self.sites: dict[str, SiteState] = {}
        for url in urls:
            state = self.sites.get(self.source_for(url))
            if state is None:
                self.sites[self.source_for(url)] = SiteState(SiteScope([url], self.extra_hosts()))
            else:
                state.scope.add(url)
        self.recent_listings = RecentListings()
        """The listing pages journal requests refer to (the MDR pipeline reads them)."""
        self.parsed_pages = RecentPages(DEFAULT_PARSED_PAGES_CHARS)
        """The pages this spider parsed, by URL, for the pipelines to read rather than parse again (see
        :class:`~journals.pages.parsed.RecentPages`): journal and metrics pages, and listing pages."""
        self._awaiting_metrics: dict[str, FetchedPage] = {}
        """Journal pages whose metrics hop is on its way, by URL."""
        self.bounds = CrawlBounds()
        self.max_anchors = MAX_ANCHORS_PER_PAGE
        """Anchors of a page analysed at most (``MAX_ANCHORS_PER_PAGE``): a wider page is read on its first part."""
        if render is not None and render not in RENDER_MODES:
            raise ValueError(f"render must be one of {', '.join(RENDER_MODES)}, got {render!r}")
        self.render_mode = render or self.default_render_mode()
        """Which pages are rendered in the browser (:data:`RENDER_MODES`)."""
        self._analysis = ThreadPoolExecutor(max_workers=1, thread_name_prefix="page-analysis")

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """The spider, with the crawl's bounds and listing memory size from its settings."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.bounds = CrawlBounds.from_settings(crawler.settings)
        spider.max_anchors = crawler.settings.getint("MAX_ANCHORS_PER_PAGE", MAX_ANCHORS_PER_PAGE)
        spider.recent_listings = RecentListings(crawler.settings.getint("LISTING_MEMORY_CHARS", DEFAULT_MAX_CHARS))
        spider.parsed_pages = RecentPages(crawler.settings.getint("PARSED_PAGES_CHARS", DEFAULT_PARSED_PAGES_CHARS))
        spider.apply_public_site_settings(crawler.settings)
        mode = crawler.settings.get("RENDER_PAGES")
        if mode is not None and mode not in RENDER_MODES:
            raise ValueError(f"RENDER_PAGES must be one of {', '.join(RENDER_MODES)}, got {mode!r}")
        chosen = (crawler.settings.getpriority("RENDER_PAGES") or 0) > SETTINGS_PRIORITIES["project"]
        if kwargs.get("render") is None and mode and chosen:
            spider.render_mode = mode
        return spider

    def apply_public_site_settings(self, settings: BaseSettings) -> None:
        """A crawl of a site on the public web (:func:`~journals.pages.scope.on_public_web`) runs politely: the setting
        ``PUBLIC_SITE_SETTINGS`` (a delay, two requests per site at once, AutoThrottle) replaces the project's
        defaults at the spider's priority, so that a value chosen with ``-s`` or a settings module still wins. A
        crawl of the sandbox, on 127.0.0.1, keeps the defaults. Warns once when the user agent names no contact
        address (no ``@``)."""
        if settings.frozen or not any(on_public_web(url) for url in self.seed_urls):
            return
        for name, value in (settings.getdict("PUBLIC_SITE_SETTINGS") or {}).items():
            settings.set(name, value, priority="spider")
        if "@" not in (agent := str(settings.get("USER_AGENT") or "")):
            self.logger.warning(
                "Crawling the public web as %r, which names no contact: set USER_AGENT to name you and an address, "
                "e.g. -s USER_AGENT='journals (+mailto:you@example.org)'",
                agent,
            )

    @classmethod
    def check_arguments(
        cls, start_url: str | None = None, start_urls: str | None = None, render: str | None = None, **_: Any
    ) -> list[str]:
        """The start URLs the arguments ask for; ``ValueError`` naming the problem when they are unusable."""
        if render is not None and render not in RENDER_MODES:
            raise ValueError(f"-a render must be one of {', '.join(RENDER_MODES)}, got {render!r}")
        urls = [u.strip() for u in (start_urls or "").split(",") if u.strip()]
        if start_url:
            urls.insert(0, start_url.strip())
        if not urls:
            urls = [cls.default_start_url()]
        for url in urls:
            if Origin.of(url) is None:
                raise ValueError(
                    f"start_url must be an absolute http(s) URL with a valid port, got {redact_url(url)!r}"
                )
        return urls

    @classmethod
    def default_start_url(cls) -> str:
        """The start URL when none is given: the generic spider needs one."""
        raise ValueError("the publisher spider needs -a start_url=URL (or -a start_urls=URL1,URL2)")

    def default_render_mode(self) -> str:
        """Which pages are rendered when neither the ``render`` argument nor ``RENDER_PAGES`` says: those that need
        it."""
        return "auto"

    def source_for(self, start_url: str) -> str:
        """The source name of the records found from ``start_url``."""
        return self.source_override or source_name(start_url)

    def extra_hosts(self) -> list[str]:
        """Hosts besides the start URL's that the site keeps its pages on (none for the generic spider)."""
        return []

    def request_in_scope(self, request: scrapy.Request) -> bool:
        """Whether ``request`` may be sent (:class:`journals.downloadermiddlewares.offsite.ScopeMiddleware` asks, for
        every request,
        redirect and meta refresh): on its source's site, or on the origin of the listed journal it was made
        for. A request of no source (robots.txt) may go to any source's site. A start page may redirect
        anywhere (a publisher moving its list to another host; its address is still checked): where it lands is
        then the site."""
        origin = Origin.of(request.url)
        if origin is None:
            return False
        if request.meta.get("start_page") or str(origin) == request.meta.get("journal_origin"):
            return True
        state = self.sites.get(request.meta.get("source", ""))
        states = [state] if state is not None else self.sites.values()
        return any(s.scope.allows_origin(origin) for s in states)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """One request per start URL, carrying its source.

        Everything made before the crawl starts (modules, settings, the vocabulary) lives as long as the process:
        ``gc.freeze()`` moves it out of the collector's sight, so a full collection during the crawl walks only the
        crawl's own objects (on six 200,000-anchor listings, ``python -m lab.reliability.wide``: the reactor's
        longest block 0.52 s without, 0.30–0.32 s with)."""
        gc.freeze()
        for url in self.seed_urls:
            source = self.source_for(url)
            self.sites[source].requests += 1
            yield scrapy.Request(
                url,
                callback=self.parse_start,
                cb_kwargs={"depth": 0},
                errback=self.start_failed,
                meta={"source": source, "index_depth": 0, "start_page": True, "page_role": "index"},
            )

    def closed(self, reason: str) -> None:
        """Stop the page-analysis thread."""
        self._analysis.shutdown(wait=False, cancel_futures=True)

    async def _analyse(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function(*args, **kwargs)`` in the page-analysis thread."""
        return await asyncio.wrap_future(self._analysis.submit(function, *args, **kwargs))

    async def _read(
        self,
        response: Response,
        memory: ListingMemory | None = None,
        letter: str | None = None,
        *,
        links: LinksRead = "all",
    ) -> ReadPage | None:
        """The page read in the analysis thread (:func:`read_page`), a journal or metrics page with its signs of
        being script-built when pages may be rendered; None, logged and counted, when it is binary.

        What reading found out of the ordinary is counted: a wrong charset, more anchors than
        ``MAX_ANCHORS_PER_PAGE`` (logged too). ``response.encoding`` is never asked (nor ``response.follow``, which
        asks it): without a declared charset, Scrapy decodes the whole body to guess it, on the reactor."""
        content_type = response.headers.get("Content-Type", b"").decode("latin-1")
        if not isinstance(response, TextResponse) or looks_binary(response.body):
            self.logger.warning("Skipping binary response %s (%s)", response.url, content_type or "no type")
            self.crawler.stats.inc_value("journals/skipped_binary")
            return None
        page = await self._analyse(
            read_page,
            response.body,
            content_type,
            response.url,
            self.max_anchors,
            memory=memory,
            letter=letter,
            links=links,
            signs=links != "all" and self.render_mode == "auto",
        )
        if page.charset_corrected:
            self.crawler.stats.inc_value("journals/encoding_corrected")
        if page.links is not None and page.links.truncated_anchors:
            self.crawler.stats.inc_value("journals/anchors_over_cap")
            self.logger.warning(
                "Page %s: read its first %d anchors, %d left (MAX_ANCHORS_PER_PAGE)",
                response.url,
                self.max_anchors,
                page.links.truncated_anchors,
            )
        if page.page.depth_cut:
            self.crawler.stats.inc_value("journals/depth_over_cap")
            self.logger.warning(
                "Page %s: nested deeper than %d elements, read below that depth as text", response.url, MAX_DEPTH
            )
        return page

    def _new(self, url: str) -> bool:
        """Whether ``url`` (canonical) was not requested by this spider yet; it is from now on.

        Every listing page links all 27 letters again; Scrapy's duplicate filter would drop those requests, but
        only after each went through the spider middlewares and a task of its own (a third of a cache replay's
        time, measured with pyinstrument), so the spider drops them first.
        """
        if url in self._requested:
            return False
        self._requested.add(url)
        return True

    def _within(self, source: str, kind: str, allowed: bool, url: str) -> bool:
        """``allowed``, and when not, the bound ``kind`` is hit: counted, and logged and recorded once per source."""
        if allowed:
            return True
        self.crawler.stats.inc_value(f"journals/bounds/{kind}")
        state = self.sites[source]
        if kind not in state.bounds_hit:
            state.bounds_hit.add(kind)
            self.logger.warning(
                "Crawl bound %s hit on %s at %s: not following further (a spider trap?)", kind, source, url
            )
            key = f"{TRAPS_STATS}{source}"
            record = {"kind": kind, "url": url}
            self.crawler.stats.set_value(key, [*(self.crawler.stats.get_value(key) or []), record])
        return False

    def _count_request(self, source: str, url: str) -> bool:
        """Count one more request of ``source``; False when it would pass the bound of requests per site."""
        state = self.sites[source]
        if not self._within(source, "pages_per_site", state.requests < self.bounds.pages_per_site, url):
            return False
        state.requests += 1
        return True

    def wants_rendering(self, request: scrapy.Request) -> bool:
        """Whether ``request`` is to be rendered in the browser (asked by
        :class:`journals.downloadermiddlewares.rendering.RenderingMiddleware`
        as it is about to be downloaded, so a request made before its source's pages of its role were found
        script-built is rendered too): every page with ``render=browser``, with ``auto`` the pages of a role
        (meta ``page_role``) its source builds with scripts."""
        state = self.sites.get(request.meta.get("source", ""))
        if state is None or self.render_mode == "never" or state.rendering_stopped:
            return False
        return self.render_mode == "browser" or request.meta.get("page_role") in state.rendered_roles

    def note_rendering(self, request: scrapy.Request, *, failed: bool) -> None:
        """Told by :class:`journals.downloadermiddlewares.rendering.RenderingMiddleware` whether the browser rendered
        ``request`` or failed
        on it (the page is then fetched as served). After :data:`RENDER_FAILURES_TO_STOP` failures in a row, the
        source is no longer rendered."""
        source = request.meta.get("source", "")
        state = self.sites.get(source)
        if state is None:
            return
        state.failed_renders = state.failed_renders + 1 if failed else 0
        if state.failed_renders >= RENDER_FAILURES_TO_STOP and not state.rendering_stopped:
            state.rendering_stopped = True
            self.crawler.stats.inc_value("journals/rendering/stopped")
            self.logger.error(
                "The browser failed on %d pages of %s in a row: reading its pages as served from now on",
                state.failed_renders,
                source,
            )

    async def _render_again(
        self, response: Response, page: ReadPage, role: PageRole, *, found: bool
    ) -> scrapy.Request | None:
        """The request that fetches ``response``'s page again in the browser, when it needs it; None otherwise.

        A page that did not give what the crawl came for (``found`` is False; a journal page naming no journal
        data) and shows the signs of a script-built page (:func:`~journals.pages.script_signs.script_signs`) is
        rendered,
        and so are the source's pages of ``role`` from then on. A journal or metrics page that names data but
        looks unfinished (a "Loading…" placeholder, an empty panel) is a probe: rendered, and its rendering
        compared with what it named as served (:meth:`_decide_on_probe`), which decides the role."""
        source = response.meta["source"]
        state = self.sites[source]
        rendered = bool(response.meta.get("playwright")) or was_rendered(response)
        if PROBE_META in response.meta and (rendered or response.meta.get(RENDERING_FAILED)):
            await self._decide_on_probe(response, page, role, found=found and rendered)
            return None
        if found or self.render_mode != "auto" or state.rendering_stopped or response.meta.get(RENDERING_FAILED):
            return None
        index = role in ("index", "listing")
        if rendered:
            if index or not await self._analyse(names_journal_data, page.page):
                self.crawler.stats.inc_value(f"journals/rendering/still_empty/{role}")
                self.logger.info("Rendered %s page %s has nothing to read either", role, response.url)
            return None
        if state.served_with_data[role] >= SIGNS_WITHOUT_MEANING:
            return None
        signs = page.signs if page.signs is not None else await self._analyse(script_signs, page.page, letters=index)
        verdict = await self._rendering_verdict(state, page, role, signs)
        if verdict is False:
            return None
        if not self._count_request(source, response.url):
            if verdict is not None:
                state.end_probe(role)
            return None
        return self._rendering_request(response, role, signs, verdict)

    async def _rendering_verdict(
        self, state: SiteState, page: ReadPage, role: PageRole, signs: ScriptSigns
    ) -> int | Literal[False] | None:
        """What to do with a served page that did not give what the crawl came for: False, read it as served; None,
        render it and its role from now on; a number, render it as a probe (the data its served HTML names).

        An index or listing page that gives nothing and runs scripts that can write it (a script file, an inline
        script calling the DOM or the network; not an analytics line) with no other sign is a probe (a list an
        infinite scroll fills is seen only by rendering it). A journal or metrics page that names data is a probe
        when it looks unfinished, and read as served otherwise."""
        index = role in ("index", "listing")
        if index and not signs.script_built and signs.builders:
            return {"served": False, "browser": None, "probe": 0}[await self._probe_wanted(state, role)]
        if not signs.script_built:
            return False
        if index or not await self._analyse(names_journal_data, page.page):
            return None
        wanted = await self._probe_wanted(state, role) if signs.unfinished else "served"
        if wanted == "served":
            state.served_with_data[role] += 1
            return False
        return None if wanted == "browser" else await self._analyse(journal_facts, page.page)

    async def _probe_wanted(self, state: SiteState, role: PageRole) -> Literal["probe", "browser", "served"]:
        """Whether an unfinished page of ``role`` is to be rendered: ``"browser"`` once the role is decided for the
        browser, ``"served"`` once decided as served; while undecided, ``"probe"`` when fewer than
        :data:`PROBES_TO_DECIDE` are in flight (counted in ``state.probing``), else the verdict once the probes in
        flight have ended, waited for up to :data:`PROBE_WAIT_SECONDS` (then ``"served"``)."""
        while (verdict := state.decided(role)) is None:
            if state.probing[role] < PROBES_TO_DECIDE:
                state.probing[role] += 1
                return "probe"
            ended = state.probe_ended.setdefault(role, asyncio.Event())
            try:
                await asyncio.wait_for(ended.wait(), PROBE_WAIT_SECONDS)
            except TimeoutError:
                self.crawler.stats.inc_value(f"journals/rendering/probe_wait_timeouts/{role}")
                return "served"
        return "browser" if verdict == "browser" else "served"

    def _rendering_request(
        self, response: Response, role: PageRole, signs: ScriptSigns, probe: int | None
    ) -> scrapy.Request:
        """``response``'s request made again in the browser, counted: a probe when ``probe`` (the journal data the
        page named as served) is given, else the first of its source's pages of ``role`` rendered from now on."""
        source = response.meta["source"]
        state = self.sites[source]
        for sign in signs.names:
            self.crawler.stats.inc_value(f"journals/rendering/signs/{sign}")
        meta = {key: response.meta[key] for key in SPIDER_META if key in response.meta}
        meta.update(rendering_meta(expand_letters=role in ("index", "listing")))
        if probe is not None:
            self.crawler.stats.inc_value(f"journals/rendering/probes/{role}")
            meta[PROBE_META] = probe
        else:
            self.crawler.stats.inc_value(f"journals/rendering/detected/{role}")
            if role not in state.rendered_roles:
                state.rendered_roles.add(role)
                self.logger.info(
                    "%s builds its %s pages with scripts (%s at %s): rendering them in the browser",
                    source,
                    role,
                    ", ".join(signs.names),
                    response.url,
                )
        return response.request.replace(meta=meta, dont_filter=True)

    async def _decide_on_probe(self, response: Response, page: ReadPage, role: PageRole, *, found: bool) -> None:
        """Compare a probe's rendering with what its page gave as served: when the browser shows more (an index or
        listing page: a list or letters where the served page had none, ``found``; a journal or metrics page: more
        journal data, :func:`~journals.pages.script_signs.journal_facts`), the source's pages of ``role`` are rendered
        from
        now on; after :data:`PROBES_TO_DECIDE` probes that show no more (or that the browser failed on), they are
        read as served. Counted in ``journals/rendering/decided/<role>/<browser|served>``; each decision logged once
        per source and role."""
        source = response.meta["source"]
        state = self.sites[source]
        served = int(response.meta[PROBE_META])
        try:
            if response.meta.get(RENDERING_FAILED):
                rendered = served
            elif role in ("index", "listing"):
                rendered = served + found
            else:
                rendered = await self._analyse(journal_facts, page.page)
        finally:
            state.end_probe(role)
        if state.decided(role) is not None:
            return
        if rendered > served:
            state.rendered_roles.add(role)
            decision = "browser"
        else:
            state.probes_without_gain[role] += 1
            if state.probes_without_gain[role] < PROBES_TO_DECIDE:
                return
            decision = "served"
        self.crawler.stats.inc_value(f"journals/rendering/decided/{role}/{decision}")
        self.logger.info(
            "%s: its %s page %s names %d kinds of journal data rendered, %d as served: %s",
            source,
            role,
            response.url,
            rendered,
            served,
            "rendering its pages of this role in the browser" if decision == "browser" else "reading them as served",
        )

    def parse_start(self, response: Response, depth: int) -> AsyncIterator[scrapy.Request]:
        """The start page, or a page its "Browse journals A–Z" link led to: an index page that may be the list.

        A start page that redirected to another origin puts that origin in the site's scope."""
        scope = self.sites[response.meta["source"]].scope
        if response.meta.get("start_page") and not scope.allows(response.url):
            self.logger.info("Start page moved to %s: that site is in scope", response.url)
            scope.add(response.url)
        return self.parse_index(response, depth)

    def parse_listing(self, response: Response) -> AsyncIterator[scrapy.Request]:
        """A letter's listing or one of its pages."""
        return self.parse_index(response, None)

    async def parse_index(self, response: Response, depth: int | None) -> AsyncIterator[scrapy.Request]:
        """An index page: follow its letters and pages, request its journal entries, or hop to the A–Z page.

        ``depth`` counts the browse hops taken from the start page; None for pages reached by a letter or a page
        link. The start page may itself be the list; letters that are scripts are not links, and the list they
        would filter is read where it is. On a start page that has letters, the entries are read only when they
        surely are a journal list (a home page's boxes are not).
        """
        source = response.meta["source"]
        page = await self._read(response, self.sites[source].memory, response.meta.get("letter"))
        if page is None:
            return
        async for request in self._index_requests(response, page, depth):
            yield request

    async def _index_requests(
        self, response: Response, page: ReadPage, depth: int | None
    ) -> AsyncIterator[scrapy.Request]:
        """What an index page read (:meth:`parse_index`) leads to: its letters, pages, journals and browse hops."""
        source = response.meta["source"]
        state = self.sites[source]
        letter = response.meta.get("letter")
        self._note_reader_actions(response, source)
        links, group = page.links, page.group
        assert links is not None
        letters = [a for a in links.letters if state.scope.allows(a.url)]
        # A "Browse journals" link back to this page or to one already taken (a site-wide menu) leads nowhere new.
        browse_on = (
            depth is not None
            and depth < self.max_browse_depth
            and any(canonical_url(a.url) not in self._requested for a in links.browse)
        )
        # A start page's weak list (a menu, sister journals in a footer) is read only when the page leads nowhere
        # else: its letters or its "Browse journals" link lead to the list itself.
        entries = (
            group.anchors
            if group is not None and (depth is None or group.confident or not (letters or browse_on))
            else []
        )
        role: PageRole = "listing" if depth is None else "index"
        # A start page's weak list (sister journals in a footer) does not stand for the list its scripts build; a
        # "Browse journals A–Z" hop still to take is a way on without a browser.
        found = bool((entries and (depth is None or (group is not None and group.confident))) or letters or browse_on)
        if again := await self._render_again(response, page, role, found=found):
            yield again
            return
        new_entries = [(a, url) for a in entries if (url := canonical_url(a.url)) not in self._requested]
        index_depth = response.meta.get("index_depth", 0)
        for anchor in letters:
            if request := self._follow_index(response, anchor, index_letter(anchor.text), index_depth + 1):
                yield request
        if entries and not new_entries:
            self.crawler.stats.inc_value("journals/repeated_listing")
            self.logger.debug("Every journal of %s is known already: not following its pages", response.url)
        elif entries or depth is not None:
            for anchor in links.pages:
                if request := self._follow_index(response, anchor, letter, index_depth):
                    yield request
        if entries:
            self.crawler.stats.inc_value("journals/listing_pages")
            self.recent_listings.keep(response.url, page.text)
            self.parsed_pages.keep(page.page)
            for request in self._journal_requests(response, new_entries):
                yield request
        if not (letters or depth is None):
            # A start page's own list may be a few featured or sister journals: the way to the whole list is
            # taken too (its journals are requested once).
            for request in self._browse_hops(response, links, depth, listed=bool(entries)):
                yield request

    def _browse_hops(
        self, response: Response, links: PageLinks, depth: int, *, listed: bool = False
    ) -> Iterator[scrapy.Request]:
        """From a start page with no letters: its "Browse journals A–Z" links, up to the browse depth (``listed``:
        the page showed journals of its own)."""
        source = response.meta["source"]
        if not (links.browse or listed):
            self.logger.warning("No journal list, A–Z letters or browse link on the start page %s", response.url)
        if depth >= self.max_browse_depth:
            return
        for anchor in links.browse:
            url = canonical_url(anchor.url)
            if self.sites[source].scope.allows(url) and self._new(url) and self._count_request(source, url):
                yield scrapy.Request(
                    url,
                    self.parse_start,
                    cb_kwargs={"depth": depth + 1},
                    errback=self.request_failed,
                    meta={
                        "source": source,
                        "index_depth": response.meta.get("index_depth", 0) + 1,
                        "page_role": "index",
                    },
                )

    def _follow_index(
        self, response: Response, anchor: Anchor, letter: str | None, index_depth: int
    ) -> scrapy.Request | None:
        """A request for a letter's listing or one of its pages; None when known, out of scope or out of bounds."""
        source = response.meta["source"]
        state = self.sites[source]
        url = listing_url(anchor.url)
        if not state.scope.allows(url) or url in self._requested:
            return None
        if not self._within(source, "index_depth", index_depth <= self.bounds.index_depth, url):
            return None
        key = letter or ""
        if not self._within(source, "listing_pages", state.listing_pages[key] < self.bounds.listing_pages, url):
            return None
        if not (self._new(url) and self._count_request(source, url)):
            return None
        state.listing_pages[key] += 1
        return scrapy.Request(
            url,
            self.parse_listing,
            errback=self.request_failed,
            meta={
                "source": source,
                "letter": letter,
                "index_depth": index_depth,
                "page_role": "listing",
            },
        )

    def _journal_requests(self, response: Response, entries: list[tuple[Anchor, str]]) -> Iterator[scrapy.Request]:
        """A request per journal entry of a listing, naming the listing page by URL.

        The list is the publisher's word on which journals are its own: an entry on a sister site (another host
        name on a default port, :func:`~journals.pages.scope.may_be_sister_site`) is followed too, that origin being
        in scope for its request, its redirects and its metrics hop only, unless ``FOLLOW_LISTED_JOURNAL_HOSTS``
        is off. Letters, pages and browse hops never leave the start site.
        """
        source = response.meta["source"]
        scope = self.sites[source].scope
        other_hosts = self.settings.getbool("FOLLOW_LISTED_JOURNAL_HOSTS", True)
        for anchor, url in entries:
            meta: dict[str, Any] = {"source": source, "page_role": "journal"}
            if not scope.allows(url):
                if not (other_hosts and may_be_sister_site(url)):
                    continue
                meta["journal_origin"] = str(Origin.of(url))
            if not (self._new(url) and self._count_request(source, url)):
                continue
            yield scrapy.Request(
                url,
                self.parse_journal,
                cb_kwargs={"listing_url": response.url, "listing_title": anchor.text[:LISTING_TITLE_LIMIT]},
                errback=self.request_failed,
                meta=meta,
            )

    async def parse_journal(
        self, response: Response, listing_url: str, listing_title: str
    ) -> AsyncIterator[scrapy.Request | JournalPages]:
        """A journal's home page: hop to its metrics page when it links one, else yield the journal.

        The hop's request names the home page by URL, as a journal's request names its listing: the page waits
        in memory for its metrics page (and is read back from the page cache after a pause or by another
        worker)."""
        page = await self._read(response, links="metrics")
        if page is None:
            return
        self._note_reader_actions(response, response.meta["source"])
        if again := await self._render_again(response, page, "journal", found=False):
            yield again
            return
        if (listing := await self._as_listing(response, page)) is not None:
            async for request in self._index_requests(response, listing, None):
                yield request
            return
        links = page.links
        assert links is not None
        self.parsed_pages.keep(page.page)
        source = response.meta["source"]
        home = FetchedPage(url=response.url, html=page.text, role="home", from_cache="cached" in response.flags)
        here = Origin.of(response.url)
        hops = [
            url
            for url in (canonical_url(a.url) for a in links.metrics)
            if url != canonical_url(response.url) and (self.sites[source].scope.allows(url) or Origin.of(url) == here)
        ]
        if not (hops and self._count_request(source, hops[0])):
            self.crawler.stats.inc_value("journals/journal_pages")
            yield JournalPages(
                source=source, url=response.url, listing_url=listing_url, listing_title=listing_title, pages=[home]
            )
            return
        self._awaiting_metrics[home.url] = home
        meta = {"source": source, "page_role": "metrics"}
        if here is not None and not self.sites[source].scope.allows_origin(here):
            meta["journal_origin"] = str(here)
        yield scrapy.Request(
            hops[0],
            self.parse_metrics,
            cb_kwargs={
                "home_url": home.url,
                "home_from_cache": home.from_cache,
                "listing_url": listing_url,
                "listing_title": listing_title,
            },
            errback=self.metrics_failed,
            dont_filter=True,
            meta=meta,
        )

    def _note_reader_actions(self, response: Response, source: str) -> None:
        """Count what the browser did as a reader on a page rendered now (``journals/rendering/grow_clicks``,
        ``grow_scrolls``, ``panels_opened``, ``placeholders_left``); a list still growing after the bound of clicks
        is a trap (bound ``grow_clicks``, failing the health check)."""
        actions = reader_actions(response)
        if not actions:
            return
        stats = self.crawler.stats
        for action, stat in (("clicks", "grow_clicks"), ("scrolls", "grow_scrolls"), ("opened", "panels_opened")):
            if count := int(actions.get(action) or 0):
                stats.inc_value(f"journals/rendering/{stat}", count)
        if placeholders := int(actions.get("placeholders") or 0):
            stats.inc_value("journals/rendering/placeholders_left", placeholders)
        if actions.get("capped"):
            self._within(source, "grow_clicks", False, response.url)

    async def _as_listing(self, response: Response, page: ReadPage) -> ReadPage | None:
        """The page read as a listing when the list promised a journal but it lists journals instead (a subject's
        or an area's page, a publisher's own "all journals" page): it names no journal data (no ISSN, no metric
        or identifier label) and lists journals (:func:`lists_journals`). Counted in
        ``journals/reclassified/listing``, the source's first logged. None for a journal's page.

        Why: pages are what their content says, not what the link that led there promised. A list of subject
        links on a start page is a list to read, never a list of journals to store."""
        if await self._analyse(names_journal_data, page.page):
            return None
        source = response.meta["source"]
        state = self.sites[source]
        listing = await self._analyse(read_links, page.page, self.max_anchors, state.memory)
        group = listing.group
        if group is None or not lists_journals(group, response.url):
            return None
        self.crawler.stats.inc_value("journals/reclassified/listing")
        if not state.reclassified_logged:
            state.reclassified_logged = True
            self.logger.info(
                "%s: %s, linked as a journal, lists %d journals: read as a listing",
                source,
                response.url,
                len(group.anchors),
            )
        return listing

    async def parse_metrics(
        self, response: Response, home_url: str, home_from_cache: bool, listing_url: str, listing_title: str
    ) -> AsyncIterator[JournalPages]:
        """The metrics page: add it to the journal's pages and yield the journal (its links are not read)."""
        page = await self._read(response, links="none")
        self._note_reader_actions(response, response.meta["source"])
        if page is not None and (again := await self._render_again(response, page, "metrics", found=False)):
            yield again
            return
        if page is not None:
            self.parsed_pages.keep(page.page)
        metrics = FetchedPage(
            url=response.url, html=page.text if page else "", role="metrics", from_cache="cached" in response.flags
        )
        yield self._journal_with_metrics(
            response.meta["source"],
            home_url=home_url,
            home_from_cache=home_from_cache,
            listing_url=listing_url,
            listing_title=listing_title,
            metrics=metrics if page else None,
        )

    def _journal_with_metrics(
        self,
        source: str,
        *,
        home_url: str,
        home_from_cache: bool,
        listing_url: str,
        listing_title: str,
        metrics: FetchedPage | None,
    ) -> JournalPages:
        """The journal a metrics hop was made for: its home page (from memory, else the page cache) and the
        metrics page, if any."""
        home = self._awaiting_metrics.pop(home_url, None)
        if home is None and (html := cached_page_text(self.crawler, home_url)) is not None:
            home = FetchedPage(url=home_url, html=html, role="home", from_cache=home_from_cache)
        if home is None:
            self.logger.warning("Journal page %s is neither in memory nor in the page cache", home_url)
            self.crawler.stats.inc_value("journals/journal_page_unavailable")
        self.crawler.stats.inc_value("journals/journal_pages")
        pages = [page for page in (home, metrics) if page is not None]
        return JournalPages(
            source=source, url=home_url, listing_url=listing_url, listing_title=listing_title, pages=pages
        )

    def request_failed(self, failure: Any) -> None:
        """A listing or journal page failed for good: log it once with its URL and count it by cause."""
        self._count_failure(failure)

    def start_failed(self, failure: Any) -> None:
        """A start page failed for good (after retries): count it, and record it for the health check.

        The record is the stat ``journals/start_failed/SOURCE`` (:data:`journals.health.START_FAILED_STATS`): a
        list with one ``{"url", "cause", "error"}`` per failed start page, its URL as given, before redirects.
        """
        cause = self._count_failure(failure)
        request = failure.request
        key = f"{START_FAILED_STATS}{request.meta.get('source')}"
        record = {
            "url": request.meta.get("redirect_urls", [request.url])[0],
            "cause": cause,
            "error": str(failure.value).strip().split("\n")[0],
        }
        self.crawler.stats.set_value(key, [*(self.crawler.stats.get_value(key) or []), record])

    def _count_failure(self, failure: Any) -> str:
        """Count a failed page by cause and source, log it once; return the cause (``http_404``, an error name).

        A request refused on purpose (``IgnoreRequest``: out of scope, robots.txt) is no failed page: it is
        counted and logged where it was refused. A page lost to a redirect loop or too many hops (Scrapy's redirect
        middleware ignores it, logging at DEBUG) is one: ``too_many_redirects``, ``redirect_loop``. A
        failed probe (a page rendered to decide on its role) ends, so that the pages waiting for its verdict go on.
        """
        meta = failure.request.meta
        if PROBE_META in meta and (state := self.sites.get(meta.get("source", ""))) is not None:
            state.end_probe(meta.get("page_role", ""))
        error = failure.value
        redirects = REDIRECT_FAILURES.get(str(error)) if failure.check(IgnoreRequest) else None
        if failure.check(IgnoreRequest) and getattr(error, "response", None) is None and redirects is None:
            self.logger.debug("Request refused (%s): %s", error, failure.request.url)
            return type(error).__name__
        response = getattr(error, "response", None)
        cause = redirects or (f"http_{response.status}" if response is not None else type(error).__name__)
        self.crawler.stats.inc_value(f"journals/failed_pages/{cause}")
        self.crawler.stats.inc_value(f"journals/failed_pages_by_source/{failure.request.meta.get('source')}")
        # A page that is gone (404, 410) is the site's dead link, not the crawl's failure: counted, logged as INFO.
        level = logging.INFO if cause in GONE_CAUSES else logging.WARNING
        self.logger.log(level, "Page failed (%s): %s", cause, failure.request.url)
        return cause

    def metrics_failed(self, failure: Any) -> Iterator[JournalPages]:
        """The metrics page failed: keep what the journal page gave rather than lose the journal."""
        self._count_failure(failure)
        self.crawler.stats.inc_value("journals/metrics_page_failed")
        request = failure.request
        yield self._journal_with_metrics(request.meta["source"], **request.cb_kwargs, metrics=None)
