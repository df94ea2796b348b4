"""What the traps world's tests share: its addresses and a GET on its web (no server).

Not a ``conftest.py``: without packages, pytest imports one as ``conftest``, hiding ``tests/conftest.py`` from every
``from conftest import …``; each module builds its ``web`` and ``truth`` fixtures from these.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from journals.sandbox.traps import TrapsWeb
from journals.sandbox.web import WebResponse

BASE = "http://127.0.0.1:1"
OUTSIDE = "http://127.0.0.1:2"


def get(web: TrapsWeb, url: str, host: str = "127.0.0.1:1") -> WebResponse:
    parts = urlsplit(url)
    return web.respond(parts.path, parts.query, host)
