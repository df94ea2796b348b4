"""The benchmarks' view of a crawl's processes (lab.crawlrun): its descendants and their memory, from /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from lab.crawlrun import browser_memory_bytes, descendants_of, proportional_bytes, resident_bytes


def test_descendants_are_found_through_every_generation_and_only_chromium_counts_as_browser() -> None:
    # A child that starts a grandchild and waits: both descend from this process, neither is a browser.
    child = subprocess.Popen(
        [sys.executable, "-c", "import subprocess; subprocess.run(['sleep', '30'])"], stdout=subprocess.DEVNULL
    )
    grandchildren: list[int] = []
    try:
        deadline = time.monotonic() + 10
        while not grandchildren and time.monotonic() < deadline:
            time.sleep(0.05)
            grandchildren = descendants_of(child.pid)
        (grandchild,) = grandchildren
        assert {child.pid, grandchild} <= set(descendants_of(os.getpid()))
        assert resident_bytes(child.pid) > 1_000_000 and resident_bytes(grandchild) > 0
        assert 0 < proportional_bytes(child.pid) <= resident_bytes(child.pid)
        assert browser_memory_bytes(os.getpid()) == 0
    finally:
        for pid in grandchildren:
            os.kill(pid, signal.SIGKILL)
        child.kill()
        child.wait()
    assert resident_bytes(child.pid) == 0, "a process that ended has no memory"
