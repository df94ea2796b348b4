"""Hostile input for the pure code, as hypothesis strategies, and the fuzz run: ``python -m lab.fuzz``.

The targets are the project's entry points that read page text: the tag tree, MDR, the A–Z navigation, the
extraction heuristics, the value parsers, page decoding and record linkage. A target passes when no exception
escapes it and it returns within its deadline. ``tests/properties/`` runs them with a few examples on every
``make test``; ``make fuzz`` (this module) runs them at scale, ``FUZZ_EXAMPLES`` examples each.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.values import PARSERS
from journals.integration.linkage import link_records
from journals.integration.model import SourceRecord
from journals.items import FetchedPage
from journals.mdr import mine_data_regions
from journals.mdr.tagtree import TagTree
from journals.pages.decoding import decode_html, looks_binary
from journals.pages.navigation import page_links
from journals.pages.parsed import parse_html

TAGS = (
    "html", "head", "body", "title", "meta", "base", "div", "span", "p", "a", "ul", "ol", "li", "dl", "dt", "dd",
    "table", "thead", "tbody", "tr", "th", "td", "h1", "h2", "nav", "header", "footer", "aside", "main", "section",
    "script", "style", "noscript", "template", "svg", "math", "br", "img", "form", "select", "option", "iframe",
)  # fmt: skip
"""Tags the soup is made of: the structure the code looks at, the ones it leaves out and a few void ones."""

PLANE_SAMPLES = (
    *(chr(plane * 0x10000 + offset) for plane in range(17) for offset in (0x0000, 0x0041, 0xFFFD, 0xFFFE, 0xFFFF)),
    *("\x00", "\x01", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\ufeff", "\u202e", "\u200b"),
)
"""One character from the start, the middle and the non-characters at the end of every Unicode plane, and the
control and format characters that break naive parsers (NUL, escape, line separators, BOM, bidi override)."""

ANY_CHARACTER = st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(PLANE_SAMPLES))
"""Any code point a decoded page can hold (lone surrogates cannot come out of a decoder)."""

ANY_TEXT = st.text(ANY_CHARACTER, max_size=200)
"""Arbitrary text: every plane, control characters, NULs."""

VALUE_TEXT = st.one_of(
    ANY_TEXT,
    st.text(st.sampled_from("0123456789.,-–−+ %$€()[]:/ nNaAxX\u00a0\u202f"), max_size=60),
)
"""Text for the value parsers: arbitrary, or made of the characters numbers, ISSNs and amounts are written in."""

_ATTRIBUTE_TEXT = st.text(st.sampled_from("abcxyz/.:?=&#%\"'<> \x00é日\U0001f600"), max_size=20)


@st.composite
def _open_tag(draw: st.DrawFn) -> str:
    tag = draw(st.sampled_from(TAGS))
    attributes = draw(
        st.lists(
            st.tuples(st.sampled_from(("href", "class", "id", "role", "charset", "content", "src")), _ATTRIBUTE_TEXT),
            max_size=3,
        )
    )
    return f"<{tag}" + "".join(f' {name}="{value}"' for name, value in attributes) + ">"


SOUP_PIECES = st.one_of(
    _open_tag(),
    st.sampled_from(TAGS).map(lambda tag: f"</{tag}>"),
    ANY_TEXT,
    st.sampled_from(
        (
            "<!-- comment -->", "<!--", "-->", "<![CDATA[x]]>", "<?php echo 1 ?>", "<!DOCTYPE html>",
            '<?xml version="1.0" encoding="latin-1"?>', "&amp;", "&#0;", "&#x10FFFF;", "&bogus;", "<", ">", "</",
            "Impact Factor: 4,117", "ISSN 0028-0836", "About the journal", "A", "Next ›", "41-80",
            '<a href="/journal/x">Journal of X</a>', "<li><a href='j'>Journal</a> ISSN 1538-4357</li>",
        )
    ),
)  # fmt: skip
"""What tag soup is made of: open tags with attributes, close tags, text, comments, PIs, entities and the
labels and values the heuristics look for."""

TAG_SOUP = st.lists(SOUP_PIECES, max_size=60).map("".join)
"""HTML-ish text: tags opened and closed in any order, text of every plane between them."""


@st.composite
def shaped_page(draw: st.DrawFn, max_size: int = 3000) -> str:
    """A page of a hostile shape: nesting ``n`` deep or ``n`` siblings wide (repeating records), with soup inside."""
    size = draw(st.integers(1, max_size))
    tag = draw(st.sampled_from(("div", "li", "tr", "td", "span", "table", "a", "dl", "p")))
    inner = draw(TAG_SOUP)
    if draw(st.booleans()):
        return f"<html><body>{f'<{tag}>' * size}{inner}{f'</{tag}>' * draw(st.integers(0, size))}</body></html>"
    records = (f'<{tag}><a href="/j/{i}">Journal {inner[:40]}</a> ISSN 0028-0836</{tag}>' for i in range(size))
    return "<html><body><ul>" + "".join(records) + "</ul></body></html>"


def html_text(max_size: int = 3000) -> st.SearchStrategy[str]:
    """Tag soup or a hostile shape, as text."""
    return st.one_of(TAG_SOUP, shaped_page(max_size))


def html_bytes(max_size: int = 3000) -> st.SearchStrategy[bytes]:
    """Page bytes: arbitrary bytes, or HTML-ish text in a charset (with or without BOM) it may not be valid in."""
    encoded = st.tuples(
        html_text(max_size), st.sampled_from(("utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252", "shift_jis"))
    ).map(lambda pair: pair[0].encode(pair[1], errors="replace"))
    return st.one_of(st.binary(max_size=2000), encoded)


BASE_URL = "http://127.0.0.1:8000/site/journals?letter=a"


def tag_tree_target(page: str | bytes) -> None:
    """Build the tag tree and read every node's text and the last node's XPath."""
    root = parse_html(page)
    if root is None:
        return
    tree = TagTree.build(root)
    for node in range(len(tree.elements)):
        tree.text(node)
    tree.xpath(len(tree.elements) - 1)


def mdr_target(page: str | bytes) -> None:
    """Mine the page's data regions."""
    mine_data_regions(page)


def navigation_target(page: str | bytes) -> None:
    """Classify the page's anchors."""
    page_links(page, BASE_URL)


def extraction_target(page: str) -> None:
    """Extract a journal whose home and metrics pages are ``page``, learning from it, then reusing the rules."""
    rules = LearnedRules()
    for _ in range(3):
        pages = [
            FetchedPage(url=BASE_URL, html=page, role="home"),
            FetchedPage(url=BASE_URL + "&about", html=page, role="metrics"),
        ]
        extract_journal(pages, rules, source="fuzz", listing_title=page[:80])


def parsers_target(text: str) -> None:
    """Every value parser, reading the first and the last value."""
    for parser in PARSERS.values():
        parser(text, False)
        parser(text, True)


def decoding_target(body: bytes) -> None:
    """Decode a body under a declared charset, and sniff it for binary."""
    looks_binary(body)
    for content_type in (None, "text/html", "text/html; charset=utf-8", "text/html; charset=bogus-42"):
        decode_html(body, content_type)


def linkage_target(titles: list[tuple[str, str]]) -> None:
    """Link records of made-up titles and ISSN-ish strings over three sources."""
    records = [
        SourceRecord(key=f"{i}", source=f"s{i % 3}", title=title, issns=frozenset({issn})) for i, (title, issn) in
        enumerate(titles)
    ]  # fmt: skip
    link_records(records)


LINKAGE_INPUT = st.lists(st.tuples(ANY_TEXT, VALUE_TEXT), max_size=30)


@dataclass(frozen=True)
class Target:
    """One fuzz target: the function, the strategy of its input, and the most milliseconds one call may take."""

    run: Callable[..., None]
    inputs: st.SearchStrategy
    deadline_ms: float


def targets(max_size: int = 3000) -> dict[str, Target]:
    """The fuzz targets by name; ``max_size`` bounds the depth and width of shaped pages.

    Deadlines grow linearly with ``max_size``: time is bounded when it is linear in the page. The extraction's
    budget is 3 ms per record (two pages, three rounds each; about 2 ms is measured): it scans every text node
    for labels.
    """
    pages = st.one_of(html_text(max_size), html_bytes(max_size))
    return {
        "tag_tree": Target(tag_tree_target, pages, 2_000 + 0.1 * max_size),
        "mdr": Target(mdr_target, pages, 2_000 + 0.2 * max_size),
        "navigation": Target(navigation_target, pages, 2_000 + 0.2 * max_size),
        "extraction": Target(extraction_target, html_text(max_size), 5_000 + 3 * max_size),
        "parsers": Target(parsers_target, VALUE_TEXT, 1_000),
        "decoding": Target(decoding_target, html_bytes(max_size), 2_000),
        "linkage": Target(linkage_target, LINKAGE_INPUT, 5_000),
    }


def fuzz(name: str, target: Target, examples: int) -> float:
    """Run ``target`` on ``examples`` generated inputs (no shrinking database, no example replay); seconds taken."""
    started = time.perf_counter()
    run = settings(
        max_examples=examples,
        deadline=target.deadline_ms,
        database=None,
        phases=(Phase.generate, Phase.target, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )(given(target.inputs)(target.run))
    run()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Fuzz every target (or those named), print examples and seconds per target; exit 1 on the first failure."""
    parser = argparse.ArgumentParser(prog="python -m lab.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="targets to run (default: all)")
    parser.add_argument("--examples", type=int, default=2_000, help="examples per target")
    parser.add_argument("--max-size", type=int, default=4_000, help="deepest nesting and widest siblings")
    options = parser.parse_args(argv)
    chosen = targets(options.max_size)
    for name in options.names or chosen:
        if name not in chosen:
            parser.error(f"unknown target {name!r}; targets: {', '.join(chosen)}")
        seconds = fuzz(name, chosen[name], options.examples)
        print(f"{name}: {options.examples} examples in {seconds:.1f} s, no failure", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
