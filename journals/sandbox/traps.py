"""The traps world (``scrapy sandbox --traps``): small publisher sites that are hostile by shape, not by transport.

Five sites, one per trap (:data:`TRAP_KINDS`; their pages are :mod:`journals.sandbox.trapsites`), each listing a
handful of real journals of one small :class:`~journals.sandbox.relation.JournalRelation`, and an outside
listener on another port (:mod:`journals.sandbox.outside`) that a crawl must never reach. Every real journal is
reachable with on-site links within the default crawl bounds: on a letter's first pages, one letter below the
start page. The truth (:func:`traps_truth`) is :func:`~journals.sandbox.truth.site_truth` of each site, plus the
facts of its trap.

The web is stateful where the traps are: the session-id site hands out a new session id per response, and the web
records every request it answers (host, path, time) so that a crawl can be measured per site and per host.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from journals.sandbox.relation import JournalRelation
from journals.sandbox.site_templates import SiteTemplates
from journals.sandbox.sources import Site, SiteSpec, letter_of
from journals.sandbox.trapsites import ENDLESS_PAGE_SIZE, TRAP_TEMPLATES, TrapTemplates
from journals.sandbox.truth import site_truth
from journals.sandbox.web import SandboxWeb, WebResponse

TRAP_KINDS = tuple(TRAP_TEMPLATES)
"""The trap sites, each named after its trap: the site's path (``/<kind>/``) and its source name."""
JOURNALS_PER_SITE = 6
BUSY_LETTER_JOURNALS = 3
"""Journals of a trap site's busiest letter: the endless-next site shows them on two pages of two."""
ATTRIBUTES = ("title", "issn", "eissn", "impact_factor", "five_year_impact_factor", "sjr", "snip", "editor_in_chief")
RELATION_SIZE = 200
"""Journals of the world the trap sites draw from: 40 per site, enough for three of one letter."""


@dataclass(frozen=True)
class ServedRequest:
    """One request the traps web answered."""

    host: str
    """The request's ``Host`` header."""
    path: str
    query: str
    at: float
    """``time.monotonic()`` when it was answered."""

    @property
    def site(self) -> str:
        """The site the path belongs to (its first segment), ``""`` for the root and robots.txt."""
        return self.path.split("/")[1].split(";", maxsplit=1)[0] if self.path.count("/") > 1 else ""


class TrapSite(Site):
    """A trap site's journals, from its slot of the relation (every ``len(TRAP_KINDS)``-th journal): the first
    :data:`BUSY_LETTER_JOURNALS` of the slot's most frequent letter, then journals of other letters up to
    :data:`JOURNALS_PER_SITE`. So every trap has a letter with real pagination and a spare letter."""

    def __init__(self, spec: SiteSpec, relation: JournalRelation, slot: int) -> None:
        super().__init__(spec, relation)
        self.slot = slot

    @cached_property
    def journal_indices(self) -> list[int]:
        """The site's journals in A–Z order of their titles."""
        titles = self.relation.titles
        slot = range(self.slot, len(self.relation), len(TRAP_KINDS))
        letters = Counter(letter_of(titles[i]) for i in slot if letter_of(titles[i]) != "0-9")
        busy = min(letters, key=lambda letter: (-letters[letter], letter))
        chosen = [i for i in slot if letter_of(titles[i]) == busy][:BUSY_LETTER_JOURNALS]
        chosen += [i for i in slot if letter_of(titles[i]) != busy][: JOURNALS_PER_SITE - len(chosen)]
        return sorted(chosen, key=lambda i: titles[i].casefold())


def trap_spec(kind: str) -> SiteSpec:
    """A trap site's spec: Springer's attributes, a page size of 20 (2 on the endless-next site)."""
    page_size = ENDLESS_PAGE_SIZE if kind == "endless-next" else 20
    return SiteSpec(kind, "trap", ATTRIBUTES, page_size=page_size)


class TrapsWeb(SandboxWeb):
    """Every trap site over one small relation, linking the outside listener at ``outside_url``; it records every
    request it answers (:attr:`requests`), so a crawl can be measured per site and per host."""

    def __init__(self, outside_url: str, seed: int = 1) -> None:
        super().__init__(seed=seed, size=RELATION_SIZE)
        self.outside_url = outside_url.rstrip("/")
        self.requests: list[ServedRequest] = []
        self._lock = threading.Lock()

    @cached_property
    def sites(self) -> dict[str, SiteTemplates]:
        """The trap sites, by trap kind."""
        return {
            kind: TRAP_TEMPLATES[kind](TrapSite(trap_spec(kind), self.relation, slot), self.outside_url)
            for slot, kind in enumerate(TRAP_KINDS)
        }

    def respond(self, path: str, query: str = "", host: str = "127.0.0.1") -> WebResponse:
        """Record the request, then answer as the sandbox web does, a trap's redirects first."""
        request = ServedRequest(host, path, query, time.monotonic())
        with self._lock:
            self.requests.append(request)
        templates = self.sites.get(request.site)
        answer = templates.answer(path, query, host) if isinstance(templates, TrapTemplates) else None
        return answer or super().respond(path, query, host)

    def served(self) -> list[ServedRequest]:
        """A copy of the requests answered so far."""
        with self._lock:
            return list(self.requests)


def traps_truth(web: TrapsWeb, base_url: str) -> dict[str, Any]:
    """Per trap site its truth as :func:`~journals.sandbox.truth.site_truth` gives it (the real journals) and its
    trap's facts (``trap``); the outside listener's URL."""
    sites = {}
    for kind in TRAP_KINDS:
        templates = web.sites[kind]
        assert isinstance(templates, TrapTemplates)
        sites[kind] = site_truth(web, kind, base_url) | {"trap": templates.trap_facts(base_url)}
    return {"seed": web.relation.seed, "outside_url": web.outside_url, "sites": sites}
