"""``scrapy sandbox --traps``: the traps world and its outside listener, served until SIGTERM, then the count of
requests that reached outside. Run in this process (a ``scrapy`` process takes seconds to start): the command
installs its SIGTERM handler, a thread stops it as a user's ``kill`` would."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from journals.commands.sandbox import Command, port_number


def options(*args: str) -> argparse.Namespace:
    command = Command()
    command.settings = Settings()  # scrapy.cmdline sets it before asking for the options
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    return parser.parse_args(list(args))


def get(base_url: str, path: str, host: str | None = None) -> int:
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host} if host else {})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_traps_serves_the_world_writes_its_truth_and_counts_what_reached_outside(tmp_path: Path, capsys) -> None:
    url_file, truth_file = tmp_path / "url", tmp_path / "truth.json"
    statuses: list[int] = []

    def visit_then_stop() -> None:
        deadline = time.monotonic() + 10
        while not (url_file.exists() and url_file.read_text().strip()):
            if time.monotonic() > deadline:
                return  # the command failed before serving: its own error is the test's failure
            time.sleep(0.02)
        base_url = url_file.read_text().strip()
        port = urlsplit(base_url).port
        statuses.extend([get(base_url, "/escape/"), get(base_url, "/escape/", host=f"localhost:{port}")])
        os.kill(os.getpid(), signal.SIGTERM)

    visitor = threading.Thread(target=visit_then_stop, daemon=True)
    previous = signal.getsignal(signal.SIGTERM)
    opts = options("--traps", "--port", "0", "--url-file", str(url_file), "--truth", str(truth_file))
    try:
        visitor.start()
        Command().run([], opts)
    finally:
        visitor.join(timeout=10)
        signal.signal(signal.SIGTERM, previous)
    assert statuses == [200, 200]
    printed = capsys.readouterr().out.splitlines()
    base_url = url_file.read_text().strip()
    assert printed[0].startswith(f"Traps world on {base_url}/ (seed 1): {base_url}/escape/,")
    assert "outside listener on http://127.0.0.1:" in printed[0]
    assert printed[-1] == "Requests that reached outside: 1 (0 the outside listener, 1 under another host name)"
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    assert list(truth["sites"]) == ["escape", "endless-next", "session-id", "calendar", "nested-letters"]
    assert truth["sites"]["escape"]["start_url"] == f"{base_url}/escape/"
    assert truth["outside_url"] in printed[0]


def test_traps_and_faults_are_two_worlds() -> None:
    with pytest.raises(UsageError, match="--traps and --faults"):
        Command().run([], options("--traps", "--faults", "--port", "0"))


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_a_port_out_of_range_is_a_one_line_error(port: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=f"must be a port number from 0 to 65535, got '{port}'"):
        port_number(port)
    assert port_number("0") == 0 and port_number("65535") == 65535
