"""``scrapy report``: one self-contained HTML page about a crawl: its stats, its quality, its metrics' spread."""

from journals.report.page import render_report
from journals.report.stats import CrawlSummary, read_summary

__all__ = ["CrawlSummary", "read_summary", "render_report"]
