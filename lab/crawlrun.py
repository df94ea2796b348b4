"""Run the sandbox and a crawl as separate processes, as ``make crawl`` does, and read the crawl's stats.

Used by the benchmarks (:mod:`lab.benchmarks`), which must time the real thing: a sandbox server process,
a ``scrapy crawl`` process with every pipeline on, its stats as Scrapy dumps them.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from journals.domain.sites import site_names

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SANDBOX_SOURCES = site_names("publisher", "aggregator")
STATS_DUMP = re.compile(r"Dumping Scrapy stats:\n(\{.*?\})\n", re.DOTALL)


@dataclass
class SandboxProcess:
    """A running ``scrapy sandbox`` process and its base URL."""

    process: subprocess.Popen
    base_url: str

    def start_urls(self, sources: Sequence[str] = SANDBOX_SOURCES) -> str:
        """The comma-separated start URLs of ``sources`` for ``-a start_urls=``."""
        return ",".join(f"{self.base_url}/{source}/" for source in sources)

    def peak_memory_bytes(self) -> int:
        """The server's peak resident memory so far (Linux ``VmHWM``)."""
        return peak_memory_of(self.process.pid)


def peak_memory_of(pid: int) -> int:
    """Peak resident set size of a live process, from ``/proc``; 0 where unavailable."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(match[1]) * 1024 if match else 0


def _parent_pids() -> dict[int, int]:
    """Every live process's parent, by process id, from ``/proc/*/stat`` (the field after the command's ``)``)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended while the table was read
        parents[int(stat.parent.name)] = int(fields[1])
    return parents


def descendants_of(pid: int) -> list[int]:
    """The live processes descending from ``pid`` (children, their children…), from ``/proc``."""
    children: dict[int, list[int]] = {}
    for child, parent in _parent_pids().items():
        children.setdefault(parent, []).append(child)
    found, pending = [], list(children.get(pid, []))
    while pending:
        child = pending.pop()
        found.append(child)
        pending += children.get(child, [])
    return found


def python_descendants_of(pid: int) -> list[int]:
    """The Python processes descending from ``pid`` (a crawl's worker processes; not Chromium's, nor its driver)."""
    found = []
    for child in descendants_of(pid):
        try:
            command = Path(f"/proc/{child}/comm").read_text().strip()
        except OSError:
            continue
        if command.startswith("python"):
            found.append(child)
    return found


def _proc_kilobytes(path: str, field: str) -> int:
    """The ``FIELD:  N kB`` line of a ``/proc`` file, in bytes; 0 where the file or the line is missing."""
    try:
        text = Path(path).read_text()
    except OSError:
        return 0
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.MULTILINE)
    return int(match[1]) * 1024 if match else 0


def resident_bytes(pid: int) -> int:
    """A live process's resident memory now (``VmRSS``), from ``/proc``; 0 where unavailable."""
    return _proc_kilobytes(f"/proc/{pid}/status", "VmRSS")


def proportional_bytes(pid: int) -> int:
    """A live process's proportional set size now (``Pss`` of ``/proc/PID/smaps_rollup``: its private pages plus its
    share of the pages it shares with other processes); 0 where unavailable."""
    return _proc_kilobytes(f"/proc/{pid}/smaps_rollup", "Pss")


def browser_memory_bytes(pid: int) -> int:
    """The memory of every Chromium process descending from ``pid`` (browser, renderers, GPU and utility processes,
    crash handler): their proportional set sizes summed, so the pages they share are counted once in all (summed
    resident sizes would count Chromium's shared libraries and shared memory once per process)."""
    total = 0
    for child in descendants_of(pid):
        try:
            command = Path(f"/proc/{child}/comm").read_text().strip()
        except OSError:
            continue
        if "chrom" in command:
            total += proportional_bytes(child)
    return total


@contextmanager
def sandbox_process(seed: int = 1, journals: int = 2000, *extra: str) -> Iterator[SandboxProcess]:
    """Start ``scrapy sandbox`` on a free port in its own process; stop it on exit."""
    with tempfile.TemporaryDirectory() as folder:
        url_file = Path(folder) / "url"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scrapy",
                "sandbox",
                "--port",
                "0",
                "--seed",
                str(seed),
                "--journals",
                str(journals),
                "--url-file",
                str(url_file),
                *extra,
            ],
            cwd=PROJECT_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            while not (url_file.exists() and url_file.read_text().strip()):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the sandbox did not start: {process.stderr.read().decode()[-2000:]}")
                time.sleep(0.05)
            yield SandboxProcess(process, url_file.read_text().strip())
        finally:
            process.terminate()
            process.wait(timeout=30)


@dataclass
class ScrapyRun:
    """What one ``scrapy`` run printed: its exit code, its stats dump, its log, its wall time."""

    returncode: int
    stats: dict
    log: str
    wall_seconds: float
    peak_memory_bytes: int
    """The crawl process's peak resident memory, with the peaks of its Python worker processes (the extraction
    process) added: a bound on the two together, as they may not peak at once. Chromium is counted apart."""

    @property
    def pages_per_second(self) -> float:
        """Responses received per second of the crawl's own elapsed time."""
        return self.stats.get("response_received_count", 0) / max(self.stats.get("elapsed_time_seconds", 1e-9), 1e-9)


def run_scrapy_command(
    args: Sequence[str],
    env: dict[str, str] | None = None,
    timeout: float = 3600,
    *,
    sample: Callable[[int], None] | None = None,
    every: float = 0.5,
) -> ScrapyRun:
    """Run ``scrapy ARGS`` in the project, parsing the stats it dumps and sampling its peak memory every ``every``
    seconds; ``sample`` (when given) is called with the process id at each sample, to watch its children too."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "scrapy", *args],
        cwd=PROJECT_ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    worker_peaks: dict[int, int] = {}
    while True:
        try:
            _, log = process.communicate(timeout=every)  # keeps draining stderr between memory samples
            break
        except subprocess.TimeoutExpired:
            peak = max(peak, peak_memory_of(process.pid))
            for worker in python_descendants_of(process.pid):
                worker_peaks[worker] = max(worker_peaks.get(worker, 0), peak_memory_of(worker))
            if sample is not None:
                sample(process.pid)
            if time.perf_counter() - started > timeout:
                process.kill()
                raise
    stats = stats_from_log(log)
    peak = max(peak, stats.get("memusage/max", 0)) + sum(worker_peaks.values())
    return ScrapyRun(process.returncode, stats, log, time.perf_counter() - started, peak)


def stats_from_log(log: str) -> dict:
    """The stats a crawl dumped at the end of its log ({} when it dumped none).

    Scrapy dumps them as a Python dict repr with datetimes; the literal values are kept, datetimes become None.
    """
    match = STATS_DUMP.search(log)
    if match is None:
        return {}
    return ast.literal_eval(re.sub(r"datetime\.datetime\([^)]*\)", "None", match[1]))
