"""An HTTP forward proxy on 127.0.0.1 that replays saved pages under their original URLs.

A crawl points ``http_proxy`` and ``https_proxy`` at it (Scrapy's ``HttpProxyMiddleware`` reads them) and runs
unchanged against the real URLs. Plain-HTTP requests arrive as absolute-URI GETs; https URLs arrive as
``CONNECT host:443`` tunnels, which the proxy answers, then ends TLS itself with a self-signed certificate
(:mod:`journals.replay.tls`) and reads the GETs inside. A saved page is served under its URL (compared by
:func:`~journals.replay.pages.url_key`, so under http and https alike), ``/robots.txt`` of every host allows all,
and every other URL gets a small stub journal page named after the URL's last path segment. Every requested URL
is recorded, so a measurement can tell which of a list's journals the crawl asked for.
"""

from __future__ import annotations

import html
import ssl
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BufferedIOBase
from typing import Any, NamedTuple, cast
from urllib.parse import unquote, urlsplit

from journals.replay.pages import SavedPage, is_robots_url, url_key
from journals.replay.tls import server_context

ROBOTS_TXT = b"User-agent: *\nAllow: /\n"
HTML_TYPE = "text/html; charset=utf-8"
STUB_SUFFIXES = (".php", ".html", ".htm", ".aspx", ".asp", ".jsp")


class Reply(NamedTuple):
    """What the proxy answers one URL with (always status 200)."""

    body: bytes
    content_type: str
    saved: bool
    """Whether the body is a saved page (not a stub or robots.txt)."""


def stub_title(url: str) -> str:
    """A readable name from a URL's last path segment: ``/journal/aging-geriatric-medicine.php`` → ``aging
    geriatric medicine``; the host when the path is empty."""
    parts = urlsplit(url)
    segment = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    for suffix in STUB_SUFFIXES:
        segment = segment.removesuffix(suffix)
    words = " ".join(segment.replace("-", " ").replace("_", " ").split())
    return words or parts.hostname or "page"


def stub_page(url: str) -> bytes:
    """A small valid HTML page standing in for a page that was not saved: its title and ``h1`` from the URL."""
    title = html.escape(stub_title(url))
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1><p>Replay stub: this page was not saved.</p></body></html>"
    ).encode()


class ReplayServer(ThreadingHTTPServer):
    """The replay proxy: saved pages by URL, stubs for the rest, every requested URL recorded in order."""

    daemon_threads = True

    def __init__(
        self,
        pages: Mapping[str, bytes],
        host: str = "127.0.0.1",
        port: int = 0,
        on_request: Callable[[str], None] | None = None,
    ) -> None:
        """Bind to ``host:port`` (0: a free port). ``pages`` maps original URLs to saved bodies; ``on_request``
        is called with every requested URL (from the handler's thread)."""
        super().__init__((host, port), _ProxyHandler)
        self.pages = {url_key(url): body for url, body in pages.items()}
        self.tls_context: ssl.SSLContext = server_context(urlsplit(url).hostname or "localhost" for url in pages)
        self.on_request = on_request
        self._requested: list[str] = []
        self._lock = threading.Lock()

    @classmethod
    def for_saved_pages(
        cls,
        saved: Iterable[SavedPage],
        host: str = "127.0.0.1",
        port: int = 0,
        on_request: Callable[[str], None] | None = None,
    ) -> ReplayServer:
        """A proxy serving every saved page that has a usable original URL."""
        pages = {page.url: page.path.read_bytes() for page in saved if page.url}
        return cls(pages, host=host, port=port, on_request=on_request)

    @property
    def proxy_url(self) -> str:
        """``http://127.0.0.1:PORT``: the value for ``http_proxy`` and ``https_proxy``."""
        host, port = cast("tuple[str, int]", self.server_address[:2])
        return f"http://{host}:{port}"

    @property
    def requested(self) -> list[str]:
        """Every URL asked for so far, in order, ``robots.txt`` included (a copy)."""
        with self._lock:
            return list(self._requested)

    def reply(self, url: str) -> Reply:
        """What ``url`` is answered with."""
        if is_robots_url(url):
            return Reply(ROBOTS_TXT, "text/plain; charset=utf-8", saved=False)
        body = self.pages.get(url_key(url))
        if body is not None:
            return Reply(body, HTML_TYPE, saved=True)
        return Reply(stub_page(url), HTML_TYPE, saved=False)

    def record(self, url: str) -> None:
        """Record one requested URL (thread-safe) and pass it to ``on_request``."""
        with self._lock:
            self._requested.append(url)
        if self.on_request is not None:
            self.on_request(url)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up, mid-request or mid-handshake, is expected; anything else is reported."""
        if not isinstance(sys.exc_info()[1], ConnectionError | ssl.SSLError | TimeoutError):
            super().handle_error(request, client_address)

    def start_in_thread(self) -> threading.Thread:
        """Serve in a daemon thread; :meth:`stop` ends it."""
        thread = threading.Thread(target=self.serve_forever, name="replay-proxy", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop serving (when serving in a thread) and release the port."""
        self.shutdown()
        self.server_close()


class _ProxyHandler(BaseHTTPRequestHandler):
    server: ReplayServer
    protocol_version = "HTTP/1.1"
    timeout = 60  # an idle keep-alive connection or tunnel frees its thread after a minute
    tunnel: str | None = None
    """Inside a ``CONNECT`` tunnel: the tunnelled ``host[:port]`` (no ``:443``)."""

    def do_CONNECT(self) -> None:
        host, _, port = self.path.rpartition(":")
        if not host or not port.isdigit():
            self.send_error(400, "CONNECT needs host:port")
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        try:
            tls = self.server.tls_context.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError):
            self.close_connection = True
            return
        # The GETs inside the tunnel are read by BaseHTTPRequestHandler's own loop, now over TLS.
        self.connection = tls
        self.rfile = cast(BufferedIOBase, tls.makefile("rb", self.rbufsize))
        self.wfile = tls.makefile("wb")
        self.tunnel = host.lower() if port == "443" else f"{host.lower()}:{port}"
        self.close_connection = False

    def do_GET(self) -> None:
        url = self._target_url()
        self.server.record(url)
        reply = self.server.reply(url)
        self.send_response(200)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def _target_url(self) -> str:
        """The absolute URL asked for: inside a tunnel, the tunnelled host's https URL; a proxy GET carries it."""
        if self.tunnel is not None:
            return f"https://{self.tunnel}{self.path}"
        if self.path.startswith(("http://", "https://")):
            return self.path
        return f"http://{self.headers.get('Host', 'localhost')}{self.path}"

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            if self.tunnel is not None:
                self.connection.close()

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: a crawl makes hundreds of requests."""
