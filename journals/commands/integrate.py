"""``scrapy integrate [-O integrated.csv|json|jsonl] [--truth truth.json]``: integrate the crawled sources.

Reads every source's attribute rows (and, for label-less sources, their cached pages) from ``DATABASE_URL``,
links journals, maps attributes, fuses values, writes ``integrated_journals``, ``integrated_members``,
``integrated_values`` and ``mappings`` back and prints a summary. ``-O`` writes the journals table made from
this integration, as ``scrapy export`` does (one row per journal under its stable key, every attribute and each
metric's year a column: :mod:`journals.table.columns`), through the item exporter a crawl's feed would use for the
same file extension (:func:`journals.exporters.write_rows`).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.exporters import exporter_for, feed_path_problem, write_rows
from journals.store import DatabaseError, database_url, open_database
from journals.table.columns import table_columns

if TYPE_CHECKING:
    from journals.integration.integrator import Integrated


class Command(ScrapyCommand):
    """Integrate the crawled sources in the database and export the integrated table."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """Usage line."""
        return "[-O integrated.csv|integrated.json|integrated.jsonl] [--truth truth.json]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Link journals across sources, map their attributes, fuse conflicting values"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``-O`` export file and ``--truth`` sandbox truth to score against."""
        super().add_options(parser)
        parser.add_argument(
            "-O",
            "--output",
            dest="output",
            help="export the integrated table (.csv, .json, .jsonl: any format of FEED_EXPORTERS)",
        )
        parser.add_argument("--truth", help="score against a sandbox truth.json and print the figures")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Load, integrate, store, export, summarise."""
        if args:
            raise UsageError("scrapy integrate takes no positional arguments")
        if opts.output:
            exporter_for(Path(opts.output), self.settings)  # an unknown extension fails before any work
            if (problem := feed_path_problem(Path(opts.output))) is not None:
                raise UsageError(f"cannot write -O {opts.output}: {problem}", print_help=False)
        try:
            engine = open_database(database_url(self.settings), must_exist=True)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
        # Imported here, not with the module: Scrapy imports every command's module for every command.
        from journals.integration.crawled import integration_inputs, integration_rows
        from journals.integration.evaluation import evaluate, label_vocabulary
        from journals.integration.integrator import integrate
        from journals.journal_table import latest_table
        from journals.store.integration_io import cached_pages, crawled_rows, save_integration

        journals, values = crawled_rows(engine)
        inputs = integration_inputs(journals, values, label_vocabulary(), partial(cached_pages, engine))
        result = integrate(inputs.records, inputs.attributes)
        rows = integration_rows(result, inputs.journal_ids)
        save_integration(engine, rows.journals, rows.members, rows.values, rows.mappings)
        try:
            table = latest_table(engine) if opts.output else None
        finally:
            engine.dispose()
        if table is not None:
            write_rows(table.rows, Path(opts.output), table_columns(), self.settings)
        print(summary(result, inputs.candidate_sources))
        if opts.truth:
            truth = json.loads(Path(opts.truth).read_text(encoding="utf-8"))
            json.dump(evaluate(result, truth), sys.stdout, indent=2, sort_keys=True)
            print()


def summary(result: Integrated, candidate_sources: list[str]) -> str:
    """The short report: sources, journals linked, mappings found, conflicts resolved."""
    from journals.integration.fusion import conflicts

    sources = sorted({a.source for a in result.attributes.values()} | {s for v in result.sources.values() for s in v})
    linked = sum(len(keys) > 1 for keys in result.linkage.clusters)
    lines = [
        f"sources: {len(sources)} ({', '.join(sources)}); candidate rules for: {', '.join(candidate_sources) or '-'}",
        f"journals: {len(result.linkage.clusters)}, linked across sources: {linked} "
        f"(ISSN links {result.linkage.counts['issn_links']}, title links {result.linkage.counts['title_links']})",
        f"mappings: {len(result.conceptual)} ({len(result.integration.mappings)} by values); "
        f"weak rules dropped: {len(result.extraction.weak)}",
        f"conflicts resolved: {conflicts(result.fusion.values.values())} of {len(result.fusion.values)} values",
    ]
    for concept, members in sorted(result.conceptual.items()):
        lines.append(f"  {concept} <- {', '.join(sorted(members))}")
    return "\n".join(lines)
