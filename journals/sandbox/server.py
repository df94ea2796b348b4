"""Serve the sandbox web over real HTTP on 127.0.0.1, in the foreground or in a background thread.

With a :class:`~journals.sandbox.faults.FaultPlan` the server also misbehaves as the plan says: bursts of 503,
stalls past the client's timeout, slow trickles, truncated bodies, redirect loops, pages that went missing,
wrong or missing charsets, binary bodies, a 20 MB page, 10,000-deep nesting and 50,000 siblings.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from journals.sandbox import faults as fault_kinds
from journals.sandbox.faults import FaultPlan
from journals.sandbox.web import SandboxWeb, WebResponse

LOOP_PARAMETER = re.compile(r"&?loop=\d+")


class SandboxServer(ThreadingHTTPServer):
    """An HTTP server answering every GET from a :class:`SandboxWeb`, counting the requests it served."""

    daemon_threads = True

    def __init__(
        self,
        web: SandboxWeb,
        host: str = "127.0.0.1",
        port: int = 0,
        faults: FaultPlan | None = None,
        latency: float = 0.0,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.web = web
        self.faults = faults
        self.latency = latency
        """Seconds every response waits before it is sent, as a real site's would (each in its own thread)."""
        self.request_count = 0
        self.requests_per_path: Counter[str] = Counter()
        self._count_lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` of the bound socket."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def count_request(self, path: str) -> int:
        """Count one served request (thread-safe); return how many times ``path`` was asked for before."""
        with self._count_lock:
            self.request_count += 1
            seen = self.requests_per_path[path]
            self.requests_per_path[path] += 1
            return seen

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up (past its timeout or size limit) is expected here; anything else is reported."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def start_in_thread(self) -> threading.Thread:
        """Serve in a daemon thread; :meth:`shutdown` stops it."""
        thread = threading.Thread(target=self.serve_forever, name="sandbox-server", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: SandboxServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = LOOP_PARAMETER.sub("", parts.query).lstrip("&")
        seen = self.server.count_request(f"{parts.path}?{query}")
        if self.server.latency:
            time.sleep(self.server.latency)
        host = self.headers.get("Host", "127.0.0.1")
        response = self.server.web.respond(parts.path, query, host)
        plan = self.server.faults
        if plan is not None and parts.path == "/robots.txt":
            response.body += fault_kinds.ROBOTS_EXTRA.encode()
        # Faults fall on the pages a crawler asks for, never on what a page's own script fetches (a template, an
        # HTML fragment: the browser says so in Sec-Fetch-Dest), which the truth's reachability does not weigh.
        subresource = self.headers.get("Sec-Fetch-Dest", "document") != "document"
        html = "html" in response.headers.get("Content-Type", "")
        if plan is None or response.status != 200 or not html or subresource:
            etag = response.headers.get("ETag")
            if etag and etag in self.headers.get("If-None-Match", ""):
                response = WebResponse(304, b"", {"ETag": etag, "Cache-Control": "max-age=0"})
            self._send(response)
            return
        if plan.missing(parts.path, query):
            self._send(WebResponse(404, b"<html><body>Gone</body></html>", {"Content-Type": "text/html"}))
            return
        self._misbehave(plan.fault_for(parts.path, query), response, parts.path, query, seen)

    def _misbehave(self, fault: str | None, response: WebResponse, path: str, query: str, seen: int) -> None:
        """Carry out ``fault`` on a page that would otherwise be ``response``."""
        if fault == "burst_5xx" and seen < fault_kinds.BURST_LENGTH:
            self._send(WebResponse(503, b"Service Unavailable", {"Content-Type": "text/plain"}))
        elif fault == "truncated" and seen == 0:
            self._send(response, truncate=True)
        elif fault == "trickle":
            self._send(response, trickle=True)
        elif fault == "timeout":
            time.sleep(self.server.faults.timeout_seconds if self.server.faults else 0)
            self._send(response)
        elif fault == "redirect_loop":
            loop = int(re.search(r"loop=(\d+)", self.path)[1]) + 1 if "loop=" in self.path else 1
            location = f"{path}?{query}&loop={loop}" if query else f"{path}?loop={loop}"
            self._send(WebResponse(302, b"", {"Location": location}))
        elif fault == "binary":
            self._send(
                WebResponse(200, os.urandom(64) + b"\x00" * 512 + os.urandom(4096), {"Content-Type": "text/html"})
            )
        elif fault == "huge":
            self._send_huge()
        else:
            self._send(_reencode(fault, response) if fault else response)

    def _send(self, response: WebResponse, truncate: bool = False, trickle: bool = False) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        if truncate:
            self.send_header("Connection", "close")
        self.end_headers()
        body = response.body
        if truncate:
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if trickle:
            step = max(1, len(body) // 10)
            for start in range(0, len(body), step):
                self.wfile.write(body[start : start + step])
                self.wfile.flush()
                time.sleep(0.05)
            return
        self.wfile.write(body)

    def _send_huge(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(fault_kinds.HUGE_BYTES))
        self.end_headers()
        chunk = b"<p>" + b"padding " * 8188 + b"</p>"
        try:
            for _ in range(fault_kinds.HUGE_BYTES // len(chunk)):
                self.wfile.write(chunk)
        except OSError:
            pass  # the crawler hung up, as it should past its DOWNLOAD_MAXSIZE
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: a crawl makes thousands of requests."""


def _reencode(fault: str, response: WebResponse) -> WebResponse:
    """A page whose text survives but whose bytes or markup are odd: charsets, BOM, malformed, deep, wide."""
    text = response.body.decode("utf-8")
    headers = dict(response.headers)
    if fault == "latin1":
        text = text.replace('<meta charset="utf-8">', "")
        return WebResponse(200, text.encode("latin-1", "xmlcharrefreplace"), {"Content-Type": "text/html"})
    if fault == "cp1252_as_utf8":
        return WebResponse(200, text.encode("cp1252", "xmlcharrefreplace"), headers)
    if fault == "bom":
        headers["Content-Type"] = "text/html; charset=iso-8859-1"
        return WebResponse(200, b"\xef\xbb\xbf" + text.encode("utf-8"), headers)
    if fault == "malformed":
        text = re.sub(r"</(p|li|td|tr|dd|dt)>", "", text).replace("<footer>", "</div></span><footer><div class=x")
        return WebResponse(200, text.encode("utf-8"), headers)
    if fault == "deep":
        block = "<div>" * fault_kinds.DEEP_LEVELS + "deep" + "</div>" * fault_kinds.DEEP_LEVELS
    else:
        block = "<div class='wide'>" + "<span>x</span>" * fault_kinds.WIDE_SIBLINGS + "</div>"
    return WebResponse(200, text.replace("<footer>", block + "<footer>", 1).encode("utf-8"), headers)
