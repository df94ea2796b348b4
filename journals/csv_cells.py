"""CSV cells that spreadsheets open safely: a text cell that a spreadsheet would run as a formula is shown, not run.

A title is data and is stored as the page shows it (``=HYPERLINK(…)``, ``-2+3+cmd|' /C calc'!A0``); only where it
is displayed does it get escaped, and a CSV cell is displayed by a spreadsheet. The project's CSV feeds
(:mod:`journals.exporters`) and Datasette's CSV export (:mod:`journals.datasette_plugins.csv_formulas`) both defuse
their cells here. Pure: no Scrapy, no Datasette.
"""

from __future__ import annotations

import codecs
import csv
import io
import re

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection")."""

_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def defuse_formula(text: str) -> str:
    """``text`` prefixed with ``'`` when a spreadsheet would take it for a formula, else unchanged; numbers
    (``-1.5``) are left alone."""
    if text.startswith(FORMULA_PREFIXES) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class DefusedCsvStream:
    """A UTF-8 CSV stream rewritten record by record with every cell defused (:func:`defuse_formula`).

    Fed the stream's chunks as they come, it gives back the complete records among them, rewritten, and keeps a
    record cut between two chunks until its end arrives: a record ends at a line break outside quotes.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""

    def feed(self, chunk: bytes, final: bool = False) -> bytes:
        """The rewritten records that ``chunk`` completes; with ``final``, whatever is left too."""
        text = self._pending + self._decoder.decode(chunk, final)
        end = complete_records_end(text)
        records, self._pending = text[:end], text[end:]
        if final:
            records, self._pending = records + self._pending, ""
        return rewritten(records).encode("utf-8") if records else b""


def complete_records_end(text: str) -> int:
    """Where the last complete record of CSV ``text`` ends (after its line break); 0 when none is complete."""
    end = 0
    quotes = 0
    start = 0
    while (newline := text.find("\n", start)) >= 0:
        quotes += text.count('"', start, newline)
        start = newline + 1
        if quotes % 2 == 0:
            end = start
    return end


def rewritten(records: str) -> str:
    """CSV ``records`` written again with every cell defused, in the same dialect as Python's default writer."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in csv.reader(io.StringIO(records, newline="")):
        writer.writerow([defuse_formula(cell) for cell in row])
    if not records.endswith("\n"):  # an unfinished last line stays unfinished
        return out.getvalue().removesuffix("\r\n")
    return out.getvalue()
