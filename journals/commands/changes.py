"""``scrapy changes [--since DATE] [-O FILE]``: what changed in the journals table since the last crawl, or a date.

Journals that appeared, journals that disappeared, and the values that changed (a new year's impact factor, a
corrected figure, a new publisher), from the table's history (:mod:`journals.table.changes`). The latest crawl's
table is made and recorded first when it was not (as ``scrapy export`` does). Without ``--since``, the latest
crawl is compared with the one before it; with it, with the last crawl on or before that date (a crawl before
any recorded compares with an empty table). ``-O`` writes the changes as a feed, its format by extension.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.exporters import exporter_for, feed_path_problem, write_rows
from journals.extensions.interruption import INTERRUPTED_EXIT_CODE
from journals.store import DatabaseError, database_url, open_database
from journals.table.changes import CHANGE_FIELDS, Change, changes, counts

if TYPE_CHECKING:
    from journals.store.table_io import History, Snapshot

SHOWN = 20
"""How many changes the command prints (the feed holds them all)."""


class Command(ScrapyCommand):
    """Print (and write) what changed in the journals table."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return "[--since YYYY-MM-DD] [-O changes.csv|changes.json]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Journals that appeared or disappeared and values that changed, since the last crawl or a date"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--since`` and ``-O``."""
        super().add_options(parser)
        parser.add_argument(
            "--since", metavar="DATE", help="compare with the last crawl on or before DATE (YYYY-MM-DD[THH:MM], UTC)"
        )
        parser.add_argument("-O", "--output", metavar="FILE", help="write every change (.csv, .json, .jsonl)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Make the table, compare two of its snapshots, print and write the changes."""
        if args:
            raise UsageError("scrapy changes takes no positional arguments")
        since = parse_date(opts.since) if opts.since else None
        if opts.output:
            exporter_for(Path(opts.output), self.settings)
            if (problem := feed_path_problem(Path(opts.output))) is not None:
                raise UsageError(f"cannot write -O {opts.output}: {problem}", print_help=False)
        try:
            engine = open_database(database_url(self.settings), must_exist=True)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        # Imported here, not with the module: Scrapy imports every command's module for every command.
        from journals.journal_table import latest_table
        from journals.store.table_io import read_history

        try:
            try:
                latest_table(engine)
                history = read_history(engine)
            finally:
                engine.dispose()
            if not history.snapshots:
                print("no crawl in the database yet: nothing to compare")
                return
            before, after = compared(history, since)
            found = changes(history.journals, history.values, before.id if before else 0, after.id)
            print(describe(found, before, after))
            if opts.output:
                write_rows([change.as_row() for change in found], Path(opts.output), CHANGE_FIELDS, self.settings)
        except KeyboardInterrupt:
            print("changes interrupted: the previous file is kept as it was", file=sys.stderr)
            sys.exit(INTERRUPTED_EXIT_CODE)


def parse_date(text: str) -> datetime:
    """``YYYY-MM-DD`` (the end of that day) or an ISO 8601 time, in UTC; else a one-line UsageError."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--since {text!r}: expected a date such as 2026-12-01 or 2026-12-01T08:00") from None
    if len(text) == len("YYYY-MM-DD"):
        when = when.replace(hour=23, minute=59, second=59, microsecond=999999)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def compared(history: History, since: datetime | None) -> tuple[Snapshot | None, Snapshot]:
    """The two snapshots to compare: the latest, and the one before it (or the last on or before ``since``);
    None for the earlier when there is none (everything then appeared)."""
    after = history.snapshots[-1]
    if since is None:
        return (history.snapshots[-2] if len(history.snapshots) > 1 else None), after
    earlier = [snapshot for snapshot in history.snapshots if snapshot.crawled_at <= since]
    return (earlier[-1] if earlier else None), after


def describe(found: list[Change], before: Snapshot | None, after: Snapshot) -> str:
    """The summary line and the first :data:`SHOWN` changes, one a line."""
    tally = counts(found)
    start = f"the crawl of {before.crawled_at:%Y-%m-%d %H:%M}" if before else "an empty table"
    lines = [
        f"changes from {start} to the crawl of {after.crawled_at:%Y-%m-%d %H:%M} UTC: "
        f"{tally['appeared']} journals appeared, {tally['disappeared']} disappeared, {tally['changed']} values changed"
    ]
    for change in found[:SHOWN]:
        name = f"{change.key} {change.title or ''}".strip()
        if change.attribute is None:
            lines.append(f"  {change.change}: {name}")
        else:
            old = _shown(change.old_value, change.old_year)
            new = _shown(change.new_value, change.new_year)
            lines.append(f"  changed: {name}: {change.attribute} {old} -> {new}")
    if len(found) > SHOWN:
        lines.append(f"  ... and {len(found) - SHOWN} more (-O FILE writes them all)")
    return "\n".join(lines)


def _shown(value: str | None, year: int | None) -> str:
    if value is None:
        return "(none)"
    return f"{value} ({year})" if year is not None else value
