"""The signs of a script-built page and whether a page names journal data (journals.pages.script_signs)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from journals.pages.parsed import ParsedPage
from journals.pages.script_signs import (
    _BUILDS,
    _PANEL_CONTROLS,
    _PLACEHOLDER,
    _PLACEHOLDER_MARK,
    MIN_SCRIPT_LETTERS,
    UNSEEN_WITH_SCRIPTS,
    VisibleData,
    _holds_a_label,
    _labels_held,
    _placeholders,
    _spaced_labels,
    builds_page,
    may_hold_placeholder,
    names_journal_data,
    script_signs,
)
from journals.replay.pages import DEFAULT_REAL_PAGES
from journals.vocabulary import label_key
from tests.pages.test_visibility import corpus_pages, odd_markup, odd_trees

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def page(body: str, head: str = "") -> ParsedPage:
    return ParsedPage("https://example.org/journals", f"<html><head>{head}</head><body>{body}</body></html>")


APP = '<script src="/app.js"></script>'


@pytest.mark.parametrize("root", ['<div id="root"></div>', '<div id="__next">  </div>', '<main id="app"></main>'])
def test_an_empty_application_root_with_scripts_is_script_built(root: str) -> None:
    signs = script_signs(page(f"<header><a href='/'>Home</a></header>{root}{APP}"))
    assert signs.script_built and signs.names == ("app_root",)


def test_a_filled_application_root_or_a_page_without_scripts_is_not() -> None:
    assert not script_signs(page(f'<div id="root"><ul><li>Journal</li></ul></div>{APP}')).script_built
    assert not script_signs(page('<div id="root"></div>')).script_built
    json_ld = '<script type="application/ld+json">{"@type": "Periodical"}</script>'
    assert not script_signs(page(f'<div id="root"></div>{json_ld}')).script_built


def test_noscript_asking_for_javascript_is_a_sign_an_analytics_pixel_is_not() -> None:
    asking = page(f"<noscript>You need to enable JavaScript to run this app.</noscript>{APP}")
    assert script_signs(asking).names == ("noscript",)
    pixel = page(f'<noscript><img src="https://stats.example/pixel.gif"></noscript>{APP}')
    assert not script_signs(pixel).script_built


def test_script_letters_count_on_index_pages_only_and_links_are_not_scripts() -> None:
    buttons = "".join(f'<button type="button">{letter}</button>' for letter in LETTERS)
    handlers = "".join(f'<a href="javascript:void(0)" onclick="show(\'{x}\')">{x}</a>' for x in LETTERS)
    links = "".join(f'<a href="/az/{letter}">{letter}</a>' for letter in LETTERS)
    assert script_signs(page(buttons + APP), letters=True).script_letters == 26
    assert script_signs(page(handlers + APP), letters=True).names == ("script_letters",)
    assert not script_signs(page(buttons + APP)).script_built, "a journal page's letter buttons mean nothing"
    assert script_signs(page(links + APP), letters=True).script_letters == 0
    few = "".join(f"<button>{letter}</button>" for letter in LETTERS[: MIN_SCRIPT_LETTERS - 1])
    assert not script_signs(page(few + APP), letters=True).script_built


def test_journal_data_is_an_issn_or_a_metric_label_a_reader_sees() -> None:
    assert names_journal_data(page("<h1>Acta Nova</h1><p>ISSN 2049-3630</p>"))
    assert names_journal_data(page("<dl><dt>Journal Impact Factor™</dt><dd>4.2</dd></dl>"))
    assert names_journal_data(page("<span>CiteScore</span>"))
    assert not names_journal_data(page("<h1>Acta Nova</h1><nav><a href='/'>Home</a> Online first</nav>"))
    hidden = '<div style="display:none">Impact Factor 4.2 ISSN 2049-3630</div>'
    assert not names_journal_data(page(f"<h1>Acta Nova</h1>{hidden}"))
    noscript = "<noscript>Enable JavaScript to see the Impact Factor.</noscript>"
    assert not names_journal_data(page(f"<h1>Acta Nova</h1>{noscript}{APP}"))


def test_an_unparsable_page_shows_no_signs_and_no_data() -> None:
    empty = ParsedPage("https://example.org/", "")
    assert not script_signs(empty, letters=True).script_built
    assert not names_journal_data(empty)


DATA = "<h1>Acta Testa</h1><p>ISSN 4343-0910</p>"
"""What a journal page shows as served, before the panels its scripts fill."""


@pytest.mark.parametrize(
    ("panel", "empty"),
    [
        ('<button role="tab" aria-controls="m">Journal metrics</button><div id="m" role="tabpanel"></div>', 1),
        ('<button role="tab" aria-controls="m">Journal metrics</button><div id="m"><p>Impact Factor 2.1</p></div>', 0),
        ("<details><summary>Journal metrics</summary></details>", 1),
        ("<details><summary>Journal metrics</summary><p>CiteScore 3.4</p></details>", 0),
        ('<h2>Metrics</h2><div class="panel"><div class="skeleton-line"></div><svg class="spinner"></svg></div>', 1),
        ("<h3>Editor</h3><p></p>", 0),
        ('<section aria-busy="true"></section>', 1),
    ],
)
def test_a_panel_left_for_a_script_to_fill_makes_a_page_with_data_unfinished(panel: str, empty: int) -> None:
    """A closed tab or accordion with nothing in it, skeleton boxes under a metrics heading, an element a script
    marks busy: the page names data but is not finished. An empty field under its label is a journal without it."""
    signs = script_signs(ParsedPage("http://x.example/j", f"<html><body>{DATA}{panel}<script></script></body></html>"))
    assert (signs.empty_panels, signs.unfinished) == (empty, bool(empty))


def test_a_page_without_scripts_is_never_unfinished() -> None:
    page = ParsedPage(
        "http://x.example/j", f"<html><body>{DATA}<details><summary>Metrics</summary></details></body></html>"
    )
    assert script_signs(page).empty_panels == 1 and not script_signs(page).unfinished


@pytest.mark.parametrize(
    ("script", "builders"),
    [
        ('<script src="/app.js"></script>', 1),
        ("<script>fetch('/api/list').then(r => r.json())</script>", 1),
        ("<script>document.getElementById('grid').innerHTML = '';</script>", 1),
        ('<script>window.dataLayer = window.dataLayer || []; dataLayer.push({"page": "list"});</script>', 0),
        ('<script type="application/ld+json">{"@type": "Periodical"}</script>', 0),
    ],
)
def test_scripts_that_can_write_the_page_are_told_from_an_analytics_line(script: str, builders: int) -> None:
    """An index page that gives nothing is probed in the browser only when a script could have built its list."""
    assert script_signs(page(f"<h1>Journals</h1><ul></ul>{script}")).builders == builders


_WORDS = st.sampled_from(
    ["fetch", "append", "appendChild", "render", "Render", "rendered", "mount", "x", " ", ".", "_", "é", "0",
     "loading", "LOADING", "LoAdInG", "load\u0130ng", "load\u0131ng", "wird geladen", "Cargando", "caricamento",
     "\u0130", "\u0131", "\u212a", "\u017f", "\n"]
)  # fmt: skip


@settings(max_examples=1500, deadline=None, database=None)
@given(st.lists(_WORDS, max_size=14).map("".join))
def test_the_fast_word_checks_answer_as_their_expressions(text: str) -> None:
    """A script builds the page, and a page may hold a placeholder, exactly when their expressions say so: the
    words are searched first, the expression tried from the first one found (in any case, İ and ı included)."""
    assert builds_page(text) == bool(_BUILDS.search(text))
    assert may_hold_placeholder(text) == bool(_PLACEHOLDER_MARK.search(text))


_PANEL_UNION = etree.XPath(
    "//*[@role='tab'][@aria-controls] | //*[@aria-expanded='false'][@aria-controls] | //details[not(@open)]/summary"
    " | //*[@aria-busy='true']"
)


def test_the_panel_controls_are_found_in_one_pass_as_four_searches_found_them() -> None:
    """One pass over the elements finds the controls the union of four searches found, in the same order, on every
    saved page and on controls written in each form."""
    pages = [path.read_bytes().decode("utf-8", "replace") for path in sorted(DEFAULT_REAL_PAGES.parent.glob("**/*.htm*"))]
    pages.append(
        '<div role="tab" aria-controls="p1">A</div><button aria-expanded="false" aria-controls="p2">B</button>'
        '<button aria-expanded="true" aria-controls="p3">C</button><div role="tab">D</div><details><summary>E'
        '</summary></details><details open><summary>F</summary></details><summary>G</summary>'
        '<p aria-busy="true" role="tab" aria-controls="p4">H</p><span aria-busy="false">I</span>'
    )
    found = 0
    for html in pages:
        root = ParsedPage("http://site.example/", html).tree
        if root is not None:
            assert _PANEL_CONTROLS(root) == _PANEL_UNION(root)
            found += len(_PANEL_CONTROLS(root))
    assert found >= 5


def _placeholders_read_plainly(tree: etree._Element) -> int:
    """The plain count :func:`_placeholders` must agree with: every childless element's text collapsed and
    matched."""
    found = 0
    for element in tree.iter():
        if not isinstance(element.tag, str) or len(element) or element.tag in UNSEEN_WITH_SCRIPTS:
            continue
        text = " ".join((element.text or "").split())
        if text and _PLACEHOLDER.match(text) and not any(a.tag in UNSEEN_WITH_SCRIPTS for a in element.iterancestors()):
            found += 1
    return found


def test_placeholders_are_counted_and_looked_for_as_plainly_on_every_saved_and_sandbox_page() -> None:
    """Placeholders are found where the plain count finds them, and a page may hold one exactly when the
    expression finds a word, on the saved real pages and sandbox pages of real size."""
    holding = 0
    for parsed in corpus_pages():
        assert may_hold_placeholder(parsed.text) == bool(_PLACEHOLDER_MARK.search(parsed.text)), parsed.url
        assert may_hold_placeholder(parsed.text, parsed.text.lower()) == may_hold_placeholder(parsed.text)
        if parsed.tree is not None:
            assert _placeholders(parsed.tree) == _placeholders_read_plainly(parsed.tree), parsed.url
            holding += _placeholders(parsed.tree) > 0
    assert holding >= 2, "some saved page shows a placeholder"


@settings(max_examples=400, deadline=None, database=None)
@given(odd_markup)
def test_placeholders_in_odd_markup_are_counted_as_plainly(markup: str) -> None:
    for tree in odd_trees(markup):
        assert _placeholders(tree) == _placeholders_read_plainly(tree)
    assert may_hold_placeholder(markup) == bool(_PLACEHOLDER_MARK.search(markup))


@pytest.mark.parametrize("text", ["downloading then Loading…", "uploading and loading", "xloading\nwird geladen"])
def test_a_placeholder_word_after_one_inside_another_word_is_found(text: str) -> None:
    assert may_hold_placeholder(text) and may_hold_placeholder(f"<p>{text}</p>")
    assert not may_hold_placeholder(text.replace("oading", "oadings").replace("geladen", "geladene"))


def _labels_held_plainly(words: str) -> set[str]:
    """The plain search :func:`_labels_held` must agree with: every label looked for in the whole text."""
    return {label for label in _spaced_labels() if label in words}


def test_the_labels_of_every_saved_and_sandbox_page_are_those_every_label_finds() -> None:
    """The labels a page's visible words and its markup's words hold, found among those that start with one of
    its words, are those every label looked for finds."""
    held = 0
    for parsed in corpus_pages():
        texts = [parsed.text[:50_000]]
        if parsed.tree is not None:
            visible = VisibleData(parsed.tree)
            texts.append(visible.text)
            assert visible.labels == len(_labels_held_plainly(visible.words))
            assert visible.names_a_label == bool(_labels_held_plainly(visible.words))
        for text in texts:
            words = f" {label_key(text)} "
            assert set(_labels_held(words)) == _labels_held_plainly(words)
            held += len(_labels_held_plainly(words))
    assert held >= 20


_LABEL_WORDS = st.sampled_from(sorted({word for label in _spaced_labels() for word in label.split()} | {"x", "2024"}))


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.one_of(_LABEL_WORDS, st.sampled_from(["", " ", "  ", "\n", "-"])), max_size=30).map(" ".join))
def test_the_labels_of_any_words_are_those_every_label_finds(words: str) -> None:
    for text in (words, f" {words} ", f" {label_key(words)} "):
        assert set(_labels_held(text)) == _labels_held_plainly(text)
        assert _holds_a_label(text) == bool(_labels_held_plainly(text))
