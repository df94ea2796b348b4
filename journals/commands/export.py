"""``scrapy export FILE [FILE ...] [--history FILE]``: write the journals table from the database, without crawling.

The table is one row per journal under its stable key (:mod:`journals.journal_table`; its columns in
``docs/RESULTS.md``); the integration runs first when the latest crawl came after it, and the crawl's snapshot
is added to the history. Each file's format follows its extension, as a crawl's feed would (``.csv``, ``.json``,
``.jsonl``…, :func:`journals.commands.integrate.exporter_for`), and each is written to ``FILE.tmp`` and moved into
place when complete: an export stopped half-way (Ctrl-C) leaves the previous file whole, and exits 130.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.exporters import exporter_for, feed_path_problem, write_rows
from journals.extensions.interruption import INTERRUPTED_EXIT_CODE
from journals.store import DatabaseError, database_url, open_database
from journals.table.columns import table_columns

HISTORY_FIELDS = ("key", "title", "attribute", "value", "year", "sources", "first_seen_at", "last_seen_at")
"""The columns of the history feed (``--history``): each value a journal's attribute took, with its year and
when crawls first and last showed it."""


class Command(ScrapyCommand):
    """Write the journals table (and its history) from the database."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return "FILE [FILE ...] [--history FILE]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Write the journals table (one row per journal) from the database, without crawling"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--history``: the value history's feed."""
        super().add_options(parser)
        parser.add_argument(
            "--history",
            metavar="FILE",
            help="also write every value's history: each year's figure, first and last seen",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Make the table, write each file."""
        if not args and not opts.history:
            raise UsageError("name the file to write, e.g. scrapy export journals.csv (.csv, .json, .jsonl)")
        for path in [*args, *([opts.history] if opts.history else [])]:
            exporter_for(Path(path), self.settings)  # an unknown extension fails before any work
            if (problem := feed_path_problem(Path(path))) is not None:
                raise UsageError(f"cannot write {path}: {problem}", print_help=False)
        try:
            engine = open_database(database_url(self.settings), must_exist=True)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        # Imported here, not with the module: Scrapy imports every command's module for every command.
        from journals.journal_table import latest_table
        from journals.store.table_io import history_rows

        try:
            try:
                table = latest_table(engine)
                history = history_rows(engine) if opts.history else []
            finally:
                engine.dispose()
            for path in args:
                write_rows(table.rows, Path(path), table_columns(), self.settings)
            if opts.history:
                write_rows(history, Path(opts.history), HISTORY_FIELDS, self.settings)
        except KeyboardInterrupt:
            print("export interrupted: the files not written yet are kept as they were", file=sys.stderr)
            sys.exit(INTERRUPTED_EXIT_CODE)
        written = ", ".join([*args, *([opts.history] if opts.history else [])])
        crawl = f" (the crawl of {table.snapshot.crawled_at:%Y-%m-%d %H:%M} UTC)" if table.snapshot else ""
        print(f"journals table: {len(table.rows)} journals{crawl} -> {written}")
