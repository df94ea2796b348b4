"""The outside listener of the traps world: a second HTTP listener on another port of 127.0.0.1 that counts every
request it gets, and the world that runs it beside the traps web.

It stands for any host a crawl must never reach: an internal address such as a cloud metadata service, or
another site. It answers whatever it is asked with pages a careless crawler would store (a listing of journals,
journal pages with a metrics hop), so an escape shows in the database as well as in its counter.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from journals.sandbox.markup import link, page
from journals.sandbox.relation import make_issn
from journals.sandbox.server import SandboxServer
from journals.sandbox.traps import TRAP_KINDS, ServedRequest, TrapsWeb
from journals.sandbox.web import SandboxWeb, WebResponse

ROBOTS_ALLOW_ALL = "User-agent: *\nDisallow:\n"


class OutsideWeb(SandboxWeb):
    """Pages of no site in particular: ``/journals/<x>`` lists three journals, any other path is a journal page
    titled after its path, ``…/metrics`` a metrics page."""

    def __init__(self) -> None:
        super().__init__(seed=1, size=1)

    def respond(self, path: str, query: str = "", host: str = "127.0.0.1") -> WebResponse:
        """Answer anything with HTTP 200."""
        if path == "/robots.txt":
            return WebResponse(200, ROBOTS_ALLOW_ALL.encode(), {"Content-Type": "text/plain"})
        slug = path.strip("/").rpartition("/")[2] or "home"
        if path.startswith("/journals/"):
            cards = "".join(
                f'<article class="c-card"><h2>{link(f"/journal/outside-{slug}-{n}", f"Outside Journal {n}")}'
                "</h2></article>"
                for n in range(1, 4)
            )
            return _html(f"Journals: {slug.upper()}", f"<h1>Journals: {escape(slug.upper())}</h1>{cards}")
        number = zlib.crc32(path.encode())
        if path.endswith("/metrics"):
            body = f"<h1>Metrics</h1><dl><dt>Impact factor</dt><dd>{number % 9000 / 1000:.3f}</dd></dl>"
            return _html("Journal metrics", body)
        title = " ".join(word.capitalize() for word in slug.split("-"))
        body = (
            f"<h1>{escape(title)}</h1><p>{link(path.rstrip('/') + '/metrics', 'Journal metrics')}</p>"
            f"<p class='ids'>Print ISSN: {make_issn(number % 5_000_000)}</p>"
        )
        return _html(title, body)


def _html(title: str, body: str) -> WebResponse:
    return WebResponse(200, page(title, body).encode("utf-8"), {"Content-Type": "text/html; charset=utf-8"})


@dataclass
class TrapsWorld:
    """The traps web and the outside listener, both bound to free ports (or the traps web to a chosen one)."""

    web: TrapsWeb
    server: SandboxServer
    outside: SandboxServer
    in_threads: bool = False
    """Whether both serve in threads of this process (:meth:`start`)."""

    @classmethod
    def bind(cls, seed: int = 1, port: int = 0) -> TrapsWorld:
        """Bind the outside listener on a free port, then the traps web on ``port``; serve neither yet."""
        outside = SandboxServer(OutsideWeb(), port=0)
        try:
            web = TrapsWeb(outside.base_url, seed=seed)
            server = SandboxServer(web, port=port)
        except OSError:
            outside.server_close()
            raise
        return cls(web, server, outside)

    @classmethod
    def start(cls, seed: int = 1) -> TrapsWorld:
        """Bind both on free ports and serve both in daemon threads; :meth:`close` stops them."""
        world = cls.bind(seed)
        world.outside.start_in_thread()
        world.server.start_in_thread()
        world.in_threads = True
        return world

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` of the traps web."""
        return self.server.base_url

    @property
    def home_host(self) -> str:
        """The ``Host`` header of requests made to the traps web as the start URLs name it."""
        return self.base_url.removeprefix("http://")

    def start_urls(self, kinds: Sequence[str] = TRAP_KINDS) -> str:
        """The start URLs of the trap sites of ``kinds``, comma-separated for ``-a start_urls=``."""
        return ",".join(f"{self.base_url}/{kind}/" for kind in kinds)

    def off_host_requests(self) -> list[ServedRequest]:
        """Requests the traps web got under another host name than the start URLs' (``localhost:PORT``)."""
        return [request for request in self.web.served() if request.host != self.home_host]

    def outside_requests(self) -> int:
        """Every request that reached outside: those the outside listener got, and those the traps web got under
        another host name."""
        return self.outside.request_count + len(self.off_host_requests())

    def close(self) -> None:
        """Stop the threads (when :meth:`start` started them) and close both sockets.

        Both are stopped at once: each ``shutdown`` waits up to ``serve_forever``'s half-second poll."""
        servers = (self.server, self.outside)
        if self.in_threads:
            stoppers = [threading.Thread(target=server.shutdown) for server in servers]
            for stopper in stoppers:
                stopper.start()
            for stopper in stoppers:
                stopper.join()
        for server in servers:
            server.server_close()
