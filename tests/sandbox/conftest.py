"""The traps world for its tests: its web (no server) and truth, built once per module, and a GET on the web.

``test_web.py`` and ``test_realsites.py`` define their own ``web`` (and ``truth``): the sandbox web of their world.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from journals.sandbox.traps import TrapsWeb, traps_truth
from journals.sandbox.web import WebResponse

BASE = "http://127.0.0.1:1"
OUTSIDE = "http://127.0.0.1:2"


@pytest.fixture(scope="module")
def web() -> TrapsWeb:
    return TrapsWeb(OUTSIDE, seed=1)


@pytest.fixture(scope="module")
def truth(web: TrapsWeb) -> dict:
    return traps_truth(web, BASE)


def get(web: TrapsWeb, url: str, host: str = "127.0.0.1:1") -> WebResponse:
    parts = urlsplit(url)
    return web.respond(parts.path, parts.query, host)
