"""Keyword/XPath extraction of journal attributes, learning each page template once (pure: no Scrapy, no SQL)."""

from journals.extraction.extract import Extraction, Found, PageExtraction, extract_journal, extract_page
from journals.extraction.templates import LearnedRules, template_signature

__all__ = [
    "Extraction",
    "Found",
    "LearnedRules",
    "PageExtraction",
    "extract_journal",
    "extract_page",
    "template_signature",
]
