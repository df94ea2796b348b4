"""``scrapy mdr PAGE_OR_URL``: the data regions and records MDR finds on one page, best first."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.commands.pages import load_page
from journals.mdr import DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD, DataRegion, mine_data_regions


class Command(ScrapyCommand):
    """Mine a page file or URL and print its regions, readable or as one JSON object."""

    requires_project = False
    # Outside a project (no settings/default.py) the MDR settings are the algorithm's own values.
    default_settings: ClassVar[dict[str, Any]] = {
        "LOG_ENABLED": False,
        "MDR_MAX_NODE_LENGTH": DEFAULT_MAX_NODE_LENGTH,
        "MDR_THRESHOLD": DEFAULT_THRESHOLD,
    }

    def syntax(self) -> str:
        """Usage line."""
        return f"PAGE_OR_URL [--json] [--k {DEFAULT_MAX_NODE_LENGTH}] [--threshold {DEFAULT_THRESHOLD}]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Mine the data regions and records of a page (MDR)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--json``, ``--k``, ``--threshold`` (defaults: MDR_MAX_NODE_LENGTH, MDR_THRESHOLD), ``--navigation``."""
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print one JSON object: {\"regions\": [...]}")
        parser.add_argument("--k", type=int, default=None, help="most nodes in a generalized node")
        parser.add_argument("--threshold", type=float, default=None, help="most normalised edit distance")
        parser.add_argument("--navigation", action="store_true", help="also report the regions inside <nav>")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Read the page, mine it, print the regions."""
        if len(args) != 1:
            raise UsageError("scrapy mdr takes exactly one PAGE_OR_URL")
        settings = self.settings
        k = opts.k if opts.k is not None else settings.getint("MDR_MAX_NODE_LENGTH")
        threshold = opts.threshold if opts.threshold is not None else settings.getfloat("MDR_THRESHOLD")
        if k < 1 or not 0 <= threshold < 1:
            raise UsageError("--k must be at least 1 and --threshold in [0, 1)")
        regions = mine_data_regions(load_page(args[0]), k, threshold, navigation=opts.navigation)
        if opts.json:
            print(json.dumps({"regions": [asdict(region) for region in regions]}, ensure_ascii=False))
        else:
            print(describe(regions))


def describe(regions: list[DataRegion], width: int = 100) -> str:
    """A readable listing: one paragraph per region, one line per record (text cut to ``width``)."""
    if not regions:
        return "No data regions."
    lines: list[str] = []
    for rank, region in enumerate(regions, 1):
        lines.append(
            f"Region {rank}: {region.parent} k={region.k} start={region.start} count={region.count} "
            f"score={region.score:g}, {len(region.records)} records"
        )
        for number, record in enumerate(region.records, 1):
            text = record.text if len(record.text) <= width else record.text[: width - 1] + "…"
            lines.append(f"  {number:>3}. {text}")
            lines.extend(f"       {xpath}" for xpath in record.xpaths)
        lines.append("")
    return "\n".join(lines).rstrip()
