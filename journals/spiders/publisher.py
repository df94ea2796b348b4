"""The generic A–Z spider: start page → letters → paginated listings → journal page → metrics hop.

It uses no site-specific XPath: :mod:`journals.pages.navigation` classifies each page's anchors. It yields one
:class:`~journals.items.JournalPages` per journal, naming the pages that matter; the item pipelines extract. The
spider is navigation and requests; beside it are the reading of a response (:mod:`journals.spiders.page_reader`), the
sources and their scope (:mod:`journals.spiders.sources`), the bounds (:mod:`journals.spiders.bounds`), the failed
pages (:mod:`journals.spiders.failures`), the arguments (:mod:`journals.spiders.arguments`), the pages kept for the
pipelines (:mod:`journals.extensions.page_store`) and the rendering policy
(:mod:`journals.downloadermiddlewares.rendering_policy`).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self

import scrapy
from scrapy.http import Response
from scrapy.settings import SETTINGS_PRIORITIES

from journals.downloadermiddlewares.rendering_policy import RenderingPolicy
from journals.extensions.page_store import PageStore, page_store
from journals.items import FetchedPage, JournalPages
from journals.pages.analysis_thread import AnalysisThread
from journals.pages.navigation import Anchor, PageLinks
from journals.pages.reading import ReadPage, index_letter
from journals.pages.rendering_state import PageRole, resolve_render_mode
from journals.pages.scope import Origin, canonical_url, listing_url, may_be_sister_site
from journals.spiders import arguments
from journals.spiders.arguments import apply_public_site_settings, source_name
from journals.spiders.bounds import CrawlBounds, CrawlLimits
from journals.spiders.failures import FailedPages
from journals.spiders.page_reader import PageReader
from journals.spiders.sources import crawl_sources, request_in_scope

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["PublisherSpider"]

LISTING_TITLE_LIMIT = 500
"""Characters of an entry's anchor text a journal request carries (its title when the listing is gone)."""


class PublisherSpider(scrapy.Spider):
    """Crawl any site that lists its journals under A–Z links.

    Arguments: ``start_url`` (one site) or ``start_urls`` (comma-separated, one source each); ``source`` names
    the source when there is one start URL (default: from the URL); ``render`` (:data:`RENDER_MODES`) says which
    pages are rendered in the browser, chosen once in the order of
    :func:`~journals.pages.rendering_state.resolve_render_mode` (the argument, a ``RENDER_PAGES`` chosen for the
    crawl, the site registry's entry, the project's ``RENDER_PAGES``) and applied by
    :class:`~journals.downloadermiddlewares.rendering_policy.RenderingPolicy`.

    Every URL is requested in its :func:`~journals.pages.scope.canonical_url` form, once, and canonicalised once: a
    URL the spider requested is canonical already. A journal's request names its listing page by URL (kept in the
    crawl's :class:`~journals.extensions.page_store.PageStore` and the page cache), never carries a copy of it.

    Each response is read in one hand-off to the analysis thread, its meta refresh included: a page that declares
    one is left for where it leads (:meth:`~journals.spiders.page_reader.PageReader.read_or_follow`), as Scrapy's
    ``MetaRefreshMiddleware`` would have left it.

    Bounds (:class:`~journals.spiders.bounds.CrawlBounds`): requests per source, letter nesting, listing pages per
    letter. A listing page whose journals are all known already (endless "Next" pages repeating a list, calendars)
    ends its branch; pagination is followed only from pages that list journals.
    """

    name = "publisher"
    reads_meta_refresh = True
    """The spider reads each page's meta refresh off its parsed tree
    (:class:`~journals.downloadermiddlewares.redirect.MetaRefreshSpider`)."""
    max_browse_depth = 2
    """How many "Browse journals A–Z" hops the spider takes from a start page without letters."""
    reader: PageReader
    """Reads each response in the crawl's analysis thread (made with the crawler)."""
    limits: CrawlLimits
    """The crawl's bounds and each source's requests against them (made with the crawler)."""
    rendering: RenderingPolicy
    """Which pages are rendered in the browser (made with the crawler)."""
    failures: FailedPages
    """The account of failed pages (made with the crawler)."""

    def __init__(
        self,
        start_url: str | None = None,
        start_urls: str | None = None,
        source: str | None = None,
        render: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        checked = self.check_arguments(start_url=start_url, start_urls=start_urls, render=render)
        urls = [canonical_url(url) for url in checked]
        self.seed_urls = urls
        self._requested: set[str] = set(urls)
        self._listing_forms: dict[str, str] = {}
        self.source_override = source if len(urls) == 1 else None
        self.sites = crawl_sources(urls, self.source_for, self.extra_hosts())
        """Per source, its scope and listing memory."""
        self.render_argument = render
        self.render_mode = render or "auto"
        """Which pages are rendered in the browser (:data:`RENDER_MODES`), resolved in :meth:`from_crawler`."""

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """The spider, with the crawl's bounds, render mode and rendering policy from its settings."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.apply_public_site_settings(settings)
        spider.render_mode = resolve_render_mode(
            spider.render_argument,
            settings.get("RENDER_PAGES"),
            setting_chosen=(settings.getpriority("RENDER_PAGES") or 0) > SETTINGS_PRIORITIES["project"],
            registry=spider.registry_render_mode(),
        )
        analysis = AnalysisThread()
        max_anchors = settings.getint("MAX_ANCHORS_PER_PAGE")
        spider.reader = PageReader(crawler, analysis, max_anchors, spider.logger)
        spider.limits = CrawlLimits(CrawlBounds.from_settings(settings), crawler, spider.logger)
        spider.failures = FailedPages(crawler, spider.logger)
        spider.rendering = RenderingPolicy(
            spider.render_mode,
            spider.sites,
            crawler=crawler,
            analysis=analysis,
            budget=spider.limits,
            logger=spider.logger,
        )
        return spider

    @cached_property
    def pages(self) -> PageStore:
        """The crawl's page store, where read pages are kept for the pipelines."""
        return page_store(self.crawler)

    def apply_public_site_settings(self, settings: BaseSettings) -> None:
        """Settings for a crawl of the public web (:func:`~journals.spiders.arguments.apply_public_site_settings`)."""
        apply_public_site_settings(settings, self.seed_urls, self.logger)

    @classmethod
    def check_arguments(
        cls, start_url: str | None = None, start_urls: str | None = None, render: str | None = None, **_: Any
    ) -> list[str]:
        """The start URLs the arguments ask for; ``ValueError`` naming the problem when they are unusable."""
        return arguments.start_urls(start_url, start_urls, render, None) or [cls.default_start_url()]

    @classmethod
    def default_start_url(cls) -> str:
        """The start URL when none is given: the generic spider needs one."""
        raise ValueError("the publisher spider needs -a start_url=URL (or -a start_urls=URL1,URL2)")

    def registry_render_mode(self) -> str | None:
        """The site registry's word on rendering this spider's site (``settings/sites.json``'s ``render``); None
        for the generic spider, which has no entry."""
        return None

    def source_for(self, start_url: str) -> str:
        """The source name of the records found from ``start_url``."""
        return self.source_override or source_name(start_url)

    def extra_hosts(self) -> list[str]:
        """Hosts besides the start URL's that the site keeps its pages on (none for the generic spider)."""
        return []

    def request_in_scope(self, request: scrapy.Request) -> bool:
        """Whether ``request`` may be sent (:class:`~journals.downloadermiddlewares.offsite.ScopeMiddleware` asks,
        for every request, redirect and meta refresh): :func:`~journals.spiders.sources.request_in_scope`."""
        return request_in_scope(self.sites, request)

    def wants_rendering(self, request: scrapy.Request) -> bool:
        """Whether ``request`` is to be rendered in the browser (asked by
        :class:`~journals.downloadermiddlewares.rendering.RenderingMiddleware`): the policy's word."""
        return self.rendering.wants_rendering(request)

    def note_rendering(self, request: scrapy.Request, *, failed: bool) -> None:
        """Told by :class:`~journals.downloadermiddlewares.rendering.RenderingMiddleware` whether the browser rendered
        ``request`` or failed on it: the policy counts it."""
        self.rendering.note_rendering(request, failed=failed)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """One request per start URL, carrying its source.

        Everything made before the crawl starts (modules, settings, the vocabulary) lives as long as the process:
        ``gc.freeze()`` moves it out of the collector's sight, so a full collection during the crawl walks only the
        crawl's own objects (the reactor's longest block on wide listings: docs/ARCHITECTURE.md). The collector's
        youngest generation is looked over every ``GC_YOUNG_THRESHOLD`` new objects rather than Python's 700: a
        crawl makes millions of requests, responses and items and almost no reference cycles, and the passes found
        nothing for their cost."""
        gc.freeze()
        if (young := self.settings.get("GC_YOUNG_THRESHOLD")) is not None:
            gc.set_threshold(int(young), *gc.get_threshold()[1:])
        for url in self.seed_urls:
            source = self.source_for(url)
            self.limits.requests[source] += 1
            yield scrapy.Request(
                url,
                callback=self.parse_start,
                cb_kwargs={"depth": 0},
                errback=self.start_failed,
                meta={"source": source, "index_depth": 0, "start_page": True, "page_role": "index"},
            )

    def closed(self, reason: str) -> None:
        """Stop the page-analysis thread."""
        self.reader.analysis.shutdown()

    def _canonical(self, url: str) -> str:
        """``url`` in its :func:`~journals.pages.scope.canonical_url` form: itself when this spider requested it
        (every URL it requests is canonical), so that the links every page repeats are not canonicalised again."""
        return url if url in self._requested else canonical_url(url)

    def _listing_form(self, url: str) -> str:
        """``url`` in its :func:`~journals.pages.scope.listing_url` form, worked out once per URL: every listing
        page links its letters and pages again."""
        form = self._listing_forms.get(url)
        if form is None:
            form = self._listing_forms[url] = listing_url(url)
        return form

    def _new(self, url: str) -> bool:
        """Whether ``url`` (canonical) was not requested by this spider yet; it is from now on.

        Every listing page links all 27 letters again; Scrapy's duplicate filter would drop those requests, but
        only after each went through the spider middlewares and a task of its own (a large share of a cache
        replay's time), so the spider drops them first.
        """
        if url in self._requested:
            return False
        self._requested.add(url)
        return True

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
        page = await self.reader.read_or_follow(
            response,
            memory=self.sites[source].memory,
            letter=response.meta.get("letter"),
            signs=self.rendering.reads_signs,
        )
        if not isinstance(page, ReadPage):
            for request in page or ():
                yield request
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
        self.rendering.note_reader_actions(response, source)
        links, group = page.links, page.group
        assert links is not None
        letters = [a for a in links.letters if state.scope.allows(a.url)]
        # A "Browse journals" link back to this page or to one already taken (a site-wide menu) leads nowhere new.
        browse_on = (
            depth is not None
            and depth < self.max_browse_depth
            and any(self._canonical(a.url) not in self._requested for a in links.browse)
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
        if again := await self.rendering.render_again(response, page, role, found=found):
            yield again
            return
        new_entries = [(a, url) for a in entries if (url := self._canonical(a.url)) not in self._requested]
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
            self.pages.keep_listing(page.page)
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
        index_depth = response.meta.get("index_depth", 0)
        for anchor in links.browse:
            url = self._canonical(anchor.url)
            if self.sites[source].scope.allows(url) and self._new(url) and self.limits.count_request(source, url):
                yield scrapy.Request(
                    url,
                    self.parse_start,
                    cb_kwargs={"depth": depth + 1},
                    errback=self.request_failed,
                    meta={"source": source, "index_depth": index_depth + 1, "page_role": "index"},
                )

    def _follow_index(
        self, response: Response, anchor: Anchor, letter: str | None, index_depth: int
    ) -> scrapy.Request | None:
        """A request for a letter's listing or one of its pages; None when known, out of scope or out of bounds."""
        source = response.meta["source"]
        state = self.sites[source]
        url = self._listing_form(anchor.url)
        if url in self._requested or not state.scope.allows(url):
            return None
        if not self.limits.index_room(source, letter, index_depth, url):
            return None
        if not (self._new(url) and self.limits.count_request(source, url)):
            return None
        self.limits.listing_pages[source][letter or ""] += 1
        return scrapy.Request(
            url,
            self.parse_listing,
            errback=self.request_failed,
            meta={"source": source, "letter": letter, "index_depth": index_depth, "page_role": "listing"},
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
        other_hosts = self.settings.getbool("FOLLOW_LISTED_JOURNAL_HOSTS")
        for anchor, url in entries:
            meta: dict[str, Any] = {"source": source, "page_role": "journal"}
            if not scope.allows(url):
                if not (other_hosts and may_be_sister_site(url)):
                    continue
                meta["journal_origin"] = str(Origin.of(url))
            if not (self._new(url) and self.limits.count_request(source, url)):
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
        """A journal's home page: hop to its metrics page when it links one, else yield the journal; a page that
        lists journals instead is read as a listing."""
        source = response.meta["source"]
        page = await self.reader.read_or_follow(
            response,
            memory=self.sites[source].memory,
            links="metrics",
            signs=self.rendering.reads_signs,
            final=self.rendering.is_final(response),
            facts=self.rendering.is_probe(response),
        )
        if not isinstance(page, ReadPage):
            for output in page or ():
                yield output
            return
        self.rendering.note_reader_actions(response, source)
        if again := await self.rendering.render_again(response, page, "journal", found=False):
            yield again
            return
        if (listing := await self.reader.as_listing(response, page, self.sites[source].memory)) is not None:
            async for request in self._index_requests(response, listing, None):
                yield request
            return
        self.pages.keep(page.page)
        yield self._metrics_hop(response, page, listing_url, listing_title)

    def _metrics_hop(
        self, response: Response, page: ReadPage, listing_url: str, listing_title: str
    ) -> scrapy.Request | JournalPages:
        """The request for a journal page's metrics page, on its site or its own origin; the journal with its home
        page alone when it links none (or the bound of requests is reached).

        The hop's request names the home page by URL, as a journal's request names its listing: the page waits in
        the page store for its metrics page (and is read back from the page cache after a pause or by another
        worker)."""
        source = response.meta["source"]
        scope = self.sites[source].scope
        home = FetchedPage(url=response.url, html=page.text, role="home", from_cache="cached" in response.flags)
        here = Origin.of(response.url)
        assert page.links is not None
        hops = [
            url
            for url in (self._canonical(a.url) for a in page.links.metrics)
            if url != self._canonical(response.url) and (scope.allows(url) or Origin.of(url) == here)
        ]
        if not (hops and self.limits.count_request(source, hops[0])):
            self.crawler.stats.inc_value("journals/journal_pages")
            return JournalPages(
                source=source, url=response.url, listing_url=listing_url, listing_title=listing_title, pages=[home]
            )
        self.pages.await_metrics(home)
        meta = {"source": source, "page_role": "metrics"}
        if here is not None and not scope.allows_origin(here):
            meta["journal_origin"] = str(here)
        return scrapy.Request(
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

    async def parse_metrics(
        self, response: Response, home_url: str, home_from_cache: bool, listing_url: str, listing_title: str
    ) -> AsyncIterator[scrapy.Request | JournalPages]:
        """The metrics page: add it to the journal's pages and yield the journal (its links are not read)."""
        read = await self.reader.read_or_follow(
            response,
            links="none",
            signs=self.rendering.reads_signs,
            final=self.rendering.is_final(response),
            facts=self.rendering.is_probe(response),
        )
        if isinstance(read, list):
            for output in read:
                yield output
            return
        page = read
        self.rendering.note_reader_actions(response, response.meta["source"])
        if page is not None and (again := await self.rendering.render_again(response, page, "metrics", found=False)):
            yield again
            return
        if page is not None:
            self.pages.keep(page.page)
        metrics = FetchedPage(
            url=response.url, html=page.text if page else "", role="metrics", from_cache="cached" in response.flags
        )
        home = self.pages.home_page(home_url, from_cache=home_from_cache)
        if home is None:
            home = await self._journal_page_again(response, home_url)
        yield self._journal_with_metrics(
            response.meta["source"],
            home_url=home_url,
            home_from_cache=home_from_cache,
            listing_url=listing_url,
            listing_title=listing_title,
            metrics=metrics if page else None,
            home=home,
        )

    async def _journal_page_again(self, response: Response, url: str) -> FetchedPage | None:
        """The journal page at ``url`` that a metrics hop was made from, when neither memory nor the page cache holds
        it (the worker that fetched it could not cache it, or the cache is off): fetched again through the
        downloader middlewares (the page cache first, the scope, rendering), counted in
        ``journals/journal_page_fetched_again``, rather than the journal stored without it. None when that fails."""
        meta = {key: response.meta[key] for key in ("source", "journal_origin") if key in response.meta}
        request = scrapy.Request(url, meta={**meta, "page_role": "journal"}, dont_filter=True)
        assert self.crawler.engine is not None
        try:
            fetched = await self.crawler.engine.download_async(request)
        except Exception as exc:  # whatever the downloader raised, the journal keeps its metrics page
            self.logger.warning("Journal page %s could not be fetched again: %s", url, exc)
            return None
        self.crawler.stats.inc_value("journals/journal_page_fetched_again")
        page = await self.reader.read(fetched, links="none", refresh=False)
        if page is None:
            return None
        self.pages.keep(page.page)
        return FetchedPage(url=fetched.url, html=page.text, role="home", from_cache="cached" in fetched.flags)

    def request_failed(self, failure: Any) -> None:
        """A listing or journal page failed for good: log it once with its URL and count it by cause."""
        self._count_failure(failure)

    def start_failed(self, failure: Any) -> None:
        """A start page failed for good (after retries): count it, and record it for the health check
        (:meth:`~journals.spiders.failures.FailedPages.record_start_failure`)."""
        self.failures.record_start_failure(failure, self._count_failure(failure))

    def _count_failure(self, failure: Any) -> str:
        """Count a failed page (:class:`~journals.spiders.failures.FailedPages`); a failed probe (a page rendered to
        decide on its role) ends, so that the pages waiting for its verdict go on."""
        self.rendering.request_failed(failure.request)
        return self.failures.count(failure)

    def metrics_failed(self, failure: Any) -> Iterator[JournalPages]:
        """The metrics page failed: keep what the journal page gave rather than lose the journal."""
        self._count_failure(failure)
        self.crawler.stats.inc_value("journals/metrics_page_failed")
        request = failure.request
        yield self._journal_with_metrics(request.meta["source"], **request.cb_kwargs, metrics=None)

    def _journal_with_metrics(self, source: str, *, metrics: FetchedPage | None, **hop: Any) -> JournalPages:
        """The journal a metrics hop was made for (:meth:`~journals.extensions.page_store.PageStore.journal`),
        counted."""
        self.crawler.stats.inc_value("journals/journal_pages")
        return self.pages.journal(source, metrics=metrics, **hop)
