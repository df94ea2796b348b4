"""Helpers of the browsing tests: Debian's Chromium driven by Playwright, and servers on free ports.

Chromium is the system one (``/usr/bin/chromium``, Debian's ``chromium`` package that ``.ci/run`` installs);
Playwright's own browser download is never used. A missing Chromium fails the tests with the command to fix it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

T = TypeVar("T")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Flags for this machine's closed network: no background connections, no sandbox as root."""


def in_chromium(action: Callable[[Page], T], width: int = 1280, height: int = 900) -> T:
    """``action(page)`` on a Playwright page of a fresh headless Chromium (its own empty profile); its result.

    Runs in a thread of its own: the test thread runs pytest-twisted's asyncio loop, inside which Playwright's
    sync API refuses to work. Exceptions (failed asserts included) reach the caller.
    """
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium chromium-driver (.ci/run installs them)")
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_run_in_chromium, action, width, height).result()


def _run_in_chromium(action: Callable[[Page], T], width: int, height: int) -> T:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height},
        )
        try:
            return action(context.new_page())
        finally:
            context.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def browse_server(project_root: Path, database: Path, log: Path, timeout: float = 30.0) -> Iterator[str]:
    """``scrapy browse`` on ``database`` on a free port of 127.0.0.1, output to ``log``; yields its base URL, then
    stops it and its Datasette (one process group)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "browse", "--port", str(port)],
            cwd=project_root,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base_url}/-/versions.json", process, log, timeout)
        yield base_url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _wait_for(url: str, process: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text(errors="replace")
            pytest.fail(f"scrapy browse exited with {process.returncode}:\n{output[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"scrapy browse did not answer on {url} within {timeout} s")


TABLE_AS_DICTS = """table => {
    const header = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
    return [...table.querySelectorAll('tbody tr')].map(
        tr => Object.fromEntries([...tr.querySelectorAll('td')].map((td, i) => [header[i], td.innerText.trim()])));
}"""


def table_rows(page: Page, selector: str) -> list[dict[str, str]]:
    """The rows of the HTML table at ``selector`` as dicts keyed by its header cells' text."""
    return page.locator(selector).evaluate(TABLE_AS_DICTS)
