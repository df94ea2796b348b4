"""``scrapy extract PAGE_OR_URL [--json]``: the attribute-value pairs of one page, with XPath and method."""

from __future__ import annotations

import argparse
import json
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from journals.commands.pages import load_page
from journals.extraction import LearnedRules, extract_journal
from journals.items import FetchedPage


class Command(ScrapyCommand):
    """Extract one journal page (a file or a URL) and print what was found."""

    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        """Usage line."""
        return "PAGE_OR_URL [--json] [--role home|metrics]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Print the journal attributes found on one page, each with its XPath and method"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """The command's options."""
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
        parser.add_argument(
            "--role", default="home", choices=("home", "metrics"), help="home pages also yield the title"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Load the page, extract, print."""
        if len(args) != 1:
            raise UsageError("give exactly one page: a file path or an http(s) URL")
        target = args[0]
        page = load_page(target)
        extraction = extract_journal(
            [FetchedPage(url=target, html=page.text, role=opts.role)], LearnedRules(), parsed={target: page}
        )
        found = {
            name: {"value": f.value, "raw": f.raw, "year": f.year, "xpath": f.xpath, "method": f.method}
            for name, f in extraction.values.items()
        }
        if opts.json:
            print(json.dumps(found, ensure_ascii=False, indent=2))
            return
        for name, entry in found.items():
            print(f"{name:<24} {entry['value']!s:<30} {entry['method']:<10} {entry['xpath']}")
