"""The year a metric is for: "Impact factor 1,630 (2024)", "2023 CiteScore: 5.1", "Impact Factor (2024): 4.117".

A metric without its year is half a fact: a researcher comparing journals must know which year's figure each value
is, and a figure read next year must not pass for this year's. The value parsers read the number and leave the
year out (a year is never the value), so the year is read here, after the value was found, from the text around
the node the value was read from: the node's own text ("4.117 (2024)"), then the label before it ("Impact Factor
(2024)" in a ``dt`` or ``th``), then a short row holding both ("<strong>3.580</strong> Impact factor 2024"). A
year further away (a copyright line, "founded 1998", another panel), inside an ISSN ("1998-2054") or in the future
is not this metric's. Pure: an lxml tree in, a year or None out.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

from lxml import etree

ROW_CHARS = 160
"""Longest text of a parent element read as the metric's row (label and value together); longer is a panel."""
ROW_CHILDREN = 2
"""Most elements a parent may hold to be read as the metric's row: its label and its value, no more (a ``dl`` of
every metric holds the ISSN "1998-2054" too)."""
YEAR = re.compile(r"(?<![\d.,\-–/])(19[5-9]\d|20\d\d)(?![\d\-–/]|[.,]\d)")
"""A year standing alone: not part of an ISSN ("1998-2054"), a range, a date or a decimal."""
_TEXTS = etree.XPath(".//text()[not(parent::script or parent::style)]")
_FUNCTION = re.compile(r"(?:normalize-space|substring-after|substring-before|substring|string|translate)\(")


def metric_year(root: etree._Element, xpath: str | None) -> int | None:
    """The year written with the value that ``xpath`` read on ``root`` (a learned rule, possibly wrapped in
    ``normalize-space(...)``), or None when none is written beside it."""
    node = _value_node(root, xpath)
    if node is None:
        return None
    latest = datetime.now(UTC).year
    for text in _nearby_texts(node):
        years = [year for match in YEAR.finditer(text) if (year := int(match[1])) <= latest]
        if years:
            return max(years)
    return None


def _value_node(root: etree._Element, xpath: str | None) -> etree._Element | None:
    """The element the rule read (a text node's parent), or None when the rule reads no element."""
    if not xpath:
        return None
    try:
        found = _compiled(_node_set(xpath))(root)
    except (etree.XPathError, ValueError):
        return None
    first = found[0] if isinstance(found, list) and found else None
    if isinstance(first, etree._ElementUnicodeResult):
        first = first.getparent()
    return first if isinstance(first, etree._Element) else None


@lru_cache(maxsize=4096)
def _compiled(xpath: str) -> etree.XPath:
    """A rule's node-set compiled once: a template's rules read every page of the template."""
    return etree.XPath(xpath)


@lru_cache(maxsize=4096)
def _node_set(xpath: str) -> str:
    """The node-set a rule reads: the first argument of its string functions, unwrapped
    (``substring-after((/html/body/p/text())[1], 'CiteScore')`` → ``(/html/body/p/text())[1]``)."""
    while (match := _FUNCTION.match(xpath)) is not None:
        depth, quote = 0, ""
        for index in range(match.end(), len(xpath)):
            char = xpath[index]
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")" and depth:
                depth -= 1
            elif char in ",)" and not depth:
                xpath = xpath[match.end() : index]
                break
        else:
            return xpath
    return xpath


def _nearby_texts(node: etree._Element) -> list[str]:
    """The value's own text, its label (the element before it), and its row when short."""
    texts = [_text(node)]
    previous = node.getprevious()
    if previous is not None:
        texts.append(_text(previous))
    parent = node.getparent()
    if parent is not None and len(parent) <= ROW_CHILDREN and len(row := _text(parent)) <= ROW_CHARS:
        texts.append(row)
    return texts


def _text(node: etree._Element) -> str:
    """Every text under ``node``, comments and scripts left out."""
    return " ".join(t for t in _TEXTS(node) if isinstance(t, str))
