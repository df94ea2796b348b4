"""The flat CSV exporter: nested fields as JSON, formula-like text defused, numbers untouched; the feed storage: a
feed replaced only by a finished crawl's."""

from __future__ import annotations

import csv
import io
import json

import pytest
from scrapy import Spider
from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.exporters import FlatCsvItemExporter, defuse_formula
from journals.items import JournalItem
from settings.default import FEED_EXPORT_FIELDS, FEED_EXPORTERS, FEED_STORAGES


def export(items, **kwargs):
    """The CSV rows the exporter writes for ``items``, header first."""
    buffer = io.BytesIO()
    exporter = FlatCsvItemExporter(buffer, fields_to_export=FEED_EXPORT_FIELDS, **kwargs)
    exporter.start_exporting()
    for item in items:
        exporter.export_item(item)
    exporter.finish_exporting()
    return list(csv.reader(io.StringIO(buffer.getvalue().decode("utf-8"))))


def test_nested_fields_are_compact_json_and_provenance_is_not_exported():
    item = JournalItem(
        source="nature",
        url="https://example.org/nature",
        title="Nature",
        impact_factor=48.5,
        attributes={"subject": ["Physics", "Biology"], "open_access": False, "apc": {"EUR": 9750}},
        provenance={"title": {"raw": "secret"}},
    )
    header, row = export([item])
    assert header == FEED_EXPORT_FIELDS
    cells = dict(zip(header, row, strict=True))
    assert json.loads(cells["attributes"]) == item.attributes
    assert cells["attributes"] == '{"subject":["Physics","Biology"],"open_access":false,"apc":{"EUR":9750}}'
    assert cells["impact_factor"] == "48.5"
    assert cells["issn"] == ""
    assert "secret" not in ",".join(row)


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+2", "'=1+2"),
        ('=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'),
        ("+44 20 7946 0000", "'+44 20 7946 0000"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),
        ("-1.5", "-1.5"),
        ("+3", "+3"),
        ("Nature", "Nature"),
        ("", ""),
        ("1-2", "1-2"),
    ],
)
def test_formula_like_text_is_defused(text, cell):
    assert defuse_formula(text) == cell
    _, row = export([JournalItem(source="s", url="u", editor_in_chief=text)])
    assert row[FEED_EXPORT_FIELDS.index("editor_in_chief")] == cell


def test_negative_numbers_are_not_defused():
    _, row = export([JournalItem(source="s", url="u", impact_factor=-1.5, sjr=-0.0)])
    assert row[FEED_EXPORT_FIELDS.index("impact_factor")] == "-1.5"
    assert row[FEED_EXPORT_FIELDS.index("sjr")] == "-0.0"


class ItemsSpider(Spider):
    """Yields a few journal items and fetches nothing."""

    name = "items"

    async def start(self):
        """Two items, one of them hostile."""
        yield JournalItem(source="s", url="https://a", title="=cmd|' /C calc'!A0", attributes={"h_index": 3})
        yield JournalItem(source="s", url="https://b", title="Plain", citescore=-2.0)


@deferred_f_from_coro_f
async def test_csv_feed_uses_the_flat_exporter(tmp_path):
    out = tmp_path / "journals.csv"
    crawler = get_crawler(
        ItemsSpider,
        {
            "FEEDS": {str(out): {"format": "csv"}},
            "FEED_EXPORTERS": FEED_EXPORTERS,
            "FEED_EXPORT_FIELDS": FEED_EXPORT_FIELDS,
        },
    )
    await crawler.crawl_async()
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [row["url"] for row in rows] == ["https://a", "https://b"]
    assert rows[0]["title"] == "'=cmd|' /C calc'!A0"
    assert rows[0]["attributes"] == '{"h_index":3}'
    assert rows[1]["citescore"] == "-2.0"


class CancelledSpider(ItemsSpider):
    """Yields its items, then is closed before its end (``CloseSpider`` without a reason: ``cancelled``)."""

    name = "cancelled"

    async def start(self):
        """The two items, then the close."""
        async for item in super().start():
            yield item
        raise CloseSpider()


def feed_crawler(spider, out, **options):
    """A crawler of ``spider`` writing a JSON-lines feed to ``out`` through the project's feed storages."""
    return get_crawler(
        spider,
        {
            "FEEDS": {str(out): {"format": "jsonlines", **options}},
            "FEED_STORAGES": FEED_STORAGES,
            "EXTENSIONS": {"journals.extensions.interruption.InterruptionExtension": 515},
        },
    )


@deferred_f_from_coro_f
async def test_a_finished_crawl_replaces_its_feed_and_an_interrupted_one_keeps_the_previous(tmp_path):
    out = tmp_path / "feeds" / "journals.jsonl"
    await feed_crawler(ItemsSpider, out, overwrite=True).crawl_async()
    finished = out.read_text(encoding="utf-8")
    assert [json.loads(line)["url"] for line in finished.splitlines()] == ["https://a", "https://b"]
    crawler = feed_crawler(CancelledSpider, out, overwrite=True)
    await crawler.crawl_async()
    assert crawler.stats.get_value("finish_reason") == "cancelled"
    assert crawler.stats.get_value("crawl/interrupted") == "cancelled"
    assert out.read_text(encoding="utf-8") == finished
    assert list(out.parent.iterdir()) == [out]  # no temporary file left


@deferred_f_from_coro_f
async def test_an_appended_feed_is_the_previous_file_and_the_new_items(tmp_path):
    out = tmp_path / "journals.jsonl"
    out.write_text('{"url": "https://old"}\n', encoding="utf-8")
    await feed_crawler(ItemsSpider, out, overwrite=False).crawl_async()
    urls = [json.loads(line)["url"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert urls == ["https://old", "https://a", "https://b"]


def test_each_metrics_year_is_a_column_of_its_own():
    item = JournalItem(
        source="s", url="u", impact_factor=1.63, sjr=0.5, provenance={"impact_factor": {"raw": "1,630", "year": 2024}}
    )
    header, row = export([item])
    cells = dict(zip(header, row, strict=True))
    assert (cells["impact_factor"], cells["impact_factor_year"]) == ("1.63", "2024")
    assert (cells["sjr"], cells["sjr_year"]) == ("0.5", "")
    assert header.index("impact_factor_year") > header.index("editor_in_chief")


@deferred_f_from_coro_f
async def test_json_feeds_carry_the_metric_years(tmp_path):
    out = tmp_path / "journals.json"

    class YearSpider(Spider):
        """One journal whose impact factor is 2024's."""

        name = "year"

        async def start(self):
            """The journal."""
            yield JournalItem(source="s", url="u", impact_factor=1.63, provenance={"impact_factor": {"year": 2024}})

    crawler = get_crawler(
        YearSpider,
        {
            "FEEDS": {str(out): {"format": "json"}},
            "FEED_EXPORTERS": FEED_EXPORTERS,
            "FEED_EXPORT_FIELDS": FEED_EXPORT_FIELDS,
        },
    )
    await crawler.crawl_async()
    (exported,) = json.loads(out.read_text(encoding="utf-8"))
    assert (exported["impact_factor"], exported["impact_factor_year"]) == (1.63, 2024)
    assert "provenance" not in exported
