"""``scrapy report [-o report.html] [--truth truth.json]``: one HTML page about the crawl in ``DATABASE_URL``.

The page holds the sources and their journal counts, each attribute's completeness per source, the last crawl's
Scrapy stats (``crawl_runs``), the extraction quality against a sandbox truth when ``--truth`` is given (the
paper's Table 3 and Figure 5), the journals table's changes since the crawl before with the impact factor by
year (:mod:`journals.report.history`), and box plots of the metrics per source. Images are embedded: the page is
one file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.store import DatabaseError, database_url, open_database


class Command(ScrapyCommand):
    """Write the crawl report as one HTML page."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return "[-o report.html] [--truth truth.json]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "One HTML page: crawl stats, completeness, quality against the truth, metric distributions"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``-o`` the page to write and ``--truth`` the sandbox truth to score against."""
        super().add_options(parser)
        parser.add_argument("-o", "--output", default="report.html", help="HTML file to write (report.html)")
        parser.add_argument("--truth", metavar="FILE", help="score the stored journals against this truth.json")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Read the database (and truth), write the page."""
        if args:
            raise UsageError("scrapy report takes no positional arguments")
        truth = None
        if opts.truth:
            try:
                truth = json.loads(Path(opts.truth).read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise UsageError(f"cannot read the truth: {error}") from None
        try:
            engine = open_database(database_url(self.settings), must_exist=True)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        # Imported here, not with the module: Scrapy imports every command's module for every command.
        from journals.extraction.evaluation import evaluate
        from journals.report import read_summary, render_report
        from journals.store.table_io import read_history

        summary = read_summary(engine)
        history = read_history(engine)
        engine.dispose()
        quality = evaluate(truth, summary.items, sorted(summary.journals_per_source)) if truth else None
        Path(opts.output).write_text(render_report(summary, quality, history=history), encoding="utf-8")
        journals = sum(summary.journals_per_source.values())
        print(f"report written to {opts.output}: {len(summary.journals_per_source)} sources, {journals} journals")
