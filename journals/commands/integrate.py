"""``scrapy integrate [-O integrated.csv|json|jsonl] [--truth truth.json]``: integrate the crawled sources.

Reads every source's attribute rows (and, for label-less sources, their cached pages) from ``DATABASE_URL``,
links journals, maps attributes, fuses values, writes ``integrated_journals``, ``integrated_members``,
``integrated_values`` and ``mappings`` back, exports one row per journal and prints a summary.

The export goes through the item exporter that a crawl's feed would use for the same file extension
(``FEED_EXPORTERS`` over ``FEED_EXPORTERS_BASE``), so ``.csv`` gets the project's formula-defusing
:class:`~journals.exporters.FlatCsvItemExporter`, and ``.json``/``.jsonl`` Scrapy's JSON exporters.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.exporters import BaseItemExporter
from scrapy.settings import BaseSettings
from scrapy.utils.conf import feed_complete_default_values_from_settings
from scrapy.utils.misc import load_object
from scrapy.utils.python import without_none_values

from journals.exporters import feed_path_problem
from journals.integration.crawled import integration_inputs, integration_rows
from journals.integration.evaluation import EVALUATED, evaluate, label_vocabulary
from journals.integration.fusion import conflicts
from journals.integration.integrator import Integrated, integrate
from journals.store import DatabaseError, database_url, open_database
from journals.store.integration_io import cached_pages, crawled_rows, save_integration
from journals.vocabulary import metric_names

METRIC_YEAR_FIELDS = tuple(f"{name}_year" for name in metric_names())
"""The fused metrics' years, a column each (``impact_factor_year``…), as in the crawl's feeds."""
EXPORT_FIELDS = ("title", *EVALUATED, *METRIC_YEAR_FIELDS, "sources")
"""The exported columns: the crawl's item fields, plus the sources listing the journal."""


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
        journals, values = crawled_rows(engine)
        inputs = integration_inputs(journals, values, label_vocabulary(), partial(cached_pages, engine))
        result = integrate(inputs.records, inputs.attributes)
        rows = integration_rows(result, inputs.journal_ids)
        save_integration(engine, rows.journals, rows.members, rows.values, rows.mappings)
        engine.dispose()
        if opts.output:
            export(table_rows(result), Path(opts.output), self.settings)
        print(summary(result, inputs.candidate_sources))
        if opts.truth:
            truth = json.loads(Path(opts.truth).read_text(encoding="utf-8"))
            json.dump(evaluate(result, truth), sys.stdout, indent=2, sort_keys=True)
            print()


def table_rows(result: Integrated) -> list[dict[str, Any]]:
    """One flat row per integrated journal with the crawl's field names."""
    rows = []
    for journal, sources in result.sources.items():
        row: dict[str, Any] = {"title": result.titles.get(journal), "sources": ";".join(sources)}
        for name in EVALUATED:
            fused = result.fusion.values.get((journal, name))
            row[name] = None if fused is None else (fused.number if fused.number is not None else fused.text)
            if fused is not None and f"{name}_year" in METRIC_YEAR_FIELDS:
                row[f"{name}_year"] = fused.year
        rows.append({field: row.get(field) for field in EXPORT_FIELDS})
    return rows


def exporter_for(path: Path, settings: BaseSettings) -> type[BaseItemExporter]:
    """The item exporter class a crawl's feed would use for ``path``'s extension; else a one-line UsageError.

    Formats come from ``FEED_EXPORTERS`` merged over ``FEED_EXPORTERS_BASE``, as Scrapy's feed exports read them.
    """
    exporters = without_none_values(settings.getwithbase("FEED_EXPORTERS"))
    extension = path.suffix.removeprefix(".")
    if extension not in exporters:
        known = ", ".join(f".{name}" for name in sorted(exporters))
        raise UsageError(
            f"-O {path.name}: no exporter for {path.suffix or 'a file without extension'}; use one of {known}",
            print_help=False,
        )
    return load_object(exporters[extension])


def export(rows: list[dict[str, Any]], path: Path, settings: BaseSettings) -> None:
    """Write ``rows`` to ``path`` (overwritten) with the exporter and feed options a crawl's ``-O path`` would use.

    The exporter is built directly rather than by Scrapy's ``FeedExporter``, which only runs inside a crawl;
    its options (fields, encoding, indent) come from Scrapy's own feed defaults for the same settings.
    """
    exporter_class = exporter_for(path, settings)
    options = feed_complete_default_values_from_settings({"fields": list(EXPORT_FIELDS)}, settings, str(path))
    with path.open("wb") as out:
        exporter = exporter_class(
            out,
            fields_to_export=options["fields"],
            encoding=options["encoding"],
            indent=options["indent"],
            **options["item_export_kwargs"],
        )
        exporter.start_exporting()
        for row in rows:
            exporter.export_item(row)
        exporter.finish_exporting()


def summary(result: Integrated, candidate_sources: list[str]) -> str:
    """The short report: sources, journals linked, mappings found, conflicts resolved."""
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
