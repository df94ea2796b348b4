"""Whether an element is hidden by its own markup (journals.pages.visibility), and the pages and odd markup on which
the fast readers of a page's visible parts are compared with the plain ones they replace."""

from __future__ import annotations

import copy
from functools import cache

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from journals.pages.parsed import ParsedPage
from journals.pages.visibility import _HIDING_STYLE, _hiding_class, is_hidden
from journals.replay.pages import load_saved_pages
from lab.extraction.bench import CHROME_KILOBYTES, sample_pages, with_chrome


@cache
def corpus_pages() -> tuple[ParsedPage, ...]:
    """Every saved real page (lists and journal pages, both corpora) and sandbox journal and metrics pages grown
    to real pages' size (:func:`with_chrome`), parsed as the crawl parses them."""
    pages = [ParsedPage(saved.url or "https://saved.example/", saved.html()) for saved in load_saved_pages()]
    for i, (_, page) in enumerate(sample_pages(per_site=2)):
        html = with_chrome(page.html, CHROME_KILOBYTES[i % 2], i % 3)
        pages.append(ParsedPage("http://127.0.0.1:8000" + page.url, html))
    return tuple(pages)


_OPENING = [
    "<div>", "<p>", "<span>", "<b>", "<li>", "<h2>", "<h3>", "<td>", "<a href='/x'>", "<details>", "<summary>",
    "<i hidden>", '<i hidden="">', '<b aria-hidden="true">', '<b aria-hidden=" TRUE ">', '<b aria-hidden="false">',
    '<em style="display:none">', '<em style="color: red; DISPLAY : NONE !important">', '<em style="visibility:hidden;">',
    '<em style="display:block">', '<em style="x-display:none">', '<em style="">', '<span class="sr-only">',
    '<span class="a Visually-Hidden">', '<div class="u-hidden">', '<div class="abcd-hidden">', '<div class="hiddenish">',
    '<div class="is-Hide b">', '<div class="&#72;idden">', '<div class="\u212aey hide">', '<div class="h\u0130dden">',
    '<div class="d-none\tx">', '<div class="">', "<script>", "<script type='application/ld+json'>", "<style>",
    "<template>", "<noscript>", "<textarea>", '<button role="tab" aria-controls="p">', '<div id="p">',
    '<section aria-busy="true">',
]  # fmt: skip
"""Opening tags: plain, hidden by each rule and by its near misses, unseen, a panel's control and its panel."""
_CLOSING = ["</div>", "</p>", "</span>", "</b>", "</i>", "</em>", "</li>", "</h2>", "</script>", "</style>",
            "</template>", "</noscript>", "</details>", "</summary>", "</a>", "</section>"]  # fmt: skip
_OTHER = ["<!-- a comment -->", "<?pi data?>", "<br>", "<br/>", "<img alt='x'>", "&amp;", "&nbsp;", "&#8212;", "&bogus;",
          "<![CDATA[x]]>", "</>"]  # fmt: skip
_TEXTS = [
    "a", "Acta", " ", "\n  ", "\u3000", "\xa0", "Loading", "loading metrics…", " Cargando ", "downloading", "ISSN 2049-3630",
    "0028 0836", "Impact Factor", "Impact", "Factor", "(2024)", "2023", "CiteScore™", "Journal metrics", "é", "İ", "ſ",
]  # fmt: skip
odd_markup = st.lists(st.sampled_from(_OPENING + _CLOSING + _OTHER + _TEXTS), max_size=40).map("".join)
"""Odd markup: hidden elements by every rule (and near misses), nested, unseen elements, comments, processing
instructions, entities, breaks and texts that name journal data or a placeholder, in any order (the parser mends
the nesting)."""


def odd_trees(markup: str) -> list[etree._Element]:
    """``markup`` parsed as a page is by the crawl, and as a fragment by ``lxml.html`` with its comments made
    processing instructions and entities in turn (which an HTML parser never makes, but a tree may hold)."""
    trees = []
    page = ParsedPage("https://odd.example/", f"<html><body>{markup}</body></html>").tree
    if page is not None:
        trees.append(page)
    fragment = lxml.html.fragment_fromstring(markup, create_parent="div")
    trees.append(fragment)
    other = copy.deepcopy(fragment)
    for n, comment in enumerate(list(other.iter(etree.Comment))):
        node = etree.ProcessingInstruction("pi", "Loading ISSN 2049-3630") if n % 2 else etree.Entity("bogus")
        node.tail = comment.tail
        parent = comment.getparent()
        if parent is not None:
            parent.replace(comment, node)
    trees.append(other)
    return trees


@pytest.mark.parametrize(
    ("markup", "hidden"),
    [
        ("<p hidden>x</p>", True),
        ('<p aria-hidden=" True ">x</p>', True),
        ('<p aria-hidden="false">x</p>', False),
        ('<p style="color:red; display : none !important">x</p>', True),
        ('<p style="x-display:none">x</p>', False),
        ('<p class="js u-Visually-Hidden">x</p>', True),
        ('<p class="abcd-hidden">x</p>', False),
        ('<p class="hiddenish">x</p>', False),
    ],
)
def test_an_element_is_hidden_by_its_own_markup(markup: str, hidden: bool) -> None:
    assert is_hidden(lxml.html.fragment_fromstring(markup)) == hidden


def is_hidden_plainly(element: etree._Element) -> bool:
    """The plain rule :func:`is_hidden` must agree with: each attribute looked up, each class token judged."""
    if element.get("hidden") is not None or (element.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDING_STYLE.search(style):
        return True
    classes = element.get("class")
    return bool(classes) and any(_hiding_class(token.lower()) for token in classes.split())


def test_every_element_of_every_saved_and_sandbox_page_is_hidden_as_by_the_plain_rule() -> None:
    hidden = 0
    for parsed in corpus_pages():
        if parsed.tree is not None:
            for element in parsed.tree.iter(etree.Element):
                assert is_hidden(element) == is_hidden_plainly(element), etree.tostring(element)[:200]
                hidden += is_hidden(element)
    assert hidden >= 50


@settings(max_examples=500, deadline=None, database=None)
@given(odd_markup)
def test_every_element_of_odd_markup_is_hidden_as_by_the_plain_rule(markup: str) -> None:
    for tree in odd_trees(markup):
        for element in tree.iter(etree.Element):
            assert is_hidden(element) == is_hidden_plainly(element), etree.tostring(element)


@given(st.lists(st.sampled_from(["hidden", "Hide", "u-hidden", "abcd-hidden", "d-none", "x", "-", " ", "\t", "\u212a"]),
                max_size=6).map("".join),
       st.sampled_from([{}, {"id": "x"}, {"hidden": ""}, {"aria-hidden": "TRUE "}, {"style": "display:none"},
                        {"style": "color:red"}, {"aria-hidden": "false", "style": ""}]))  # fmt: skip
def test_a_class_attribute_hides_alone_or_beside_others_as_by_the_plain_rule(
    classes: str, others: dict[str, str]
) -> None:
    """The answer kept by a class attribute's value is the rule's, whether the class is the element's one
    attribute or one of several."""
    element = etree.Element("p", {"class": classes, **others})
    assert is_hidden(element) == is_hidden_plainly(element)
    assert is_hidden(etree.Element("p", others)) == is_hidden_plainly(etree.Element("p", others))
