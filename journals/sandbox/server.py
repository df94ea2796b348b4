"""Serve the sandbox web over real HTTP on 127.0.0.1, in the foreground or in a background thread."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from journals.sandbox.web import SandboxWeb


class SandboxServer(ThreadingHTTPServer):
    """An HTTP server answering every GET from a :class:`SandboxWeb`, counting the requests it served."""

    daemon_threads = True

    def __init__(self, web: SandboxWeb, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.web = web
        self.request_count = 0
        self._count_lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` of the bound socket."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def count_request(self) -> None:
        """Count one served request (thread-safe)."""
        with self._count_lock:
            self.request_count += 1

    def start_in_thread(self) -> threading.Thread:
        """Serve in a daemon thread; :meth:`shutdown` stops it."""
        thread = threading.Thread(target=self.serve_forever, name="sandbox-server", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: SandboxServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.server.count_request()
        parts = urlsplit(self.path)
        host = self.headers.get("Host", "127.0.0.1")
        response = self.server.web.respond(parts.path, parts.query, host)
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: a crawl makes thousands of requests."""
