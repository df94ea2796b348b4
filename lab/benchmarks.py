"""``make bench``: every speed figure beside its reference, measured in one run on one machine.

Each figure runs its pair several times and keeps medians; the table gives the ratio and the bar from issue 7,
and ``bench.json`` keeps the numbers with the date and the machine. Figures whose pieces are absent are
reported as missing, never skipped silently.

Run ``python -m lab.benchmarks [--repeats 3] [--scale 10000,100000] [--only crawl,mdr]``. The ``scale-workers``
group needs Debian's ``postgresql`` and ``redis-server`` (the operations tests' servers); the ``render`` group Debian's
``/usr/bin/chromium`` (the crawl's browser).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from journals.domain.sites import site_names
from lab.crawlrun import (
    PROJECT_ROOT,
    ScrapyRun,
    browser_memory_bytes,
    run_scrapy_command,
    sandbox_process,
    stats_from_log,
)

SCALE_WORKERS_SITE = "elsevier"
"""The one site the workers figure crawls."""
SCRIPTED_SITES = site_names("scripted")
"""The script-built sites the render figure crawls, rendered, and as their prerendered twins."""
CRAWL_BAR = 2.5
"""The crawl's pages/s at least this many times ``scrapy bench``'s (issue 28)."""
MDR_BAR = 2.5
"""MDR per page at most this many lxml parses (issue 28)."""
BROWSER_SAMPLE_SECONDS = 0.2
"""How often the browser's memory (proportional set size) is sampled during a rendered crawl."""


@dataclass
class Figure:
    """One row of the benchmark table."""

    name: str
    measured: str
    reference: str
    ratio: float | None
    bar: str
    met: bool | None
    peak_memory_mb: float | None = None
    details: dict = field(default_factory=dict)


def _process_peak_mb() -> float:
    """This process's peak resident memory so far, in MiB (Linux reports ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _crawl_args(start_urls: str, database: Path, *extra: str) -> list[str]:
    return [
        "crawl",
        "publisher",
        "-a",
        f"start_urls={start_urls}",
        "-s",
        f"DATABASE_URL=sqlite:///{database}",
        "-s",
        "LOG_LEVEL=INFO",
        *extra,
    ]


def _median_run(runs: list[ScrapyRun], key: Callable[[ScrapyRun], float]) -> float:
    return statistics.median(key(r) for r in runs)


def bench_crawl_and_replay(repeats: int, journals: int = 2000) -> list[Figure]:
    """Crawl pages/s against ``scrapy bench``; cache replay (sandbox stopped) against the live crawl."""
    reference = [run_scrapy_command(["bench", "-s", "LOG_LEVEL=INFO"]) for _ in range(repeats)]
    live: list[ScrapyRun] = []
    replay: list[ScrapyRun] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "bench.db"
            with sandbox_process(1, journals) as sandbox:
                starts = sandbox.start_urls()
                live.append(run_scrapy_command(_crawl_args(starts, database)))
            replay.append(run_scrapy_command(_crawl_args(starts, database, "-s", "HTTPCACHE_IGNORE_MISSING=True")))
    for run in live + replay:
        if run.returncode != 0 or run.stats.get("finish_reason") != "finished":
            kept = Path("bench-failed.log")
            kept.write_text(run.log, encoding="utf-8")
            raise RuntimeError(
                f"benchmark crawl failed (exit {run.returncode}, finish reason {run.stats.get('finish_reason')}; "
                f"whole log in {kept}):\n{run.log[-3000:]}"
            )
    ours = _median_run(live, lambda r: r.pages_per_second)
    theirs = _median_run(reference, lambda r: r.pages_per_second)
    live_seconds = _median_run(live, lambda r: r.stats["elapsed_time_seconds"])
    replay_seconds = _median_run(replay, lambda r: r.stats["elapsed_time_seconds"])
    misses = max(r.stats.get("httpcache/miss", 0) for r in replay)
    return [
        Figure(
            "crawl pages/s (make crawl's pipeline, SQLite)",
            f"{ours:.0f} pages/s",
            f"scrapy bench {theirs:.0f} pages/s",
            ours / theirs,
            f"≥ {CRAWL_BAR:g}×",
            ours / theirs >= CRAWL_BAR,
            max(r.peak_memory_bytes for r in live) / 2**20,
            {"pages": live[0].stats.get("response_received_count"), "items": live[0].stats.get("item_scraped_count")},
        ),
        Figure(
            "cache replay, sandbox stopped",
            f"{replay_seconds:.1f} s, {misses} misses",
            f"live crawl {live_seconds:.1f} s",
            live_seconds / replay_seconds,
            "≥ 2× faster, 0 requests",
            live_seconds / replay_seconds >= 2 and misses == 0,
            max(r.peak_memory_bytes for r in replay) / 2**20,
        ),
    ]


def _rendered_crawl(journals: int, prerendered: bool) -> tuple[ScrapyRun, int]:
    """A crawl of the script-built sites of a fresh sandbox (their plain twins when ``prerendered``) into a fresh
    database and page cache; the run and the peak of the browser's memory (summed PSS; 0 when it started none)."""
    browser_peak = 0

    def sample(pid: int) -> None:
        nonlocal browser_peak
        browser_peak = max(browser_peak, browser_memory_bytes(pid))

    extra = ("--prerendered",) if prerendered else ()
    with tempfile.TemporaryDirectory() as folder, sandbox_process(1, journals, *extra) as sandbox:
        arguments = _crawl_args(sandbox.start_urls(SCRIPTED_SITES), Path(folder) / "render.db")
        run = run_scrapy_command(arguments, sample=sample, every=BROWSER_SAMPLE_SECONDS)
    if run.returncode != 0 or run.stats.get("finish_reason") != "finished":
        raise RuntimeError(f"render benchmark crawl failed:\n{run.log[-3000:]}")
    return run, browser_peak


def bench_render(repeats: int, journals: int = 2000) -> list[Figure]:
    """Issue 16: pages/s of a crawl of the script-built sites, rendered in Chromium where needed, against a plain
    crawl of their prerendered twins (same URLs and journals, no script); the browser's peak memory (the summed
    proportional set sizes of the Chromium processes under the crawl, sampled every 0.2 s) and the pages it
    rendered. The journals each found (the fewest over the repeats) are shown beside the speeds: a faster crawl that
    found fewer is no faster."""
    rendered: list[ScrapyRun] = []
    plain: list[ScrapyRun] = []
    browser_peaks: list[int] = []
    for _ in range(repeats):
        run, peak = _rendered_crawl(journals, prerendered=False)
        rendered.append(run)
        browser_peaks.append(peak)
        run, _ = _rendered_crawl(journals, prerendered=True)
        plain.append(run)
    if any(run.stats.get("playwright/page_count") for run in plain):
        raise RuntimeError("the prerendered twin's crawl rendered pages: it is no plain twin")
    ours = _median_run(rendered, lambda r: r.pages_per_second)
    theirs = _median_run(plain, lambda r: r.pages_per_second)

    def found(runs: list[ScrapyRun]) -> int:
        return min(r.stats.get("item_scraped_count", 0) for r in runs)

    rendered_pages = int(_median_run(rendered, lambda r: r.stats.get("playwright/page_count", 0)))
    browser_mb = max(browser_peaks) / 2**20
    crawler_mb = max(r.peak_memory_bytes for r in rendered) / 2**20
    details = {
        "journals": journals,
        "sites": list(SCRIPTED_SITES),
        "pages_rendered": rendered_pages,
        "pages": {
            "rendered": rendered[0].stats.get("response_received_count"),
            "plain": plain[0].stats.get("response_received_count"),
        },
        "items": {
            "rendered": rendered[0].stats.get("item_scraped_count"),
            "plain": plain[0].stats.get("item_scraped_count"),
        },
        "seconds": {
            "rendered": _median_run(rendered, lambda r: r.stats["elapsed_time_seconds"]),
            "plain": _median_run(plain, lambda r: r.stats["elapsed_time_seconds"]),
        },
        "browser_peak_mb_per_run": [round(p / 2**20) for p in browser_peaks],
    }
    return [
        Figure(
            f"crawl pages/s, script-built sites rendered ({rendered_pages} pages in Chromium)",
            f"{ours:.1f} pages/s, {found(rendered)} journals",
            f"prerendered twin {theirs:.1f} pages/s, {found(plain)}",
            ours / theirs,
            "reported (no bar)",
            None,
            max(r.peak_memory_bytes for r in rendered) / 2**20,
            details,
        ),
        Figure(
            "browser peak memory, rendered crawl (Chromium, summed PSS)",
            f"{browser_mb:.0f} MiB",
            f"crawler process {crawler_mb:.0f} MiB",
            None,
            "reported (no bar)",
            None,
            browser_mb,
            {"samples_every_seconds": BROWSER_SAMPLE_SECONDS},
        ),
    ]


def bench_scale(sizes: list[int]) -> list[Figure]:
    """Sandbox crawls of each size (one run each: they are long); time ratio and peak memory of crawler+server."""
    results = {}
    pages: dict[int, int] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder, sandbox_process(1, size) as sandbox:
            run = run_scrapy_command(_crawl_args(sandbox.start_urls(), Path(folder) / "scale.db"))
            if run.returncode != 0:
                raise RuntimeError(f"scale crawl of {size} failed:\n{run.log[-3000:]}")
            results[size] = (run.stats["elapsed_time_seconds"], run.peak_memory_bytes, sandbox.peak_memory_bytes())
            pages[size] = run.stats.get("response_received_count", 0)
    small, large = min(sizes), max(sizes)
    ratio = results[large][0] / results[small][0]
    peak = max(crawler for _, crawler, _ in results.values())
    per_page = {size: results[size][0] / max(1, pages[size]) for size in sizes}
    return [
        Figure(
            f"sandbox crawl {large:,} vs {small:,} journals",
            f"{results[large][0]:.0f} s",
            f"{results[small][0]:.0f} s",
            ratio,
            "time ratio ≤ 11×, peak < 1 GiB",
            ratio <= 11 * large / small / 10 and peak < 2**30,
            peak / 2**20,
            {
                str(size): {"seconds": s, "crawler_peak_mb": c / 2**20, "server_peak_mb": m / 2**20}
                for size, (s, c, m) in results.items()
            },
        ),
        # A larger world has more pages per journal (more listing pages per letter): issue 28 asks the cost of a
        # page to stay flat, and the crawl's peak under 500 MB.
        Figure(
            f"sandbox crawl cost per page, {large:,} vs {small:,} journals",
            f"{per_page[large] * 1000:.2f} ms ({pages[large]:,} pages)",
            f"{per_page[small] * 1000:.2f} ms ({pages[small]:,} pages)",
            per_page[large] / per_page[small],
            "≤ 1.1×, peak < 500 MB",
            per_page[large] / per_page[small] <= 1.1 and peak < 500 * 2**20,
            peak / 2**20,
            {str(size): {"pages": pages[size], "seconds_per_page": per_page[size]} for size in sizes},
        ),
    ]


def bench_algorithms(repeats: int) -> list[Figure]:
    """MDR and learned-template extraction per page against lxml's parse of the same pages."""
    from lab.extraction.bench import bench_extraction
    from lab.mdr.bench import bench_mdr

    mdr = bench_mdr(repeats=repeats)
    extraction = bench_extraction(repeats=repeats)
    realistic = bench_extraction(repeats=repeats, chrome=True)
    peak = _process_peak_mb()
    return [
        Figure(
            "MDR per page (../shared/data/mdr)",
            f"{mdr['mdr_seconds'] / mdr['pages'] * 1000:.1f} ms",
            f"lxml parse {mdr['parse_seconds'] / mdr['pages'] * 1000:.1f} ms",
            mdr["ratio"],
            f"≤ {MDR_BAR:g}×",
            mdr["ratio"] <= MDR_BAR,
            peak,
            dict(mdr),
        ),
        *(
            Figure(
                f"heuristic extraction per page, template learned, {label}",
                f"{result['extract_seconds_per_page'] * 1e6:.0f} µs",
                f"lxml parse {result['parse_seconds_per_page'] * 1e6:.0f} µs",
                result["ratio"],
                "≤ 0.5×",
                result["ratio"] <= 0.5,
                peak,
                dict(result),
            )
            for label, result in (("sandbox 1.2 kB pages", extraction), ("50–300 kB pages", realistic))
        ),
    ]


def bench_page_pipeline_figures(repeats: int) -> list[Figure]:
    """The crawl's whole per-page pipeline (decode, parse, navigation, MDR where used, extraction) on real-size
    pages against one ``lxml.html`` parse of each (issue 17), timed after a warm-up past every learning budget
    (its own row says how many passes, and whether learning still changed anything while timed)."""
    from journals.replay.pages import resolve_manifest
    from lab.extraction.pipeline_bench import LEARNING_BUDGETS, bench_page_pipeline

    result = bench_page_pipeline(repeats=repeats, real_data=resolve_manifest().parent)
    budgets = ", ".join(f"{name} {pages}" for name, pages in LEARNING_BUDGETS.items())
    warm_up = Figure(
        "pipeline warm-up: passes over the journal pages before timing",
        f"{result['warm_up_passes']:.0f} passes",
        f"largest budget {max(LEARNING_BUDGETS.values())} pages",
        None,
        "past every budget, none learning while timed",
        not result["learned_while_timed"] and result["warm_up_passes"] > max(LEARNING_BUDGETS.values()),
        _process_peak_mb(),
        {"budgets": budgets},
    )
    return [
        warm_up,
        *(
            Figure(
                f"whole per-page pipeline, {label}",
                f"{result['pipeline_seconds_per_page'] * 1000:.1f} ms" if key == "ratio" else f"{result[key]:.2f}×",
                f"lxml parse {result['parse_seconds_per_page'] * 1000:.1f} ms" if key == "ratio" else "lxml parse",
                result[key],
                f"≤ {bar:g}×",
                result[key] <= bar,
                _process_peak_mb(),
                dict(result),
            )
            for label, key, bar in (
                ("all pages", "ratio", 2),
                ("50–300 kB journal pages", "chrome_ratio", 2),
                ("../shared/data/real", "real_ratio", 4),
                ("../shared/data/real list pages", "real_list_ratio", 4),
                ("../shared/data/real journal pages", "real_journal_ratio", 2),
            )
        ),
    ]


def bench_storage(repeats: int) -> list[Figure]:
    """The SQL store's rows/s against plain SQLAlchemy Core executemany of the same rows."""
    from lab.store.bench import bench_store

    store = bench_store(repeats=repeats)
    peak = _process_peak_mb()
    return [
        Figure(
            "SQL pipeline rows/s (write_journals upserts)",
            f"{store['store_rows_per_second']:,.0f} rows/s",
            f"executemany {store['executemany_rows_per_second']:,.0f} rows/s",
            store["ratio"],
            "≥ 0.5×",
            store["ratio"] >= 0.5,
            peak,
            dict(store),
        )
    ]


def bench_integrate(journals: int) -> list[Figure]:
    """``scrapy integrate``'s pure core on ``journals`` journals × 8 sources (one run: it is long)."""
    from lab.integration.bench import bench_integration

    started = time.perf_counter()
    result = bench_integration(journals=journals)
    seconds = time.perf_counter() - started
    peak = _process_peak_mb()
    return [
        Figure(
            f"integrate {journals:,} journals × 8 sources",
            f"{seconds:.0f} s",
            "-",
            None,
            "minutes, not hours",
            seconds < 3600,
            peak,
            {"seconds": result["seconds"]},
        )
    ]


def _distributed_crawl(workers: int, start_url: str, database_url: str, redis_url: str, folder: Path) -> float:
    """``workers`` processes of one ``settings.distributed`` crawl of one site, started together: their pages per
    second (all their responses over the longest worker's elapsed time)."""
    command = [sys.executable, "-m", "scrapy", "crawl", SCALE_WORKERS_SITE, "-a", f"start_url={start_url}"]
    for setting in (f"CRAWL_ID=scale-{workers}", "LOG_LEVEL=INFO", "PROGRESS_ENABLED=False"):
        command += ["-s", setting]
    env = {
        **os.environ,
        "SCRAPY_SETTINGS_MODULE": "settings.distributed",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
    }
    logs = [folder / f"scale-{workers}-{n}.log" for n in range(workers)]
    processes = []
    for log in logs:
        with log.open("w") as handle:
            processes.append(
                subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=handle)
            )
    for process in processes:
        process.wait(timeout=3600)
    stats = [stats_from_log(log.read_text(errors="replace")) for log in logs]
    if any(process.returncode for process in processes) or any(s.get("finish_reason") != "finished" for s in stats):
        raise RuntimeError(f"a worker of {workers} failed:\n{logs[0].read_text(errors='replace')[-3000:]}")
    pages = sum(s.get("response_received_count", 0) for s in stats)
    return pages / max(s["elapsed_time_seconds"] for s in stats)


def bench_scale_workers(journals: int, counts: tuple[int, ...] = (1, 2, 4), latency: float = 0.2) -> list[Figure]:
    """Pages/s of 1, 2 and 4 distributed workers (Redis frontier, PostgreSQL store and cache) on one sandbox site
    whose every response takes ``latency`` seconds; each count crawls the site anew into a database of its own.

    Every worker keeps the production settings (AutoThrottle, ``CONCURRENT_REQUESTS_PER_DOMAIN``), which bound
    what one worker asks of a site: the figure is what more workers add under the same per-worker settings, not
    what one worker could do with them loosened.
    """
    from lab.reliability.postgres import throwaway_postgres
    from lab.reliability.workers import redis_server

    rates: dict[int, float] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        sandbox_process(1, journals, "--latency", str(latency)) as sandbox,
        throwaway_postgres() as postgres,
        redis_server() as redis,
    ):
        start_url = f"{sandbox.base_url}/{SCALE_WORKERS_SITE}/"
        for workers in counts:
            database = postgres.create_database(f"journals_scale_{workers}")
            rates[workers] = _distributed_crawl(workers, start_url, database, redis.url, Path(folder))
    most = max(counts)
    ratio = rates[most] / rates[1]
    return [
        Figure(
            f"distributed crawl, {most} workers vs 1 (one site, {latency * 1000:.0f} ms per response)",
            f"{rates[most]:.1f} pages/s",
            f"1 worker {rates[1]:.1f} pages/s",
            ratio,
            "≥ 3× (same per-worker settings)",
            ratio >= 3,
            None,
            {
                "pages_per_second": {str(n): round(rate, 2) for n, rate in rates.items()},
                "ratio_to_one_worker": {str(n): round(rate / rates[1], 2) for n, rate in rates.items()},
                "note": "AutoThrottle and CONCURRENT_REQUESTS_PER_DOMAIN bound each worker; more workers multiply them",
            },
        )
    ]


GROUPS: dict[str, Callable[[argparse.Namespace], list[Figure]]] = {
    "store": lambda args: bench_storage(args.repeats),
    "integration": lambda args: bench_integrate(args.integration_journals),
    "crawl": lambda args: bench_crawl_and_replay(args.repeats),
    "render": lambda args: bench_render(args.repeats, args.render_journals),
    "algorithms": lambda args: [*bench_algorithms(args.repeats), *bench_page_pipeline_figures(args.repeats)],
    "scale": lambda args: bench_scale([int(s) for s in args.scale.split(",")]),
    "scale-workers": lambda args: bench_scale_workers(args.scale_workers_journals),
}


TABLE_HEADER = f"{'figure':66} {'measured':24} {'reference':28} {'ratio':>7} {'bar':28} {'met':5} {'peak MB':>8}"


def print_table(figures: list[Figure], *, header: bool = True) -> None:
    """The benchmark table, one figure per row beside its bar and whether it is met."""
    if header:
        print(TABLE_HEADER)
    for f in figures:
        ratio = f"{f.ratio:.2f}" if f.ratio is not None else "-"
        met = {True: "yes", False: "NO", None: "-"}[f.met]
        peak = f"{f.peak_memory_mb:.0f}" if f.peak_memory_mb is not None else "-"
        print(f"{f.name:66} {f.measured:24} {f.reference:28} {ratio:>7} {f.bar:28} {met:5} {peak:>8}")


def main() -> None:
    """Run the chosen benchmark groups, print the table, write ``bench.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", default="10000,100000", help="journal counts of the scale figure")
    parser.add_argument("--integration-journals", type=int, default=100_000)
    parser.add_argument(
        "--scale-workers-journals", type=int, default=2000, help="journals of the sandbox of the workers figure"
    )
    parser.add_argument(
        "--render-journals", type=int, default=2000, help="journals of the sandbox of the render figures"
    )
    parser.add_argument("--only", default=",".join(GROUPS), help=f"groups to run, from {','.join(GROUPS)}")
    parser.add_argument("--output", default="bench.json")
    args = parser.parse_args()
    figures: list[Figure] = []
    for group in args.only.split(","):
        started = time.perf_counter()
        try:
            found = GROUPS[group](args)
        except Exception as error:  # a broken group is reported as a missed figure; the others still run
            found = [Figure(group, f"failed: {type(error).__name__}: {error}"[:200], "-", None, "-", False)]
        figures.extend(found)
        print(f"[{group}: {time.perf_counter() - started:.0f} s]")
        print_table(found, header=False)
        print(flush=True)
    print(f"\n{TABLE_HEADER}")
    print_table(figures, header=False)
    Path(args.output).write_text(
        json.dumps(
            {
                "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                "figures": [asdict(f) for f in figures],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
