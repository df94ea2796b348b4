"""``scrapy browse [--port 8001] [--views-only] [--snapshot FILE]``: serve the database with Datasette on 127.0.0.1.

Creates the browsing views (:mod:`journals.store.views`) first, then runs ``datasette serve`` with the metadata of
``settings/datasette.json`` (titles, facets, column descriptions and units, canned queries) and the project's plugins
(:mod:`journals.datasette_plugins`: CSV exports with formula cells defused) until interrupted.
Datasette reads SQLite only: a PostgreSQL database is first copied into the SQLite file ``--snapshot``
(:mod:`journals.store.snapshot`), which is served instead. ``--views-only`` creates the views and stops.

The metadata file lives in a private temporary directory (``tempfile.TemporaryDirectory``: a fresh name, mode 0700)
that is removed when Datasette stops, so no fixed path in ``/tmp`` is ever written or followed.
"""

from __future__ import annotations

import argparse
import json
import pkgutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from sqlalchemy.engine import make_url

from journals import datasette_plugins
from journals.store import DatabaseError, database_url, engine_from_url, open_database
from journals.store.overview import integration_counts
from journals.store.snapshot import copy_to_sqlite
from journals.store.table_copy import JOURNAL_TABLE, write_journal_table
from journals.store.views import create_views
from journals.table.columns import column_meaning, table_columns
from journals.vocabulary import attribute_names

METADATA_DATABASE = "journals"
"""The database name ``settings/datasette.json`` describes; renamed to the served file's name."""

DEFAULT_SNAPSHOT = "journals-snapshot.db"
PLUGINS_DIR = Path(datasette_plugins.__file__).parent
"""The project's Datasette plugins (CSV cells with formulas defused)."""


class Command(ScrapyCommand):
    """Create the browsing views and serve the database with Datasette."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return "[--port 8001] [--views-only] [--snapshot journals-snapshot.db]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Browse the database with Datasette: facets, canned queries, provenance"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--port`` to serve on and ``--views-only`` to stop after creating the views."""
        super().add_options(parser)
        parser.add_argument("--port", type=int, default=8001, help="port on 127.0.0.1 (default 8001)")
        parser.add_argument("--views-only", action="store_true", help="create the views, do not serve")
        parser.add_argument(
            "--snapshot",
            default=DEFAULT_SNAPSHOT,
            metavar="FILE",
            help=f"SQLite copy served when the database is not SQLite (default {DEFAULT_SNAPSHOT})",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Create the views, then serve until interrupted."""
        if args:
            raise UsageError("scrapy browse takes no positional arguments")
        try:
            url = database_url(self.settings)
            engine = open_database(url, must_exist=True)
            views = create_views(engine)
            # Imported here, not with the module: Scrapy imports every command's module for every command.
            from journals.journal_table import latest_table

            rows = latest_table(engine, record=False, integrate=False).rows
            written = write_journal_table(engine, table_columns(), rows)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        print(f"views: {', '.join(views)}")
        print(f"{JOURNAL_TABLE}: {written} journals, as `scrapy export` writes them")
        if integration_counts(engine).journals == 0:
            print("no integrated journals yet: run `scrapy integrate` to fill the Journals view")
        if opts.views_only:
            engine.dispose()
            return
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":  # a file: open_database refuses an in-memory database
            database = Path(parsed.database)
        else:
            database = Path(opts.snapshot).resolve()
            copied = copy_to_sqlite(engine, database)
            snapshot = engine_from_url(f"sqlite:///{database}")
            try:
                write_journal_table(snapshot, table_columns(), rows)
            finally:
                snapshot.dispose()
            print(f"snapshot: {database} ({sum(copied.values())} rows copied)")
        engine.dispose()
        sys.stdout.flush()
        with private_metadata(database.stem) as metadata:
            self.exitcode = serve(datasette_command(database, metadata, opts.port))


@contextmanager
def private_metadata(database_name: str) -> Iterator[Path]:
    """The Datasette metadata for ``database_name`` written in a fresh private directory, removed on exit."""
    with tempfile.TemporaryDirectory(prefix="journals-browse-") as private:
        metadata = Path(private) / "metadata.json"
        metadata.write_text(json.dumps(datasette_metadata(database_name)), encoding="utf-8")
        yield metadata


def serve(command: list[str]) -> int:
    """Run ``command`` until it exits and return a shell-style exit status.

    Datasette runs as a child, not in place of this process (``execv``), so that the metadata directory can be
    removed after it. Ctrl-C in a terminal reaches both processes; a SIGINT, SIGTERM or SIGHUP sent to this process
    alone is passed on as SIGTERM (a graceful stop, harmless when the child got the signal too), and a second
    one as SIGKILL.
    """
    process = subprocess.Popen(command)
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    received = 0

    def stop_child(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received += 1
        if process.poll() is None:
            process.send_signal(signal.SIGTERM if received == 1 else signal.SIGKILL)

    previous = {signum: signal.signal(signum, stop_child) for signum in signals}
    try:
        status = process.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if process.poll() is None:  # left by an exception of our own: never leave a server behind
            process.kill()
            process.wait()
    return status if status >= 0 else 128 - status


def datasette_metadata(database_name: str) -> dict[str, Any]:
    """``settings/datasette.json`` with its database entry named after the file Datasette serves."""
    raw = pkgutil.get_data("settings", "datasette.json")
    if raw is None:
        raise UsageError("settings/datasette.json is missing")
    metadata = json.loads(raw)
    metadata["databases"] = {database_name: metadata["databases"][METADATA_DATABASE]}
    described = metadata["databases"][database_name]["tables"].setdefault(JOURNAL_TABLE, {})
    described["columns"] = {column: column_meaning(column) for column in table_columns()}
    for query in metadata["databases"][database_name].get("queries", {}).values():
        query["sql"] = with_known_attributes(query["sql"])
    return metadata


def with_known_attributes(sql: str) -> str:
    """A canned query's SQL with the attributes the vocabulary knows written in: ``__ATTRIBUTES__`` as an SQL list
    (``'title', 'issn', …``) and ``__ATTRIBUTE_LIST__`` as text for a message. A query given an attribute it does
    not know says so instead of answering nothing, or everything."""
    names = attribute_names()
    return sql.replace("__ATTRIBUTES__", ", ".join(f"'{name}'" for name in names)).replace(
        "__ATTRIBUTE_LIST__", ", ".join(names)
    )


def datasette_command(database: Path, metadata: Path, port: int) -> list[str]:
    """The ``datasette serve`` command line for ``database`` on 127.0.0.1:``port``."""
    return [
        sys.executable,
        "-m",
        "datasette",
        "serve",
        str(database),
        "--metadata",
        str(metadata),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--plugins-dir",
        str(PLUGINS_DIR),
        "--setting",
        "sql_time_limit_ms",
        "5000",
        "--setting",
        "facet_time_limit_ms",
        "1000",
    ]
