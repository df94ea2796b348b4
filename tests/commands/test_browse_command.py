"""``scrapy browse`` keeps Datasette's metadata in a private temporary directory, never at a fixed path in /tmp.

The server is a stand-in process that reports the metadata file it was given: where the metadata goes is decided
before Datasette starts, so starting a real one (``tests/browse/``) would add seconds and prove nothing more.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from scrapy.settings import Settings

from journals.commands import browse
from journals.store import create_schema, engine_from_url
from settings import default

REPORTER = """
import json, os, stat, sys
metadata = sys.argv[sys.argv.index("--metadata") + 1]
report = {"path": metadata, "metadata": json.load(open(metadata)),
          "directory_mode": stat.S_IMODE(os.stat(os.path.dirname(metadata)).st_mode)}
open(os.environ["BROWSE_REPORT"], "w").write(json.dumps(report))
"""
"""Stands in for ``datasette serve``: records the ``--metadata`` file it was handed, and its directory's mode."""


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary directory of the test's own, as ``tempfile.gettempdir()`` (the old code's fixed place)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_browse_ignores_a_symlink_planted_at_the_old_fixed_path_and_removes_its_metadata(
    tmp_path: Path, temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "journals.db"
    engine = engine_from_url(f"sqlite:///{database}")
    create_schema(engine)
    engine.dispose()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (temp_dir / "journals-datasette-journals.json").symlink_to(victim)
    report = tmp_path / "report.json"
    monkeypatch.setenv("BROWSE_REPORT", str(report))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(
        browse, "datasette_command", lambda db, metadata, port: [sys.executable, "-c", REPORTER, "--metadata", metadata]
    )

    command = browse.Command()
    command.settings = Settings()
    command.settings.setmodule(default)
    command.settings.set("DATABASE_URL", f"sqlite:///{database}", priority="cmdline")
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    command.run([], parser.parse_args([]))

    assert victim.read_text(encoding="utf-8") == "precious"
    seen = json.loads(report.read_text(encoding="utf-8"))
    metadata = Path(seen["path"])
    assert metadata.parent.parent == temp_dir and metadata.parent.name.startswith("journals-browse-")
    assert seen["directory_mode"] == 0o700
    assert seen["metadata"]["databases"]["journals"]["tables"]  # settings/datasette.json, named after the file
    assert not metadata.parent.exists()  # removed when the server stopped
    assert sorted(p.name for p in temp_dir.iterdir()) == ["journals-datasette-journals.json"]
    assert command.exitcode == 0


def test_two_browses_of_one_database_get_separate_metadata_directories(temp_dir: Path) -> None:
    with browse.private_metadata("journals") as first, browse.private_metadata("journals") as second:
        assert first.parent != second.parent
        assert json.loads(first.read_text(encoding="utf-8")) == browse.datasette_metadata("journals")
    assert list(temp_dir.iterdir()) == []


def test_a_sigterm_to_browse_stops_the_server_and_returns(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    server = [sys.executable, "-c", "import sys, time; open(sys.argv[1], 'w').close(); time.sleep(60)", str(ready)]

    def terminate_browse() -> None:
        while not ready.exists():
            time.sleep(0.01)
        time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGTERM)

    before = signal.getsignal(signal.SIGTERM)
    threading.Thread(target=terminate_browse, daemon=True).start()
    started = time.monotonic()
    assert browse.serve(server) == 128 + signal.SIGTERM
    assert time.monotonic() - started < 10
    assert signal.getsignal(signal.SIGTERM) is before  # browse's own handler is gone again


def test_the_servers_exit_status_is_browses(tmp_path: Path) -> None:
    assert browse.serve([sys.executable, "-c", "raise SystemExit(4)"]) == 4
