"""``scrapy sandbox``: serve the sandbox publisher web on 127.0.0.1 until interrupted.

``--replay DIR_OR_MANIFEST`` serves the real saved pages instead, as a forward proxy under their original URLs
(:mod:`journals.replay.proxy`): point ``http_proxy`` and ``https_proxy`` at the URL it prints.

``--prerendered`` serves the script-built sites as their plain twins (:mod:`journals.sandbox.prerendered`): what
their scripts write is in the served HTML, at the same URLs, with the same truth.

``--traps`` serves the traps world instead (:mod:`journals.sandbox.traps`): small sites that are hostile by shape
(escaping redirects, endless pagination, session ids, calendars, nested sub-letters), and an outside listener on
another port that counts the requests a crawl must never make; on exit it prints how many reached outside.

The sandbox and the replay proxy are imported when the command runs: Scrapy imports every command's module at the
start of every command, ``scrapy crawl`` included.
"""

from __future__ import annotations

import argparse
import json
import signal
import socketserver
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError


class Command(ScrapyCommand):
    """Serve the sandbox publisher web, optionally writing its ground truth first."""

    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        """Usage line."""
        return (
            "[--port 8000] [--seed 1] [--journals 2000] [--truth truth.json] [--faults] [--latency SECS]"
            " [--prerendered] [--url-file FILE]"
            " | --traps [--port 8000] [--seed 1] [--truth truth.json] [--url-file FILE]"
            " | --replay DIR_OR_MANIFEST [--port 0] [--url-file FILE] [--requests-log FILE]"
        )

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Serve the sandbox publisher web (generated from a seed) on 127.0.0.1"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """The sandbox's options."""
        super().add_options(parser)
        parser.add_argument("--port", type=port_number, default=8000, help="port on 127.0.0.1 (0: any free port)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the generated world")
        parser.add_argument("--journals", type=int, default=2000, help="number of journals in the world")
        parser.add_argument("--truth", metavar="FILE", help="write the ground truth as JSON to FILE")
        parser.add_argument("--edition", type=int, default=1, help="2, 3…: the same world with some metrics updated")
        parser.add_argument("--faults", action="store_true", help="serve a hostile web (see journals.sandbox.faults)")
        parser.add_argument(
            "--traps",
            action="store_true",
            help="serve the spider traps world and its outside listener (see journals.sandbox.traps)",
        )
        parser.add_argument("--fault-rate", type=float, default=0.08, help="share of pages with a fault")
        parser.add_argument("--fault-timeout", type=float, default=35.0, help="seconds a stalling page stalls")
        parser.add_argument(
            "--latency", type=float, default=0.0, help="seconds each response waits before it is sent (a real site's)"
        )
        parser.add_argument(
            "--prerendered",
            action="store_true",
            help="serve the script-built sites with what their scripts write already in the HTML (a plain twin)",
        )
        parser.add_argument("--url-file", metavar="FILE", help="write the served base URL to FILE once listening")
        parser.add_argument(
            "--replay",
            metavar="DIR_OR_MANIFEST",
            help="serve the real saved pages of DIR (its manifest.json) as a forward proxy under their URLs",
        )
        parser.add_argument(
            "--requests-log", metavar="FILE", help="with --replay: append every requested URL to FILE, one a line"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Bind, write the truth and URL file, serve until SIGINT or SIGTERM."""
        if args:
            raise UsageError("scrapy sandbox takes no positional arguments")
        if opts.journals < 1:
            raise UsageError("--journals must be at least 1")
        if opts.replay:
            self._replay(opts)
            return
        if opts.requests_log:
            raise UsageError("--requests-log goes with --replay")
        if opts.traps:
            self._traps(opts)
            return
        from journals.sandbox.faults import FaultPlan
        from journals.sandbox.server import SandboxServer
        from journals.sandbox.truth import write_truth
        from journals.sandbox.web import SandboxWeb

        web = SandboxWeb(seed=opts.seed, size=opts.journals, edition=opts.edition, prerendered=opts.prerendered)
        faults = FaultPlan(opts.seed, opts.fault_rate, opts.fault_timeout) if opts.faults else None
        try:
            server = SandboxServer(web, port=opts.port, faults=faults, latency=opts.latency)
        except OSError as error:
            raise UsageError(f"cannot listen on 127.0.0.1:{opts.port}: {error.strerror}") from error
        if opts.truth:
            write_truth(web, server.base_url, opts.truth, faults)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        twin = ", script-built sites prerendered" if opts.prerendered else ""
        world = f"seed {opts.seed}, {opts.journals} journals{twin}"
        print(f"Sandbox publisher web on {server.base_url}/ ({world})", flush=True)
        _serve(server, server.base_url, opts.url_file)

    def _traps(self, opts: argparse.Namespace) -> None:
        """Serve the traps world (the outside listener in a thread) until SIGINT or SIGTERM; then say how many
        requests reached outside."""
        if opts.faults:
            raise UsageError("--traps and --faults are two worlds: choose one")
        from journals.sandbox.outside import TrapsWorld
        from journals.sandbox.traps import traps_truth

        try:
            world = TrapsWorld.bind(seed=opts.seed, port=opts.port)
        except OSError as error:
            raise UsageError(f"cannot listen on 127.0.0.1:{opts.port}: {error.strerror}") from error
        if opts.truth:
            truth = traps_truth(world.web, world.base_url)
            Path(opts.truth).write_text(json.dumps(truth, ensure_ascii=False), encoding="utf-8")
        world.outside.start_in_thread()
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        print(
            f"Traps world on {world.base_url}/ (seed {opts.seed}): {world.start_urls()}; "
            f"outside listener on {world.outside.base_url}/",
            flush=True,
        )
        try:
            _serve(world.server, world.base_url, opts.url_file)
        finally:
            world.outside.shutdown()
            world.outside.server_close()
            print(
                f"Requests that reached outside: {world.outside_requests()} ({world.outside.request_count} the "
                f"outside listener, {len(world.off_host_requests())} under another host name)",
                flush=True,
            )

    def _replay(self, opts: argparse.Namespace) -> None:
        """Serve the saved pages as a forward proxy until SIGINT or SIGTERM."""
        from journals.replay.pages import load_saved_pages
        from journals.replay.proxy import ReplayServer

        try:
            saved = load_saved_pages(opts.replay)
        except (OSError, ValueError, KeyError) as error:
            raise UsageError(f"cannot read the saved pages at {opts.replay}: {error}") from error
        on_request = _line_appender(Path(opts.requests_log)) if opts.requests_log else None
        try:
            server = ReplayServer.for_saved_pages(saved, port=opts.port, on_request=on_request)
        except OSError as error:
            raise UsageError(f"cannot listen on 127.0.0.1:{opts.port}: {error.strerror}") from error
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        served = sum(1 for page in saved if page.url)
        print(
            f"Replay proxy on {server.proxy_url} ({served} saved pages): "
            f"http_proxy={server.proxy_url} https_proxy={server.proxy_url} scrapy crawl …",
            flush=True,
        )
        _serve(server, server.proxy_url, opts.url_file)


def _serve(server: socketserver.BaseServer, url: str, url_file: str | None) -> None:
    """Write ``url`` to ``url_file`` (when given) and serve until SIGINT or SIGTERM, then close the socket.

    The file is the ready signal of whoever started the sandbox (``make crawl`` waits for it as long as the sandbox
    runs): it appears whole, written aside and renamed, once the server listens.
    """
    if url_file:
        written = Path(f"{url_file}.tmp")
        written.write_text(url + "\n", encoding="utf-8")
        written.replace(url_file)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()


def _line_appender(path: Path) -> Callable[[str], None]:
    """A function appending its argument to ``path`` as one line (each a single short ``O_APPEND`` write, so the
    proxy's threads do not interleave them)."""

    def append(line: str) -> None:
        with path.open("a", encoding="utf-8") as log:
            log.write(line + "\n")

    return append


def port_number(text: str) -> int:
    """``--port``'s value: an integer from 0 (any free port) to 65535, else a one-line usage error."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, got {text!r}")
    return port
