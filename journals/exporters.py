"""Feed exporters: a CSV that spreadsheets open safely and that keeps nested fields readable."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from scrapy.exporters import CsvItemExporter
from scrapy.item import Field

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection")."""

_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


class FlatCsvItemExporter(CsvItemExporter):
    """``CsvItemExporter`` writing lists and dicts as compact JSON and defusing formula-like text cells.

    A text cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading ``'`` so that
    spreadsheets show it instead of evaluating it; numbers (``-1.5``, or the text ``"-1.5"``) are left alone.
    A serializer declared on a field still wins.
    """

    def serialize_field(self, field: Mapping[str, Any] | Field, name: str, value: Any) -> Any:
        """The cell for ``value``: the field's own serializer if any, else JSON or defused text."""
        if "serializer" in field:
            return field["serializer"](value)
        if isinstance(value, (Mapping, list, tuple)):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        if isinstance(value, str):
            return defuse_formula(value)
        return value


def defuse_formula(text: str) -> str:
    """``text`` prefixed with ``'`` when a spreadsheet would take it for a formula, else unchanged."""
    if text.startswith(FORMULA_PREFIXES) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text
