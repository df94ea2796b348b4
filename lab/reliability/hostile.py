"""A crawl of the hostile sandbox (``scrapy sandbox --faults``), counted: faults injected by kind, journals that
survived them, journals lost."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from journals.sandbox.faults import FaultPlan
from journals.sandbox.server import SandboxServer
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from lab.reliability.harness import Crawl, snapshot, url_path
from lab.reliability.scenarios import Outcome


def hostile_crawl(folder: Path, seed: int = 7, journals: int = 400, rate: float = 0.12) -> Outcome:
    """Crawl every site of a hostile sandbox but the real-web ones; every journal reachable without a permanent
    fault must be stored with its title, and the crawl must finish without a traceback."""
    outcome = Outcome(f"hostile sandbox ({journals} journals, {rate:.0%} of pages faulty, seed {seed})")
    # Stalls outlast the download timeout; a slow trickle (0.5 s) stays well within it even on a busy machine.
    plan = FaultPlan(seed=seed, rate=rate, timeout_seconds=4.0)
    web = SandboxWeb(seed=seed, size=journals)
    server = SandboxServer(web, port=0, faults=plan)
    server.start_in_thread()
    try:
        truth = world_truth(web, server.base_url, plan)
        # Scrapy alone sees no journal of a scripted site (issue 16): they are crawled with a browser or not at all.
        truth["sites"] = {name: site for name, site in truth["sites"].items() if site["kind"] != "scripted"}
        starts = ",".join(f"{server.base_url}/{site}/" for site in truth["sites"])
        database_url = f"sqlite:///{folder / 'hostile.db'}"
        settings = ("DOWNLOAD_TIMEOUT=2", "RETRY_TIMES=3", "HTTPCACHE_ENABLED=False")
        result = Crawl(starts, database_url, folder / "hostile.log", None, settings).run()
    finally:
        server.shutdown()
        server.server_close()
    outcome.figures["faults_injected_by_kind"] = dict(sorted(fault_counts(plan, truth).items()))
    stored = {(row[0], row[1]): row[2] for row in snapshot(database_url)}
    reachable = lost = wrong = survived = 0
    for site, site_truth in truth["sites"].items():
        for journal in site_truth["journals"]:
            if not journal["reachable"]:
                continue
            reachable += 1
            key = (site, url_path(journal["url"]))
            if key not in stored:
                lost += 1
            elif stored[key] != journal["values"]["title"]:
                wrong += 1
            elif any(plan.fault_for(urlsplit(u).path, urlsplit(u).query) for u in _pages(journal)):
                survived += 1
    outcome.figures.update(
        journals=sum(len(site["journals"]) for site in truth["sites"].values()),
        journals_reachable=reachable,
        journals_through_a_fault_stored=survived,
        journals_lost=lost,
        wrong_titles=wrong,
        finish_reason=result.finish_reason,
        retries=result.stats.get("retry/count", 0),
        failed_pages=sum(v for k, v in result.stats.items() if k.startswith("journals/failed_pages/")),
    )
    if lost:
        outcome.problems.append(f"{lost} reachable journals lost")
    if wrong:
        outcome.problems.append(f"{wrong} journals stored with a wrong title")
    if result.finish_reason != "finished" or "Traceback" in result.log:
        outcome.problems.append(f"the crawl ended with {result.finish_reason} or a traceback")
    return outcome


def fault_counts(plan: FaultPlan, truth: dict) -> Counter[str]:
    """Pages of the sites' journals (listings, journal and metrics pages) by injected fault; 404s as ``missing``."""
    urls = {url for site in truth["sites"].values() for journal in site["journals"] for url in _pages(journal)}
    kinds: Counter[str] = Counter()
    for url in urls:
        parts = urlsplit(url)
        if plan.missing(parts.path, parts.query):
            kinds["missing_404"] += 1
        elif fault := plan.fault_for(parts.path, parts.query):
            kinds[fault] += 1
    return kinds


def _pages(journal: dict) -> list[str]:
    return [url for url in [*journal["listing_urls"], journal["url"], journal["metrics_url"]] if url]
