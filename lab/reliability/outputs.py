"""The crawl's outputs under hostile conditions (issue 25): a feed asked for where no file can be written, and
Datasette's CSV export of titles that a spreadsheet would run as formulas.

- :func:`unwritable_feed_outcome`: ``scrapy crawl -O PATH`` and ``scrapy integrate -O PATH`` for a ``PATH`` whose
  folder is a file, or in a folder of the kernel's (``/proc``, ``/sys``): each must refuse in one line, with a
  non-zero exit, before the crawl fetches anything;
- :func:`datasette_csv_outcome`: a database of journals titled with formulas served by ``scrapy browse``: its CSV
  export must defuse every formula cell and its JSON keep every title as stored.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from journals.csv_cells import defuse_formula
from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals
from lab.crawlrun import PROJECT_ROOT
from lab.reliability.rules import HOSTILE_TITLES, RulesServer
from lab.reliability.scenarios import Outcome

UNWRITABLE_FEEDS = {
    "main": ("{folder}/plain-file/journals.csv", "/proc/journals.json"),
    "held-out": ("{folder}/plain-file/deeper/journals.jsonl", "/sys/journals.csv"),
}
"""Feed paths no file can be written to, by parameter set: under a file, under the kernel's folders."""
FORMULA_TITLES = {
    "main": tuple(t for t in HOSTILE_TITLES["titles-hostile"] if defuse_formula(t) != t),
    "held-out": tuple(t for t in HOSTILE_TITLES["titles-hostile-other"] if defuse_formula(t) != t),
}
"""Titles a spreadsheet would run, by parameter set."""
WAIT_SECONDS = 60.0


def _scrapy(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def unwritable_feed_outcome(folder: Path, parameters: str = "main") -> Outcome:
    """Crawl and integrate with ``-O`` to each unwritable path of ``parameters``: one error line each, a non-zero
    exit, no traceback, and no page fetched."""
    outcome = Outcome(f"feed that cannot be written ({parameters}: {', '.join(UNWRITABLE_FEEDS[parameters])})")
    work = folder / f"feeds-{parameters}"
    work.mkdir()
    (work / "plain-file").write_text("in the way", encoding="utf-8")
    server = RulesServer("robots-404")
    server.start_in_thread()
    refused = 0
    try:
        for template in UNWRITABLE_FEEDS[parameters]:
            feed = template.format(folder=work)
            database = work / "journals.db"
            runs = {
                "crawl": _scrapy(
                    "crawl", "publisher", "-a", f"start_url={server.start_url}", "-O", feed, database=database
                ),
                "integrate": _scrapy("integrate", "-O", feed, database=database),
            }
            for command, result in runs.items():
                errors = [line for line in result.stderr.splitlines() if "error:" in line]
                if result.returncode == 0 or len(errors) != 1 or "Traceback" in result.stderr:
                    outcome.problems.append(
                        f"{command} -O {feed}: exit {result.returncode}, {len(errors)} error lines, "
                        f"traceback {'Traceback' in result.stderr}"
                    )
                else:
                    refused += 1
    finally:
        server.shutdown()
        server.server_close()
    outcome.figures.update(commands_refused_in_one_line=refused, pages_fetched=len(server.served))
    if server.served:
        outcome.problems.append(f"{len(server.served)} requests reached the site before the feed was refused")
    return outcome


def datasette_csv_outcome(folder: Path, parameters: str = "main") -> Outcome:
    """Serve a database of formula-titled journals with ``scrapy browse``; its CSV (streamed, paged, a SQL query)
    must defuse every formula, its JSON keep every title."""
    titles = FORMULA_TITLES[parameters]
    outcome = Outcome(f"Datasette's CSV export of formula titles ({parameters}: {len(titles)} titles)")
    database = folder / f"datasette-{parameters}.db"
    engine = engine_from_url(f"sqlite:///{database}")
    create_schema(engine)
    items = [JournalItem(source="hostile", url=f"http://127.0.0.1:9/j/{i}", title=t) for i, t in enumerate(titles)]
    write_journals(engine, items)
    engine.dispose()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    log = (folder / f"datasette-{parameters}.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "browse", "--port", str(port)],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/{database.stem}"
    try:
        _wait_until_serving(f"http://127.0.0.1:{port}/-/versions.json", process)
        exports = {
            "streamed": _get(f"{base}/journals.csv?_stream=on&_col=title&_size=max"),
            "paged": _get(f"{base}/journals.csv?_col=title"),
            "query": _get(f"{base}.csv?sql=select+title+from+journals"),
        }
        shown = {row["title"] for row in json.loads(_get(f"{base}/journals.json?_col=title&_shape=array"))}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()
    expected = {"'" + title for title in titles}
    for name, text in exports.items():
        cells = {row["title"] for row in csv.DictReader(io.StringIO(text))}
        if cells != expected:
            outcome.problems.append(f"{name} CSV: {len(cells - expected)} cells not defused, e.g. {sorted(cells)[:1]}")
    if shown != set(titles):
        outcome.problems.append("the JSON does not show the titles as stored")
    outcome.figures.update(formula_titles=len(titles), csv_exports_checked=len(exports))
    return outcome


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8")


def _wait_until_serving(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"scrapy browse ended (exit {process.returncode}) before serving")
        try:
            _get(url)
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    raise RuntimeError("scrapy browse did not serve in time")
