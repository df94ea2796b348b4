"""Ctrl-C on real crawls: ``scrapy crawl`` and ``make crawl`` stopped half-way keep the previous feeds whole, say
they were interrupted, skip the health check's comparison, exit 130, and ``make crawl`` leaves no sandbox behind."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import PROJECT_ROOT, RunningSandbox

OLD_CSV = "source,url,title\nold,https://old.example/j,Old Journal\n"
OLD_JSON = '[{"source": "old", "url": "https://old.example/j"}]\n'
PATIENCE = 240
"""Seconds a step may take before the test gives up waiting (a safety net, not a measurement)."""


def previous_outputs(folder: Path) -> None:
    """A finished crawl's feeds, as the interrupted one finds them."""
    (folder / "journals.csv").write_text(OLD_CSV, encoding="utf-8")
    (folder / "journals.json").write_text(OLD_JSON, encoding="utf-8")


def journals_stored(database: Path) -> int:
    """Journal rows in the crawl's SQLite file so far (0 before the schema is there)."""
    if not database.exists():
        return 0
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute("select count(*) from journals").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def wait_for(condition, process: subprocess.Popen) -> None:
    """Poll until ``condition()`` holds while ``process`` runs; fail if it ends first or never comes."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert process.poll() is None, f"the crawl ended before it was interrupted: {process.returncode}"
        assert time.monotonic() < deadline, "the crawl made no progress"
        time.sleep(0.2)


def assert_outputs_kept(folder: Path) -> None:
    """The previous feeds as they were, and no temporary file beside them."""
    assert (folder / "journals.csv").read_text(encoding="utf-8") == OLD_CSV
    assert (folder / "journals.json").read_text(encoding="utf-8") == OLD_JSON
    assert not list(folder.glob("*.tmp"))


def test_ctrl_c_on_scrapy_crawl_keeps_the_previous_feeds_and_exits_non_zero(
    sandbox: RunningSandbox, tmp_path: Path
) -> None:
    previous_outputs(tmp_path)
    database = tmp_path / "journals.db"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    command = [
        sys.executable, "-m", "scrapy", "crawl", "publisher", "-a", f"start_url={sandbox.start_url('elsevier')}",
        "-O", str(tmp_path / "journals.csv"), "-O", str(tmp_path / "journals.json"),
        "-s", f"DATABASE_URL=sqlite:///{database}", "-s", "DATABASE_BATCH_SIZE=1",
        "-s", "DOWNLOAD_DELAY=0.1", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=1",  # a crawl long enough to stop
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=PROJECT_ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for(lambda: journals_stored(database) >= 3, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr[-3000:]
    assert_outputs_kept(tmp_path)
    assert "Crawl interrupted (shutdown) after" in stderr
    assert "feed" in stderr and "kept as it was" in stderr
    assert "Crawl health check passed" not in stderr and "Crawl health check failed" not in stderr
    assert "Traceback" not in stderr
    assert journals_stored(database) >= 3  # what was written stays


def port_open(url: str) -> bool:
    """Whether something accepts connections at ``http://HOST:PORT``."""
    host, port = url.removeprefix("http://").split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2):
            return True
    except OSError:
        return False


def test_ctrl_c_on_make_crawl_stops_the_sandbox_and_keeps_the_previous_outputs(tmp_path: Path) -> None:
    """``make crawl`` run as from a terminal (its own process group, every process of it getting the SIGINT), in a
    folder of its own so that the project's journals.db is not touched."""
    previous_outputs(tmp_path)
    venv = PROJECT_ROOT / ".venv"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"} | {
        "PYTHONPATH": str(PROJECT_ROOT),
        "SCRAPY_SETTINGS_MODULE": "settings.default",
    }
    command = [
        "make", "--no-print-directory", "-f", str(PROJECT_ROOT / "Makefile"), f"VENV={venv}",
        "-o", str(venv / ".installed"), "crawl", "JOURNALS=200",
        "CRAWL_ARGS=-s DOWNLOAD_DELAY=0.02 -s DATABASE_BATCH_SIZE=1",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    url_file = tmp_path / ".sandbox.url"
    try:
        wait_for(lambda: url_file.exists() and url_file.read_text().strip() != "", process)
        sandbox_url = url_file.read_text().strip()
        wait_for(lambda: journals_stored(tmp_path / "journals.db") >= 3, process)
        os.killpg(process.pid, signal.SIGINT)
        output, _ = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode != 0, output[-3000:]
    assert "Crawl interrupted (shutdown)" in output
    assert_outputs_kept(tmp_path)
    assert not url_file.exists()
    assert not port_open(sandbox_url), "the sandbox is still serving"
