"""When a source's pages are rendered: the rendering policy the spider consults on every page it reads and
:class:`~journals.downloadermiddlewares.rendering.RenderingMiddleware` on every request it is about to download.

Rendering (``auto``): a page whose served HTML lacks what the crawl came for (letters or a journal list on an index
page, an ISSN or a metric on a journal page) and shows the signs of a script-built page
(:func:`~journals.pages.script_signs.script_signs`) is requested again in the browser, its script letters clicked
when it has some; from then on every page of that role (:data:`~journals.pages.rendering_state.PageRole`) of the
source is requested in the browser at once. A page that names data but looks unfinished is a probe: rendered, and
its rendering compared with what it named as served, which decides the role. Counted in ``journals/rendering/*``.

The state and the counts that decide are pure (:mod:`journals.pages.rendering_state`); this module makes the requests
and counts, on what the spider's one reading of the page found (:class:`~journals.pages.reading.ReadPage`), asking the
crawl's analysis thread only what that reading left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from journals.downloadermiddlewares.rendering import (
    INDEX_ROLES,
    RENDERING_FAILED,
    reader_actions,
    rendering_meta,
    was_rendered,
)
from journals.pages.rendering_state import SIGNS_WITHOUT_MEANING, PageRole, SourceRendering
from journals.pages.script_signs import ScriptSigns, journal_facts, names_journal_data, script_signs

if TYPE_CHECKING:
    import logging
    from collections.abc import Iterable

    import scrapy
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from journals.pages.analysis_thread import AnalysisThread
    from journals.pages.reading import ReadPage

PROBE_META = "journals_probe"
"""Request meta of a page rendered as a probe: the journal data its served HTML named
(:func:`~journals.pages.script_signs.journal_facts`), which its rendering is compared with."""
SPIDER_META = ("source", "page_role", "letter", "index_depth", "start_page", "journal_origin", PROBE_META)
"""The request meta keys the spider sets (a request made again to render carries them over)."""


class RequestBudget(Protocol):
    """The crawl's bounds, as the policy needs them: a page requested again to be rendered is one more request."""

    def count_request(self, source: str, url: str) -> bool:
        """Count one more request of ``source``; False when it would pass the bound of requests per site."""
        ...

    def within(self, source: str, kind: str, allowed: bool, url: str) -> bool:
        """``allowed``, and when not, the bound ``kind`` is hit (counted, logged and recorded)."""
        ...


class RenderingPolicy:
    """Per source, which pages are rendered in the browser, under the crawl's render mode
    (:data:`~journals.pages.rendering_state.RENDER_MODES`: ``auto`` those that need it, ``browser`` all, ``never``
    none)."""

    def __init__(
        self,
        mode: str,
        sources: Iterable[str],
        *,
        crawler: Crawler,
        analysis: AnalysisThread,
        budget: RequestBudget,
        logger: logging.Logger | logging.LoggerAdapter[logging.Logger],
    ) -> None:
        """The policy of ``crawler``'s crawl of ``sources`` under ``mode``; pages are read in ``analysis``, renders
        counted against ``budget``, decisions logged to ``logger``."""
        self.mode = mode
        """The crawl's render mode, chosen once (:func:`~journals.pages.rendering_state.resolve_render_mode`)."""
        self.sources = {source: SourceRendering() for source in sources}
        """What the crawl has learned about rendering each source's pages."""
        self._crawler = crawler
        self._analysis = analysis
        self._budget = budget
        self._logger = logger

    @property
    def reads_signs(self) -> bool:
        """Whether pages are read with their signs of being script-built (only ``auto`` decides on them)."""
        return self.mode == "auto"

    def _inc(self, key: str, count: int = 1) -> None:
        assert self._crawler.stats is not None
        self._crawler.stats.inc_value(key, count)

    @staticmethod
    def is_rendered(response: Response) -> bool:
        """Whether ``response`` is a page the browser rendered (asked to, or replayed from the cache as rendered)."""
        return bool(response.meta.get("playwright")) or was_rendered(response)

    def is_final(self, response: Response) -> bool:
        """Whether ``response``'s page is read as it stays: rendered, or its rendering failed (it is not requested
        again to be rendered)."""
        return self.is_rendered(response) or bool(response.meta.get(RENDERING_FAILED))

    @staticmethod
    def is_probe(response: Response) -> bool:
        """Whether ``response`` is a probe's rendering (or its failure), which is compared with the page as served."""
        return PROBE_META in response.meta

    def wants_rendering(self, request: scrapy.Request) -> bool:
        """Whether ``request`` is to be rendered in the browser (asked as it is about to be downloaded, so a request
        made before its source's pages of its role were found script-built is rendered too): every page with
        ``browser``, with ``auto`` the pages of a role (meta ``page_role``) its source builds with scripts."""
        state = self.sources.get(request.meta.get("source", ""))
        if state is None or self.mode == "never" or state.stopped:
            return False
        return self.mode == "browser" or request.meta.get("page_role") in state.rendered_roles

    def note_rendering(self, request: scrapy.Request, *, failed: bool) -> None:
        """Whether the browser rendered ``request`` or failed on it (the page is then fetched as served); after
        :data:`~journals.pages.rendering_state.RENDER_FAILURES_TO_STOP` failures in a row, the source is no longer
        rendered."""
        source = request.meta.get("source", "")
        state = self.sources.get(source)
        if state is not None and state.note_render(failed=failed):
            self._inc("journals/rendering/stopped")
            self._logger.error(
                "The browser failed on %d pages of %s in a row: reading its pages as served from now on",
                state.failed_renders,
                source,
            )

    def request_failed(self, request: scrapy.Request) -> None:
        """A request failed for good: a failed probe ends, so that the pages waiting for its verdict go on."""
        meta = request.meta
        if PROBE_META in meta and (state := self.sources.get(meta.get("source", ""))) is not None:
            state.end_probe(meta.get("page_role", ""))

    def note_reader_actions(self, response: Response, source: str) -> None:
        """Count what the browser did as a reader on a page rendered now (``journals/rendering/grow_clicks``,
        ``grow_scrolls``, ``panels_opened``, ``placeholders_left``); a list still growing after the bound of clicks
        is a trap (bound ``grow_clicks``, failing the health check)."""
        actions = reader_actions(response)
        if not actions:
            return
        for action, stat in (("clicks", "grow_clicks"), ("scrolls", "grow_scrolls"), ("opened", "panels_opened")):
            if count := int(actions.get(action) or 0):
                self._inc(f"journals/rendering/{stat}", count)
        if placeholders := int(actions.get("placeholders") or 0):
            self._inc("journals/rendering/placeholders_left", placeholders)
        if actions.get("capped"):
            self._budget.within(source, "grow_clicks", False, response.url)

    async def render_again(
        self, response: Response, page: ReadPage, role: PageRole, *, found: bool
    ) -> scrapy.Request | None:
        """The request that fetches ``response``'s page again in the browser, when it needs it; None otherwise.

        A page that did not give what the crawl came for (``found`` is False; a journal page naming no journal
        data) and shows the signs of a script-built page is rendered, and so are the source's pages of ``role``
        from then on. A journal or metrics page that names data but looks unfinished (a "Loading…" placeholder, an
        empty panel) is a probe: rendered, and its rendering compared with what it named as served
        (:meth:`_decide_on_probe`), which decides the role."""
        source = response.meta["source"]
        state = self.sources[source]
        rendered = self.is_rendered(response)
        if PROBE_META in response.meta and (rendered or response.meta.get(RENDERING_FAILED)):
            await self._decide_on_probe(response, page, role, found=found and rendered)
            return None
        if found or self.mode != "auto" or state.stopped or response.meta.get(RENDERING_FAILED):
            return None
        index = role in INDEX_ROLES
        if rendered:
            if index or not await self._names_data(page):
                self._inc(f"journals/rendering/still_empty/{role}")
                self._logger.info("Rendered %s page %s has nothing to read either", role, response.url)
            return None
        if state.served_with_data[role] >= SIGNS_WITHOUT_MEANING:
            return None
        signs = page.signs
        if signs is None:
            signs = await self._analysis.run(script_signs, page.page, letters=index)
        verdict = await self._verdict(state, page, role, signs)
        if verdict is False:
            return None
        if not self._budget.count_request(source, response.url):
            if verdict is not None:
                state.end_probe(role)
            return None
        return self._rendering_request(response, role, signs, verdict)

    async def _verdict(
        self, state: SourceRendering, page: ReadPage, role: PageRole, signs: ScriptSigns
    ) -> int | Literal[False] | None:
        """What to do with a served page that did not give what the crawl came for: False, read it as served; None,
        render it and its role from now on; a number, render it as a probe (the data its served HTML names).

        An index or listing page that gives nothing and runs scripts that can write it (a script file, an inline
        script calling the DOM or the network; not an analytics line) with no other sign is a probe (a list an
        infinite scroll fills is seen only by rendering it). A journal or metrics page that names data is a probe
        when it looks unfinished, and read as served otherwise."""
        index = role in INDEX_ROLES
        if index and not signs.script_built and signs.builders:
            return {"served": False, "browser": None, "probe": 0}[await self._probe_wanted(state, role)]
        if not signs.script_built:
            return False
        if index or not await self._names_data(page):
            return None
        wanted = await self._probe_wanted(state, role) if signs.unfinished else "served"
        if wanted == "served":
            state.served_with_data[role] += 1
            return False
        return None if wanted == "browser" else await self._facts(page)

    async def _names_data(self, page: ReadPage) -> bool:
        """Whether ``page`` names journal data: as its reading found, else asked of the analysis thread."""
        if page.names_data is not None:
            return page.names_data
        return await self._analysis.run(names_journal_data, page.page)

    async def _facts(self, page: ReadPage) -> int:
        """How much journal data ``page`` names: as its reading found, else asked of the analysis thread."""
        if page.facts is not None:
            return page.facts
        return await self._analysis.run(journal_facts, page.page)

    async def _probe_wanted(self, state: SourceRendering, role: PageRole) -> Literal["probe", "browser", "served"]:
        """:meth:`~journals.pages.rendering_state.SourceRendering.probe_wanted`, a wait that timed out counted
        (``journals/rendering/probe_wait_timeouts/<role>``) and read as served."""
        wanted = await state.probe_wanted(role)
        if wanted == "timed_out":
            self._inc(f"journals/rendering/probe_wait_timeouts/{role}")
            return "served"
        return wanted

    def _rendering_request(
        self, response: Response, role: PageRole, signs: ScriptSigns, probe: int | None
    ) -> scrapy.Request:
        """``response``'s request made again in the browser, counted: a probe when ``probe`` (the journal data the
        page named as served) is given, else the first of its source's pages of ``role`` rendered from now on."""
        source = response.meta["source"]
        state = self.sources[source]
        for sign in signs.names:
            self._inc(f"journals/rendering/signs/{sign}")
        meta = {key: response.meta[key] for key in SPIDER_META if key in response.meta}
        meta.update(rendering_meta(expand_letters=role in INDEX_ROLES))
        if probe is not None:
            self._inc(f"journals/rendering/probes/{role}")
            meta[PROBE_META] = probe
        else:
            self._inc(f"journals/rendering/detected/{role}")
            if role not in state.rendered_roles:
                state.rendered_roles.add(role)
                self._logger.info(
                    "%s builds its %s pages with scripts (%s at %s): rendering them in the browser",
                    source,
                    role,
                    ", ".join(signs.names),
                    response.url,
                )
        assert response.request is not None
        return response.request.replace(meta=meta, dont_filter=True)

    async def _decide_on_probe(self, response: Response, page: ReadPage, role: PageRole, *, found: bool) -> None:
        """Compare a probe's rendering with what its page gave as served: when the browser shows more (an index or
        listing page: a list or letters where the served page had none, ``found``; a journal or metrics page: more
        journal data, :func:`~journals.pages.script_signs.journal_facts`), the source's pages of ``role`` are
        rendered from now on; after :data:`~journals.pages.rendering_state.PROBES_TO_DECIDE` probes that show no
        more (or that the browser failed on), they are read as served. Counted in
        ``journals/rendering/decided/<role>/<browser|served>``; each decision logged once per source and role."""
        source = response.meta["source"]
        state = self.sources[source]
        served = int(response.meta[PROBE_META])
        try:
            if response.meta.get(RENDERING_FAILED):
                rendered = served
            elif role in INDEX_ROLES:
                rendered = served + found
            else:
                rendered = await self._facts(page)
        finally:
            state.end_probe(role)
        decision = state.decide_on_probe(role, rendered=rendered, served=served)
        if decision is None:
            return
        self._inc(f"journals/rendering/decided/{role}/{decision}")
        self._logger.info(
            "%s: its %s page %s names %d kinds of journal data rendered, %d as served: %s",
            source,
            role,
            response.url,
            rendered,
            served,
            "rendering its pages of this role in the browser" if decision == "browser" else "reading them as served",
        )
