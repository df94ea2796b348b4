"""``python -m lab.reliability`` (``make reliability``): the hostile crawl, a crawl of each spider trap and the
wide listings of issue 14, the rules of the real web of issue 25 (robots.txt, rate limits, deep pages,
credentials in URLs, dead start hosts, undeclared charsets, hostile titles, feeds that cannot be written,
Datasette's CSV; each family also with a held-out set of parameters), the kill/resume and the outage scenarios of
issue 8, the distributed workers killed and their Redis restarted of issue 15, each against real processes and
servers; prints the figures, optionally as Markdown.

PostgreSQL and Redis come from ``tests/operations/servers.py`` (Debian's ``postgresql`` and ``redis-server``); the
disk-full scenario mounts a tmpfs and needs root. A scenario whose means are missing is reported as skipped, never
as passed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

from journals.sandbox.server import SandboxServer
from journals.sandbox.traps import TRAP_KINDS
from journals.sandbox.web import SandboxWeb
from lab.reliability.hostile import hostile_crawl
from lab.reliability.outputs import datasette_csv_outcome, unwritable_feed_outcome
from lab.reliability.postgres import pg_ctl, postgres_available, throwaway_postgres
from lab.reliability.rules import CHARSET_RULES, HELD_OUT_RULES, HOSTILE_RULES, RULES, rules_outcome
from lab.reliability.scenarios import (
    Outcome,
    Workspace,
    disk_full,
    kill_and_resume,
    kill_points,
    postgres_stopped,
    sqlite_locked,
)
from lab.reliability.traps import trap_outcome
from lab.reliability.wide import wide_crawl
from lab.reliability.workers import worker_scenarios

SITES = ("elsevier", "wiley")


@contextmanager
def sandbox(seed: int, journals: int) -> Iterator[str]:
    """A faultless sandbox served in a thread; yields its base URL."""
    server = SandboxServer(SandboxWeb(seed=seed, size=journals), port=0)
    server.start_in_thread()
    try:
        yield server.base_url
    finally:
        server.shutdown()
        server.server_close()


def postgres_scenario(workspace: Workspace) -> Outcome:
    """PostgreSQL stopped for 10 s, on a throwaway server of the operations tests."""
    if not postgres_available():
        return Outcome("PostgreSQL stopped for 10 s mid-crawl", {"skipped": "no PostgreSQL server binaries"})
    with throwaway_postgres() as server:
        url = server.create_database("journals_reliability")
        return postgres_stopped(
            workspace, url, lambda: pg_ctl(server, "stop"), lambda: pg_ctl(server, "start"), seconds=10
        )


def disk_scenario(workspace: Workspace) -> Outcome:
    """The database on a 512 kB tmpfs, then grown, then read-only (root only)."""
    if os.geteuid() != 0:
        return Outcome("disk full, then grown and resumed", {"skipped": "mounting a tmpfs needs root"})
    mount_point = workspace.folder / "small-disk"
    mount_point.mkdir()
    return disk_full(workspace, mount_point, size_kb=512)


def run_all(
    folder: Path, journals: int, seed: int, kills: int, worker_kills: int, *, workers_only: bool = False
) -> list[tuple[Outcome, float]]:
    """Every scenario (or only the distributed workers'), in order, with its wall time; each is printed as it
    ends."""
    outcomes: list[tuple[Outcome, float]] = []

    def run(step: Callable[[], Outcome]) -> None:
        started = time.perf_counter()
        outcome = step()
        outcomes.append((outcome, time.perf_counter() - started))
        print(outcome.markdown(outcomes[-1][1]), flush=True)

    def run_workers() -> None:
        started = time.perf_counter()
        for outcome in worker_scenarios(folder, seed, journals, SITES, worker_kills):
            # Each scenario's time since the previous one ended (the first one's includes the reference crawl).
            outcomes.append((outcome, time.perf_counter() - started))
            started = time.perf_counter()
            print(outcome.markdown(outcomes[-1][1]), flush=True)

    if workers_only:
        run_workers()
        return outcomes

    run(lambda: hostile_crawl(folder, journals=journals))
    for kind in TRAP_KINDS:
        run(lambda kind=kind: trap_outcome(folder, kind, seed=seed))
    run(lambda: wide_crawl(folder))
    for rule in (*RULES, *CHARSET_RULES, *HOSTILE_RULES, *HELD_OUT_RULES):
        run(lambda rule=rule: rules_outcome(folder, rule))
    run(lambda: rules_outcome(folder, "rate-limit", production=True))
    for parameters in ("main", "held-out"):
        run(lambda parameters=parameters: unwritable_feed_outcome(folder, parameters))
        run(lambda parameters=parameters: datasette_csv_outcome(folder, parameters))
    with sandbox(seed, journals) as base_url:
        workspace = Workspace(",".join(f"{base_url}/{site}/" for site in SITES), folder)
        workspace.run_baseline()
        for i in range(kills):
            run(lambda i=i: kill_and_resume(workspace, f"kill{i}", kill_points(seed + i, 1)))
        # Twice late in the crawl, where Scrapy's own duplicate filter has reached the disk (docs/RELIABILITY.md).
        run(lambda: kill_and_resume(workspace, "killtwice", kill_points(seed + kills, 2, low=0.8, high=0.95)))
        run(lambda: sqlite_locked(workspace, "lockshort", seconds=4, write_attempts=4))
        run(lambda: sqlite_locked(workspace, "locklong", seconds=12, write_attempts=2))
        run(lambda: postgres_scenario(workspace))
        run(lambda: disk_scenario(workspace))
    run_workers()
    return outcomes


def summary(outcomes: list[tuple[Outcome, float]]) -> str:
    """The headline: faults injected, journals that survived them, journals lost over every scenario."""
    faults = sum(sum(o.figures.get("faults_injected_by_kind", {}).values()) for o, _ in outcomes)
    survived = sum(o.figures.get("journals_through_a_fault_stored", 0) for o, _ in outcomes)
    lost = sum(o.figures.get("journals_lost", 0) for o, _ in outcomes)
    held = sum(o.held and "skipped" not in o.figures for o, _ in outcomes)
    skipped = sum("skipped" in o.figures for o, _ in outcomes)
    return (
        f"**{held} of {len(outcomes)} scenarios held** ({skipped} skipped); faults injected: {faults} pages; "
        f"journals through a fault stored: {survived}; **journals lost: {lost}**\n"
    )


MEASURED_HEADING = "## Measured"
LEGEND = (
    "*Faults injected* counts the listing, journal and metrics pages of the sites' journals that carry a fault (or a "
    "404); *journals through a fault stored* counts the journals reachable without a permanent fault that had a "
    "faulty page on their way and were stored with their right title; *journals lost* adds up every scenario's "
    "journals missing from the final database.\n"
)


def report(outcomes: list[tuple[Outcome, float]], args: argparse.Namespace) -> str:
    """The Markdown report: what ran where, the headline, the legend, then every scenario."""
    setting = (
        f"`make reliability` on {date.today().isoformat()}, {os.cpu_count()} cores: a {args.journals}-journal world "
        f"(seed {args.seed}), the hostile crawl over all eight sites, one crawl of each trap site "
        f"(`scrapy sandbox --traps`), the wide listings on a site of their own, the other scenarios over "
        f"{' and '.join(SITES)}."
    )
    scenarios = "\n".join(outcome.markdown(seconds) for outcome, seconds in outcomes)
    return f"{setting}\n\n{summary(outcomes)}\n{LEGEND}\n{scenarios}"


def write_measured(path: Path, text: str) -> None:
    """Put ``text`` under the ``## Measured`` heading of ``path``, replacing that section; append it if absent."""
    document = path.read_text(encoding="utf-8") if path.exists() else ""
    section = f"{MEASURED_HEADING}\n\n{text.rstrip()}\n"
    if MEASURED_HEADING not in document:
        path.write_text(f"{document.rstrip()}\n\n{section}".lstrip(), encoding="utf-8")
        return
    before, _, rest = document.partition(MEASURED_HEADING)
    after = rest[rest.find("\n## ") + 1 :] if "\n## " in rest else ""
    path.write_text(f"{before}{section}\n{after}".rstrip() + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run every scenario and print the report; ``--markdown FILE`` also writes it into FILE's ``## Measured``
    section. Exit 1 if a scenario did not hold."""
    parser = argparse.ArgumentParser(prog="python -m lab.reliability", description=__doc__)
    parser.add_argument("--journals", type=int, default=300, help="journals in each sandbox world")
    parser.add_argument("--seed", type=int, default=1, help="seed of the world and of the kill points")
    parser.add_argument("--kills", type=int, default=3, help="single kill points (a double kill comes on top)")
    parser.add_argument("--worker-kills", type=int, default=5, help="distributed runs with one of 3 workers killed")
    parser.add_argument("--workers-only", action="store_true", help="only the distributed workers' scenarios")
    parser.add_argument("--markdown", metavar="FILE", help="write the report under FILE's '## Measured' heading")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="journals-reliability-") as folder:
        outcomes = run_all(
            Path(folder), args.journals, args.seed, args.kills, args.worker_kills, workers_only=args.workers_only
        )
    print("\n" + summary(outcomes))
    if args.markdown:
        write_measured(Path(args.markdown), report(outcomes, args))
    return 0 if all(o.held for o, _ in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
