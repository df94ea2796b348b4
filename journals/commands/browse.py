"""``scrapy browse [--port 8001] [--views-only] [--snapshot FILE]``: serve the database with Datasette on 127.0.0.1.

Creates the browsing views (:mod:`journals.store.views`) first, then runs ``datasette serve`` with the metadata of
``settings/datasette.json`` (titles, facets, column descriptions and units, canned queries) until interrupted.
Datasette reads SQLite only: a PostgreSQL database is first copied into the SQLite file ``--snapshot``
(:mod:`journals.store.snapshot`), which is served instead. ``--views-only`` creates the views and stops.
"""

from __future__ import annotations

import argparse
import json
import os
import pkgutil
import sys
import tempfile
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

# Register the tables that the views read and that the snapshot copies.
import journals.store.crawl_runs  # noqa: F401
from journals.store import DatabaseError, create_schema, database_url, engine_from_url
from journals.store.integrated import IntegratedJournal
from journals.store.snapshot import copy_to_sqlite
from journals.store.views import create_views

METADATA_DATABASE = "journals"
"""The database name ``settings/datasette.json`` describes; renamed to the served file's name."""

DEFAULT_SNAPSHOT = "journals-snapshot.db"


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
        url = database_url(self.settings)
        try:
            engine = engine_from_url(url)
            create_schema(engine)
            views = create_views(engine)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        print(f"views: {', '.join(views)}")
        with engine.connect() as conn:
            if conn.scalar(select(func.count()).select_from(IntegratedJournal)) == 0:
                print("no integrated journals yet: run `scrapy integrate` to fill the Journals view")
        if opts.views_only:
            engine.dispose()
            return
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
            database = Path(parsed.database)
        else:
            database = Path(opts.snapshot).resolve()
            copied = copy_to_sqlite(engine, database)
            snapshot = engine_from_url(f"sqlite:///{database}")
            create_views(snapshot)
            snapshot.dispose()
            print(f"snapshot: {database} ({sum(copied.values())} rows copied)")
        engine.dispose()
        # One metadata file per served file name, rewritten each time: nothing piles up in the temp directory.
        metadata = Path(tempfile.gettempdir()) / f"journals-datasette-{database.stem}.json"
        metadata.write_text(json.dumps(datasette_metadata(database.stem)), encoding="utf-8")
        sys.stdout.flush()
        # Datasette replaces this process, so that Ctrl-C and SIGTERM reach the server itself.
        command = datasette_command(database, metadata, opts.port)
        os.execv(command[0], command)


def datasette_metadata(database_name: str) -> dict[str, Any]:
    """``settings/datasette.json`` with its database entry named after the file Datasette serves."""
    raw = pkgutil.get_data("settings", "datasette.json")
    if raw is None:
        raise UsageError("settings/datasette.json is missing")
    metadata = json.loads(raw)
    metadata["databases"] = {database_name: metadata["databases"][METADATA_DATABASE]}
    return metadata


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
        "--setting",
        "sql_time_limit_ms",
        "5000",
        "--setting",
        "facet_time_limit_ms",
        "1000",
    ]
