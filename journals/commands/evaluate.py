"""``scrapy evaluate --truth truth.json ITEMS [--plot report.png]``: the paper's Table 3 for a crawl.

Without ``--site``, the sites scored are those the items come from: a truth holds every sandbox site, a crawl
(``make crawl``) visits some of them, and one never visited would count as found by nothing."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.extraction.evaluation import evaluate, format_table, read_items


def crawled_sites(truth: dict[str, Any], items: list[dict[str, Any]]) -> list[str]:
    """The truth's sites that gave at least one item: a site the crawl never visited is no site it failed on."""
    sources = {str(item.get("source")) for item in items}
    return [site for site in truth["sites"] if site in sources]


class Command(ScrapyCommand):
    """Score a crawl's items against the sandbox truth: precision, recall, F1 per site and attribute."""

    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        """Usage line."""
        return "--truth truth.json ITEMS [--site NAME ...] [--plot report.png]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Precision, recall and F1 per site and attribute of a crawl's items against the truth"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """The evaluation's options."""
        super().add_options(parser)
        parser.add_argument("--truth", required=True, metavar="FILE", help="truth JSON (scrapy sandbox --truth)")
        parser.add_argument("--site", action="append", metavar="NAME", help="score only this site (repeatable)")
        parser.add_argument("--plot", metavar="PNG", help="draw precision, recall and F1 as a bar chart")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Read truth and items, print the table, optionally draw it."""
        if len(args) != 1:
            raise UsageError("give exactly one ITEMS file (JSON lines, JSON or CSV)")
        try:
            truth = json.loads(Path(opts.truth).read_text(encoding="utf-8"))
            items = read_items(args[0])
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot read input: {error}") from error
        sites = opts.site or crawled_sites(truth, items)
        report = evaluate(truth, items, sites)
        print(format_table(report))
        if not opts.site and (left_out := [site for site in truth["sites"] if site not in sites]):
            print(f"not crawled (no item from them), left out: {', '.join(left_out)}; name one with --site to score it")
        if opts.plot:
            from journals.extraction.plot import plot_report

            plot_report(report, opts.plot)
            print(f"plot written to {opts.plot}")
