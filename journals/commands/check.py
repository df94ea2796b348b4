"""``scrapy check``: Scrapy's contract check, and, for a spider without contracts that can crawl any site, a crawl
of a small sandbox site whose journals are known.

The project's callbacks carry no contracts: each reads a page a crawl led it to (its source, its role, the listing
that named a journal), which a contract's lone request cannot give, and no fixed URL would outlive the sandbox's
port. Scrapy's check then ran 0 contracts and said OK. Here ``scrapy check publisher`` (or plain ``scrapy check``)
runs the sandbox (``scrapy sandbox``) on a free port, crawls it as a user would (``scrapy crawl publisher``, into
a throwaway database) and compares the journals found with the site's truth; the spiders of real publishers are
listed as not checked (their sites are not crawled by a check). Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scrapy.commands.check import Command as ScrapyCheckCommand
from scrapy.contracts import ContractsManager
from scrapy.exceptions import UsageError
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

SANDBOX_SITE = "openaccess"
"""The sandbox site a check crawls: its start page is its list (a few seconds)."""
SANDBOX_START_SECONDS = 60.0
CHECKED_SPIDER = "publisher"
"""The spider that crawls any site, so the sandbox too."""


class Command(ScrapyCheckCommand):
    """Check contracts, and crawl the sandbox with a spider that has none (module docstring)."""

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's check when the spiders asked for carry contracts (or ``--list``); else the sandbox crawl."""
        assert self.crawler_process is not None and self.settings is not None
        names = args or self.crawler_process.spider_loader.list()
        contracts = build_component_list(self.settings.get_component_priority_dict_with_base("SPIDER_CONTRACTS"))
        manager = ContractsManager(load_object(c) for c in contracts)
        loader = self.crawler_process.spider_loader
        if opts.list or any(manager.tested_methods_from_spidercls(loader.load(name)) for name in names):
            super().run(args, opts)
            return
        for name in names:
            if name != CHECKED_SPIDER:
                print(f"{name}: not checked (no contracts; a real publisher's site is not crawled by a check)")
        if CHECKED_SPIDER in names:
            passed, summary = sandbox_check()
            print(f"{CHECKED_SPIDER}: {summary}")
            self.exitcode = 0 if passed else 1


def sandbox_check() -> tuple[bool, str]:
    """Crawl the sandbox's :data:`SANDBOX_SITE` with the publisher spider; whether every journal was found with
    its title, and a line saying so. The sandbox runs as ``scrapy sandbox`` does for ``make crawl``: a process of
    its own on a free port, its truth written to a file."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    with tempfile.TemporaryDirectory(prefix="journals-check-") as name:
        folder = Path(name)
        sandbox = subprocess.Popen(
            [
                sys.executable, "-m", "scrapy", "sandbox", "--port", "0", "--seed", "1", "--journals", "300",
                "--truth", str(folder / "truth.json"), "--url-file", str(folder / "url"),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            base_url = _served_url(folder / "url", sandbox)
            crawl = subprocess.run(
                [
                    sys.executable, "-m", "scrapy", "crawl", CHECKED_SPIDER,
                    "-a", f"start_url={base_url}/{SANDBOX_SITE}/", "-O", str(folder / "journals.json"),
                    "-s", f"DATABASE_URL=sqlite:///{folder / 'check.db'}", "-s", "LOG_LEVEL=ERROR",
                    "-s", "HTTPCACHE_ENABLED=False", "-s", "PROGRESS_ENABLED=False",
                ],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )  # fmt: skip
        finally:
            sandbox.terminate()
            sandbox.wait()
        truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))["sites"][SANDBOX_SITE]
        feed = folder / "journals.json"
        found = {item.get("title") for item in json.loads(feed.read_text(encoding="utf-8"))} if feed.exists() else set()
    expected = {journal["values"]["title"] for journal in truth["journals"]}
    right = len(expected & found)
    summary = f"crawled the sandbox's {SANDBOX_SITE} site: {right} of {len(expected)} journals found with their title"
    if crawl.returncode != 0:
        last = (crawl.stderr.strip().splitlines() or ["no output"])[-1]
        return False, f"{summary}; the crawl exited {crawl.returncode} ({last}): FAILED"
    return right == len(expected), f"{summary}: {'OK' if right == len(expected) else 'FAILED'}"


def _served_url(url_file: Path, sandbox: subprocess.Popen[bytes]) -> str:
    """The sandbox's base URL once it listens (it writes it to ``url_file``)."""
    deadline = time.monotonic() + SANDBOX_START_SECONDS
    while time.monotonic() < deadline:
        if url_file.exists() and (url := url_file.read_text(encoding="utf-8").strip()):
            return url
        if sandbox.poll() is not None:
            raise UsageError(f"scrapy sandbox ended (exit {sandbox.returncode}) before serving", print_help=False)
        time.sleep(0.1)
    raise UsageError(f"scrapy sandbox did not serve within {SANDBOX_START_SECONDS:.0f} s", print_help=False)
