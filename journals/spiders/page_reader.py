"""A response read for the spider in the crawl's analysis thread, and what reading found out of the ordinary counted.

The reading itself is pure (:mod:`journals.pages.reading`); this is its hand-off from the reactor to the analysis
thread (:class:`~journals.pages.analysis_thread.AnalysisThread`) and back, one per page, with the counts and log
lines, and the following of a page's meta refresh, read in that hand-off, in place of Scrapy's
``MetaRefreshMiddleware`` (:class:`~journals.downloadermiddlewares.redirect.ParsedMetaRefreshMiddleware`).
``response.encoding`` is never asked (nor ``response.follow``, which asks it): without a declared charset, Scrapy
decodes the whole body to guess it, on the reactor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from journals.downloadermiddlewares.redirect import ParsedMetaRefreshMiddleware
from journals.mdr.listing import tree_rows
from journals.pages.decoding import looks_binary
from journals.pages.meta_refresh import MetaRefresh, RefreshRule
from journals.pages.parsed import MAX_DEPTH
from journals.pages.reading import LinksRead, ReadPage, lists_journals, read_links, read_page
from journals.pages.script_signs import names_journal_data

if TYPE_CHECKING:
    import logging

    from scrapy.crawler import Crawler

    from journals.pages.analysis_thread import AnalysisThread
    from journals.pages.entries import ListingMemory


class PageReader:
    """Reads responses in ``analysis``, one at a time, each on its first ``max_anchors`` anchors."""

    def __init__(
        self,
        crawler: Crawler,
        analysis: AnalysisThread,
        max_anchors: int,
        logger: logging.LoggerAdapter[logging.Logger],
    ) -> None:
        """A reader for ``crawler``'s spider, counting in its stats and logging to ``logger``."""
        self.analysis = analysis
        self.max_anchors = max_anchors
        """Anchors of a page analysed at most (``MAX_ANCHORS_PER_PAGE``): a wider page is read on its first part."""
        settings = crawler.settings
        self.refreshes = (
            RefreshRule(tuple(settings.getlist("METAREFRESH_IGNORE_TAGS")), settings.getfloat("METAREFRESH_MAXDELAY"))
            if settings.getbool("METAREFRESH_ENABLED")
            else None
        )
        """The meta refreshes read off each page for the spider to follow (Scrapy's ``METAREFRESH_*`` settings)."""
        self._crawler = crawler
        self._logger = logger
        self._reclassified_logged: set[str] = set()
        self._meta_refreshes: ParsedMetaRefreshMiddleware | Literal[False] | None = None

    def _inc(self, key: str) -> None:
        assert self._crawler.stats is not None
        self._crawler.stats.inc_value(key)

    async def read(
        self,
        response: Response,
        memory: ListingMemory | None = None,
        letter: str | None = None,
        *,
        links: LinksRead = "all",
        signs: bool = False,
        final: bool = False,
        facts: bool = False,
        refresh: bool = True,
    ) -> ReadPage | None:
        """The page read in the analysis thread, in one hand-off (:func:`~journals.pages.reading.read_page`): with
        its signs of being script-built when ``signs`` (pages may be rendered; an index page's when it gives nothing;
        ``final``: it was rendered or its rendering failed; ``facts``: it is a rendering probe), a journal page given
        its site's ``memory`` read as an index too when it names no journal data; with ``refresh``, a page declaring
        a meta refresh to follow is read for that alone. None, logged and counted, when it is binary. A wrong
        charset, more anchors than ``MAX_ANCHORS_PER_PAGE`` and nesting deeper than
        :data:`~journals.pages.parsed.MAX_DEPTH` are counted (the last two logged too)."""
        content_type = response.headers.get("Content-Type", b"").decode("latin-1")
        if not isinstance(response, TextResponse) or looks_binary(response.body):
            self._logger.warning("Skipping binary response %s (%s)", response.url, content_type or "no type")
            self._inc("journals/skipped_binary")
            return None
        page = await self.analysis.run(
            read_page,
            response.body,
            content_type,
            response.url,
            self.max_anchors,
            memory=memory,
            letter=letter,
            links=links,
            signs=signs,
            refreshes=self.refreshes if refresh else None,
            final=final,
            facts=facts,
            rows=tree_rows,
        )
        if page.refresh is not None:
            return page
        if page.charset_corrected:
            self._inc("journals/encoding_corrected")
        if page.links is not None and page.links.truncated_anchors:
            self._inc("journals/anchors_over_cap")
            self._logger.warning(
                "Page %s: read its first %d anchors, %d left (MAX_ANCHORS_PER_PAGE)",
                response.url,
                self.max_anchors,
                page.links.truncated_anchors,
            )
        if page.page.depth_cut:
            self._inc("journals/depth_over_cap")
            self._logger.warning(
                "Page %s: nested deeper than %d elements, read below that depth as text", response.url, MAX_DEPTH
            )
        return page

    async def read_or_follow(self, response: Response, **reading: Any) -> ReadPage | list[Any] | None:
        """``response``'s page read (:meth:`read`, with ``reading``'s arguments; None when binary); or, when it
        declares a meta refresh that Scrapy would follow, what the callback yields instead of reading it
        (:meth:`follow_refresh`)."""
        page = await self.read(response, **reading)
        if page is None or page.refresh is None:
            return page
        followed = self.follow_refresh(response, page.refresh)
        if followed is not None:
            return followed
        return await self.read(response, refresh=False, **reading)

    def follow_refresh(self, response: Response, refresh: MetaRefresh) -> list[Any] | None:
        """Follow ``response``'s meta refresh as Scrapy's redirects do
        (:meth:`~journals.downloadermiddlewares.redirect.ParsedMetaRefreshMiddleware.refresh_request`): the request is
        handed to the engine, as a downloader middleware's redirect is (not through the spider middlewares: it is
        the same request, redirected), and judged in scope as it is downloaded; nothing is yielded for the page.
        Past ``REDIRECT_MAX_TIMES``, what the request's errback gives of its failure is yielded. None when the
        refresh is not followed (the page is read)."""
        middleware = self._meta_refresh_middleware()
        request = response.request
        if middleware is None or request is None:
            return None
        try:
            redirected = middleware.refresh_request(response, refresh.seconds, refresh.url)
        except IgnoreRequest as error:
            failure = Failure(error)
            failure.request = request  # type: ignore[attr-defined]  # as Scrapy hands an errback its failure
            return list(request.errback(failure) or []) if request.errback is not None else []
        if redirected is None:
            return None
        assert self._crawler.engine is not None
        self._crawler.engine.crawl(redirected)
        return []

    def _meta_refresh_middleware(self) -> ParsedMetaRefreshMiddleware | None:
        """The crawl's meta refresh middleware, which makes the request a refresh leads to; None when it is not
        enabled, or no engine runs (no refresh is followed)."""
        if self._meta_refreshes is None and self._crawler.engine is not None:
            found = self._crawler.get_downloader_middleware(ParsedMetaRefreshMiddleware)
            self._meta_refreshes = found if found is not None else False
        return self._meta_refreshes or None

    async def as_listing(self, response: Response, page: ReadPage, memory: ListingMemory) -> ReadPage | None:
        """The page read as a listing when the list promised a journal but it lists journals instead (a subject's
        or an area's page, a publisher's own "all journals" page): it names no journal data (no ISSN, no metric
        or identifier label) and lists journals (:func:`~journals.pages.reading.lists_journals`). Counted in
        ``journals/reclassified/listing``, each source's first logged. None for a journal's page. Both questions are
        answered from the page's one reading when it was read so; otherwise asked of the analysis thread.

        Why: pages are what their content says, not what the link that led there promised. A list of subject
        links on a start page is a list to read, never a list of journals to store."""
        names_data = page.names_data
        if names_data is None:
            names_data = await self.analysis.run(names_journal_data, page.page)
        if names_data:
            return None
        listing = page.as_index or await self.analysis.run(read_links, page.page, self.max_anchors, memory)
        group = listing.group
        if group is None or not lists_journals(group, response.url):
            return None
        self._inc("journals/reclassified/listing")
        source = response.meta["source"]
        if source not in self._reclassified_logged:
            self._reclassified_logged.add(source)
            self._logger.info(
                "%s: %s, linked as a journal, lists %d journals: read as a listing",
                source,
                response.url,
                len(group.anchors),
            )
        return listing
