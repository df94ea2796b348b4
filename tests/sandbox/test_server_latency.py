"""The sandbox server's latency: every response waits, each in its own thread, as a real site's would."""

import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from journals.sandbox.server import SandboxServer
from journals.sandbox.web import SandboxWeb


def test_every_response_waits_and_waits_in_parallel():
    server = SandboxServer(SandboxWeb(seed=1, size=20), port=0, latency=0.3)
    server.start_in_thread()
    try:
        url = f"{server.base_url}/elsevier/"

        def fetch(_: int) -> float:
            started = time.perf_counter()
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200
            return time.perf_counter() - started

        assert fetch(0) >= 0.3
        started = time.perf_counter()
        with ThreadPoolExecutor(6) as pool:
            waits = list(pool.map(fetch, range(6)))
        assert min(waits) >= 0.3
        assert time.perf_counter() - started < 6 * 0.3, "the waits were served one after another"
    finally:
        server.shutdown()
        server.server_close()
