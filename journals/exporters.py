"""Feed exporters and storage: a CSV that spreadsheets open safely and that keeps nested fields readable, and feed
files that are replaced only by a finished crawl's."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Self
from urllib.parse import unquote, urlsplit

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.exporters import BaseItemExporter, CsvItemExporter, JsonItemExporter, JsonLinesItemExporter
from scrapy.extensions.feedexport import FileFeedStorage
from scrapy.item import Field
from scrapy.settings import BaseSettings
from scrapy.utils.conf import feed_complete_default_values_from_settings
from scrapy.utils.misc import load_object
from scrapy.utils.python import without_none_values

from journals.csv_cells import defuse_formula
from journals.extensions.interruption import crawl_interrupted
from journals.items import JournalItem
from journals.vocabulary import metric_names

logger = logging.getLogger(__name__)

TEMPORARY_SUFFIX = ".tmp"
"""Suffix of the file a feed is written to until the crawl ends (``journals.csv.tmp``)."""

YEAR_SUFFIX = "_year"
"""A metric's year is exported in a column of its own: ``impact_factor_year`` beside ``impact_factor``."""


def metric_year_fields() -> list[str]:
    """The export's year columns, one per metric (``impact_factor_year``…), in the vocabulary's order."""
    return [f"{name}{YEAR_SUFFIX}" for name in metric_names()]


def with_metric_years(item: Any) -> Any:
    """A journal item as exported: its fields and, per metric whose year the page wrote, ``<metric>_year``
    (from the item's provenance, which is not exported itself). Anything else is returned as it is."""
    if not isinstance(item, JournalItem):
        return item
    years = {
        f"{name}{YEAR_SUFFIX}": year
        for name in metric_names()
        if isinstance(year := (item.provenance.get(name) or {}).get("year"), int)
    }
    if not years:
        return item
    return ItemAdapter(item).asdict() | years


class MetricYearsJsonItemExporter(JsonItemExporter):
    """Scrapy's JSON exporter with each metric's year (:func:`with_metric_years`)."""

    def export_item(self, item: Any) -> None:
        """Write ``item`` with its metric years."""
        super().export_item(with_metric_years(item))


class MetricYearsJsonLinesItemExporter(JsonLinesItemExporter):
    """Scrapy's JSON-lines exporter with each metric's year (:func:`with_metric_years`)."""

    def export_item(self, item: Any) -> None:
        """Write ``item`` with its metric years."""
        super().export_item(with_metric_years(item))


class FlatCsvItemExporter(CsvItemExporter):
    """``CsvItemExporter`` writing lists and dicts as compact JSON and defusing formula-like text cells.

    A text cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading ``'`` so that
    spreadsheets show it instead of evaluating it; numbers (``-1.5``, or the text ``"-1.5"``) are left alone.
    Booleans are ``true``/``false``, as in JSON. A serializer declared on a field still wins. Each metric's year
    is a column of its own (:func:`with_metric_years`).
    """

    def export_item(self, item: Any) -> None:
        """Write ``item``'s row, metric years included."""
        super().export_item(with_metric_years(item))

    def serialize_field(self, field: Mapping[str, Any] | Field, name: str, value: Any) -> Any:
        """The cell for ``value``: the field's own serializer if any, else JSON or defused text."""
        if "serializer" in field:
            return field["serializer"](value)
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (Mapping, list, tuple)):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        if isinstance(value, str):
            return defuse_formula(value)
        return value


class AtomicFileFeedStorage(FileFeedStorage):
    """A local feed file written to ``PATH.tmp`` and moved into place only when the crawl finishes.

    Scrapy's own file storage writes the final file as items come, so ``-O journals.csv`` truncates yesterday's
    complete table at the first item, and a crawl stopped half-way (Ctrl-C, a killed job) leaves half a table in
    its place. Here the previous file stays whole until the new one is complete: at the end of a finished crawl
    the temporary file replaces it in one ``os.replace`` (atomic on one file system, so a reader sees the old
    file or the new one, never a mixture); an interrupted crawl
    (:func:`~journals.extensions.interruption.crawl_interrupted`) deletes its temporary file and says so. ``-o``
    (append) copies the previous file first and appends to the copy.
    """

    def __init__(self, uri: str, *, feed_options: dict[str, Any] | None = None, crawler: Crawler | None = None):
        """The storage of ``uri`` (a path or ``file://`` URI); ``crawler`` tells whether the crawl finished."""
        super().__init__(uri, feed_options=feed_options)
        self.crawler = crawler
        self.temporary = Path(f"{self.path}{TEMPORARY_SUFFIX}")

    @classmethod
    def from_crawler(cls, crawler: Crawler, uri: str, *, feed_options: dict[str, Any] | None = None) -> Self:
        """The storage of ``uri`` for ``crawler``'s crawl (how the feed exporter builds it)."""
        return cls(uri, feed_options=feed_options, crawler=crawler)

    def open(self, spider: Spider) -> IO[bytes]:
        """Open the temporary file (a copy of the previous file when appending), its folder made if missing."""
        self.temporary.parent.mkdir(parents=True, exist_ok=True)
        if self.write_mode == "ab" and Path(self.path).exists():
            shutil.copyfile(self.path, self.temporary)
        return self.temporary.open(self.write_mode)

    def store(self, file: IO[bytes]) -> None:
        """Close the file, then move it into place, or delete it when the crawl was interrupted."""
        file.close()
        if self.crawler is not None and crawl_interrupted(self.crawler):
            self.temporary.unlink(missing_ok=True)
            kept = "kept as it was" if Path(self.path).exists() else "not written"
            logger.warning("Crawl interrupted: feed %s %s (the partial feed is discarded)", self.path, kept)
            return
        os.replace(self.temporary, self.path)


def local_feed_path(uri: str) -> Path | None:
    """The file a feed URI names on this machine (a path or a ``file://`` URI); None for a remote storage (S3,
    FTP…) or a URI whose path Scrapy fills in at run time (``%(name)s``, ``%(time)s``)."""
    if "%(" in uri:
        return None
    parts = urlsplit(uri)
    if parts.scheme == "file":
        return Path(unquote(parts.path))
    if parts.scheme and len(parts.scheme) > 1:  # a one-letter scheme is a Windows drive
        return None
    return Path(uri)


def feed_path_problem(path: Path) -> str | None:
    """Why a feed cannot be written to ``path``, as a short reason; None when it can.

    The feed is written beside ``path`` (``PATH.tmp``, then moved into place), so the check makes the missing
    folders as the feed storage would and creates, then deletes, a file in the folder: a parent that is a file, a
    folder that refuses files (``/proc``, read-only or not ours) or a ``path`` that is a folder is found before
    the crawl starts rather than by every item's write.
    """
    if path.is_dir():
        return f"{path} is a folder, not a file"
    folder = path.parent
    in_the_way = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if in_the_way is not None:
        return f"{in_the_way} is a file, not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as error:
        return f"no file can be created in {folder} ({error.strerror or type(error).__name__})"
    os.close(handle)
    os.unlink(probe)
    return None


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


def write_rows(rows: Iterable[Mapping[str, Any]], path: Path, fields: Sequence[str], settings: BaseSettings) -> None:
    """Write ``rows`` (only ``fields``, in order) to ``path`` with the exporter and feed options a crawl's
    ``-O path`` would use, through ``path.tmp`` moved into place when complete: whatever stops the writing
    leaves the previous file as it was and no temporary file behind."""
    exporter_class = exporter_for(path, settings)
    options = feed_complete_default_values_from_settings({"fields": list(fields)}, settings, str(path))
    temporary = Path(f"{path}{TEMPORARY_SUFFIX}")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with temporary.open("wb") as out:
            exporter = exporter_class(
                out,
                fields_to_export=options["fields"],
                encoding=options["encoding"],
                indent=options["indent"],
                **options["item_export_kwargs"],
            )
            exporter.start_exporting()
            for row in rows:
                exporter.export_item({name: row.get(name) for name in fields})
            exporter.finish_exporting()
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
