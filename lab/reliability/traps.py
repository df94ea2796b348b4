"""A crawl of the traps world (``scrapy sandbox --traps``), measured per trap kind against the bars of issue 14.

One crawl over every trap site (each is a source of its own), through :class:`~lab.reliability.harness.Crawl`
as a user runs it. The figures come from three places: the servers' own records (requests per site and their
times, requests that reached outside: the outside listener's counter and requests under another host name), the
database (journals stored, real ones lost, made-up ones stored, journals stored under several URLs) and the
crawl's stats (finish reason, bounds hit, traps and health reasons).

The crawl runs under a safety net of Scrapy's own ``CLOSESPIDER_PAGECOUNT`` and ``CLOSESPIDER_TIMEOUT``: a crawl
that a trap holds ends there, with that finish reason, instead of running until the machine gives up. A trap
that ends by itself never reaches it (finish reason ``finished``).
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from scrapy.settings import Settings

from journals.sandbox.outside import TrapsWorld
from journals.sandbox.traps import TRAP_KINDS, ServedRequest, traps_truth
from journals.sandbox.trapsites import JSESSIONID
from journals.spiders.bounds import CrawlBounds
from lab.crawlrun import STATS_DUMP
from lab.reliability.harness import Crawl, CrawlResult, snapshot
from lab.reliability.scenarios import Outcome

BOUND_KINDS = {
    "pages_per_site": "CRAWL_MAX_PAGES_PER_SITE",
    "index_depth": "CRAWL_MAX_INDEX_DEPTH",
    "listing_pages": "CRAWL_MAX_LISTING_PAGES",
}
"""The kinds of ``journals/bounds/<kind>`` stats and the setting of each."""
MADE_UP_KINDS = ("endless-next", "nested-letters")
"""The traps that make up journals: a crawl stopped by their bound must fail its health check."""
SAFETY_PAGES = 3000
SAFETY_SECONDS = 180
SESSION_PARAMETERS = frozenset({"sid", "jsessionid", "sessionid", "phpsessid"})


@dataclass
class TrapsRun:
    """One crawl of some trap sites and what the servers, the database and the stats say of it."""

    kinds: tuple[str, ...]
    truth: dict[str, Any]
    result: CrawlResult
    wall_seconds: float
    served: list[ServedRequest]
    """Every request the traps web answered, in order."""
    off_host: list[ServedRequest]
    """Those it answered under another host name than the start URLs'."""
    outside_listener: int
    """Requests the outside listener got (only the escape site links it)."""
    stored: set[tuple[str, str, str | None]]
    """(source, URL path, title) of every journal stored."""
    bounds: CrawlBounds
    """The bounds the crawl ran under."""

    def crawl_figures(self) -> dict[str, Any]:
        """The crawl's own figures: exit status, finish reason, time, requests, bounds, scope, health."""
        stats = self.result.stats
        return {
            "exit_status": self.result.returncode,
            "finish_reason": self.result.finish_reason,
            "wall_seconds": round(self.wall_seconds, 1),
            "requests": stats.get("downloader/request_count", 0),
            "requests_outside": self.outside_listener + len(self.off_host),
            "outside_listener_requests": self.outside_listener,
            "off_host_requests": len(self.off_host),
            "scope_refused": stats.get("scope/refused", 0),
            "bounds_hit": {kind: stats.get(f"journals/bounds/{kind}", 0) for kind in BOUND_KINDS},
            "bounds_named_in_log": bounds_named(self.result.log),
            "repeated_listing": stats.get("journals/repeated_listing", 0),
            "health_failed": bool(stats.get("health/failed")),
            "health_reasons": self.health_reasons(),
        }

    def health_reasons(self) -> list[str]:
        """The health check's reasons, as the stats give them."""
        return [str(reason) for reason in self.result.stats.get("health/reasons") or []]

    def outcome(self, name: str) -> Outcome:
        """The crawl's figures, then each trap site's; its problems are the bars of issue 14 it missed."""
        outcome = Outcome(name, self.crawl_figures())
        per_kind = {kind: self.kind_figures(kind) for kind in self.kinds}
        outcome.figures["journals_lost"] = sum(figures["real_journals_lost"] for figures in per_kind.values())
        outcome.figures.update(per_kind)
        outcome.problems += crawl_problems(self, outcome.figures)
        for kind, figures in per_kind.items():
            outcome.problems += kind_problems(kind, figures, self.bounds)
        return outcome

    def kind_figures(self, kind: str) -> dict[str, Any]:
        """One trap site's figures: requests and the time between its first and last, journals, outside
        requests, how far into its trap the crawl went, traps the spider reported, health reasons naming it."""
        site_truth = self.truth["sites"][kind]
        requests = [request for request in self.served if request.site == kind]
        outside = self.outside_listener if kind == "escape" else 0
        stored = [(path, title) for source, path, title in self.stored if source == kind]
        return {
            "requests": len(requests) + outside,
            "seconds": round(requests[-1].at - requests[0].at, 1) if requests else 0.0,
            **journal_figures(site_truth, stored),
            "outside_requests": sum(request.site == kind for request in self.off_host) + outside,
            **trap_depth(kind, site_truth, requests),
            "traps_reported": len(self.result.stats.get(f"journals/traps/{kind}") or []),
            "health_reasons": sum(kind in reason for reason in self.health_reasons()),
        }


def run_traps(
    folder: Path,
    kinds: Sequence[str] = TRAP_KINDS,
    seed: int = 1,
    settings: Sequence[str] = (),
    *,
    safety_pages: int = SAFETY_PAGES,
    safety_seconds: float = SAFETY_SECONDS,
) -> TrapsRun:
    """Serve the traps world and crawl the sites of ``kinds`` in one crawl (database and log named after them).

    ``settings`` are extra ``NAME=VALUE`` crawl settings (smaller bounds keep a test short); the bounds checked
    are read from them as the spider reads them (:meth:`CrawlBounds.from_settings`).
    """
    crawl_settings = Settings()
    crawl_settings.setmodule("settings.default")
    crawl_settings.setdict(dict(setting.split("=", 1) for setting in settings), priority="cmdline")
    bounds = CrawlBounds.from_settings(crawl_settings)
    name = "traps" if tuple(kinds) == TRAP_KINDS else "traps-" + "-".join(kinds)
    database_url = f"sqlite:///{folder / f'{name}.db'}"
    world = TrapsWorld.start(seed)
    try:
        truth = traps_truth(world.web, world.base_url)
        net = (f"CLOSESPIDER_PAGECOUNT={safety_pages}", f"CLOSESPIDER_TIMEOUT={safety_seconds}")
        crawl = Crawl(world.start_urls(kinds), database_url, folder / f"{name}.log", None, (*net, *settings))
        started = time.monotonic()
        result = crawl.run()
        wall_seconds = time.monotonic() - started
        served, off_host, outside = world.web.served(), world.off_host_requests(), world.outside.request_count
    finally:
        world.close()
    stored = {(source, path, title) for source, path, title, _, _ in snapshot(database_url)}
    return TrapsRun(tuple(kinds), truth, result, wall_seconds, served, off_host, outside, stored, bounds)


def traps_crawl(folder: Path, seed: int = 1, settings: Sequence[str] = (), **safety: Any) -> Outcome:
    """One crawl over every trap site: the crawl's figures and each trap kind's; its problems are the bars of
    issue 14 it missed."""
    run = run_traps(folder, TRAP_KINDS, seed, settings, **safety)
    return run.outcome(f"spider traps, one crawl of all five sites (seed {seed})")


def trap_outcome(folder: Path, kind: str, seed: int = 1, settings: Sequence[str] = (), **safety: Any) -> Outcome:
    """A crawl of one trap site alone: its time, finish reason and exit status are its own."""
    run = run_traps(folder, (kind,), seed, settings, **safety)
    return run.outcome(f"spider trap: {kind} (seed {seed})")


def journal_figures(site_truth: dict[str, Any], stored: list[tuple[str, str | None]]) -> dict[str, int]:
    """A site's journals as stored (URL path, title) against its truth: stored, real ones lost, made-up ones stored
    (neither a real title nor a real page), and titles stored under more than one URL."""
    real_titles = {journal["values"]["title"] for journal in site_truth["journals"]}
    real_paths = {canonical_path(journal["url"]): journal["values"]["title"] for journal in site_truth["journals"]}
    stored_titles = {title for _, title in stored}
    stored_paths = {canonical_path(path) for path, _ in stored}
    lost = [t for p, t in real_paths.items() if t not in stored_titles and p not in stored_paths]
    made_up = [t for p, t in stored if t not in real_titles and canonical_path(p) not in real_paths]
    urls_per_title = Counter(title for _, title in stored)
    return {
        "journals_stored": len(stored),
        "real_journals": len(real_titles),
        "real_journals_lost": len(lost),
        "made_up_journals_stored": len(made_up),
        "journals_stored_twice": sum(count > 1 for count in urls_per_title.values()),
    }


def canonical_path(url: str) -> str:
    """A URL's path and query without session ids (``;jsessionid=``, ``sid=``…), the query sorted."""
    parts = urlsplit(url)
    query = sorted((k, v) for k, v in parse_qsl(parts.query) if k.lower() not in SESSION_PARAMETERS)
    path = JSESSIONID.sub("", parts.path)
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


def trap_depth(kind: str, site_truth: dict[str, Any], requests: list[ServedRequest]) -> dict[str, int]:
    """How far the crawl went into a site's trap, from the requests the site got: listing pages per trap letter,
    sub-letter depth, calendar pages per letter, or requests of the most requested page."""
    trap = site_truth["trap"]
    if kind == "endless-next":
        return {
            "endless_letter_pages": len(pages_of(requests, trap["endless_letter_url"])),
            "repeat_letter_pages": len(pages_of(requests, trap["repeat_letter_url"])),
        }
    if kind == "nested-letters":
        root = urlsplit(trap["nested_letter_url"]).path
        depths = [1 + r.path.removeprefix(root).count("/") for r in requests if r.path.startswith(root)]
        return {"deepest_sub_letter": max(depths, default=0)}
    if kind == "calendar":
        per_letter: dict[str, set[str]] = defaultdict(set)
        for request in requests:
            if re.fullmatch(r"/calendar/journals/([a-z]|0-9)", request.path):
                per_letter[request.path].add(request.query)
        return {"most_pages_of_a_letter": max((len(pages) for pages in per_letter.values()), default=0)}
    if kind == "session-id":
        pages = Counter(canonical_path(f"{r.path}?{r.query}") for r in requests if r.path != "/robots.txt")
        return {"most_requests_of_a_page": max(pages.values(), default=0)}
    return {}


def pages_of(requests: list[ServedRequest], letter_url: str) -> set[str]:
    """The distinct pages of a letter's listing that were requested (by query)."""
    path = urlsplit(letter_url).path
    return {request.query for request in requests if request.path == path}


def bounds_named(log: str) -> list[str]:
    """The bound kinds the log names (by kind or by setting) outside its stats dump, where the stat
    ``journals/listing_pages`` would read as a bound."""
    text = STATS_DUMP.sub("", log)
    return [kind for kind, name in BOUND_KINDS.items() if re.search(rf"\b{kind}\b", text) or name in text]


def crawl_problems(run: TrapsRun, figures: dict[str, Any]) -> list[str]:
    """The crawl-wide bars it missed (``figures``: its :meth:`~TrapsRun.crawl_figures`): nothing outside, an end of
    its own, and where a trap made up journals, a failed health check and a log naming the bound."""
    problems = []
    if figures["requests_outside"]:
        problems.append(
            f"{figures['requests_outside']} requests reached outside ({figures['outside_listener_requests']} the "
            f"outside listener, {figures['off_host_requests']} under another host name)"
        )
    if run.result.finish_reason != "finished":
        problems.append(f"the crawl did not end by itself: finish reason {run.result.finish_reason}")
    made_up = [kind for kind in run.kinds if kind in MADE_UP_KINDS]
    if made_up and (run.result.returncode != 3 or not figures["health_failed"]):
        problems.append(
            f"the health check passed (exit status {run.result.returncode}) on trap sites that make journals up "
            f"({', '.join(made_up)})"
        )
    for kind, bound in (("endless-next", "listing_pages"), ("nested-letters", "index_depth")):
        if kind in run.kinds and bound not in figures["bounds_named_in_log"]:
            problems.append(f"{kind}: the log does not say that the {bound} bound was hit")
    return problems


def kind_problems(kind: str, figures: dict[str, Any], bounds: CrawlBounds) -> list[str]:
    """The bars one trap site missed: a real journal lost, a journal stored twice, its trap followed past its
    bound, and for a trap that makes up journals, no health reason naming it."""
    problems = []
    if figures["real_journals_lost"]:
        problems.append(f"{kind}: {figures['real_journals_lost']} real journals lost")
    if figures["journals_stored_twice"]:
        problems.append(f"{kind}: {figures['journals_stored_twice']} journals stored under several URLs")
    limits = {
        "requests": bounds.pages_per_site,
        "endless_letter_pages": bounds.listing_pages,
        "repeat_letter_pages": bounds.listing_pages,
        "most_pages_of_a_letter": bounds.listing_pages,
        "deepest_sub_letter": bounds.index_depth,
        "most_requests_of_a_page": 1,
    }
    problems += [
        f"{kind}: {name} {figures[name]}, beyond its bound {limit}"
        for name, limit in limits.items()
        if figures.get(name, 0) > limit
    ]
    if kind in MADE_UP_KINDS and not figures["health_reasons"]:
        problems.append(f"{kind}: not named among the health check's reasons")
    return problems
