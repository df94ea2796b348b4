"""Templates: the signature follows structure not URL, rules are learned once and reused, and re-learned."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import journal_own_value

from journals.extraction import LearnedRules, extract_journal, template_signature
from journals.extraction.templates import LEARNING_PAGES
from journals.items import FetchedPage
from journals.pages.parsed import parse_html


def _page(n: int, rows: list[tuple[str, str]], kind: str = "dl") -> FetchedPage:
    rows = [(k, journal_own_value(n, v)) for k, v in rows]
    if kind == "dl":
        block = "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"
    else:
        block = "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</table>"
    html = f"<html><body><main><h1>Journal {n}</h1>{block}</main><aside><p>ISSN: 0941-0325</p></aside></body></html>"
    return FetchedPage(url=f"https://example.org/{kind}/{n}", html=html, role="home")


ROWS = [("Print ISSN", "3372-1653"), ("Impact Factor", "4.117"), ("Editor-in-Chief", "Ada Li")]


def test_signature_is_structural() -> None:
    a, b = (parse_html(_page(n, ROWS).html) for n in (1, 2))
    table = parse_html(_page(3, ROWS, "table").html)
    fewer = parse_html(_page(4, ROWS[1:]).html)
    assert a is not None and b is not None and table is not None and fewer is not None
    assert template_signature(a) == template_signature(b) == template_signature(fewer)
    assert template_signature(a) != template_signature(table)


def _boxed(metrics: str, featured_first: bool = False, heading: str = "Acta") -> str:
    own = f"<section class='metrics'><h2>Journal metrics</h2>{metrics}</section>"
    featured = "<section class='featured'><h2>Featured journal</h2><h3><a href='/o'>Other Journal</a></h3></section>"
    boxes = featured + own if featured_first else own + featured
    return f"<html><body><main><h1>{heading}</h1><div class='row'>{boxes}</div></main></body></html>"


def test_signature_tells_the_layouts_below_the_title_apart() -> None:
    """A definition list and value-first tiles, or the journal's box before or after a featured journal's, are
    other layouts, though the title's parent holds the same children; a row left out is not."""
    dl = "<dl><dt>Impact Factor</dt><dd>4.117</dd><dt>ISSN</dt><dd>3372-1653</dd></dl>"
    shorter = "<dl><dt>Impact Factor</dt><dd>4.117</dd></dl>"
    tiles = "<div class='tiles'><div><span>4.117</span> <span>Impact Factor</span></div></div>"
    hidden = "Acta<span style='display:none'> | Open access</span>"

    def signature(html: str) -> str:
        root = parse_html(html)
        assert root is not None
        return template_signature(root)

    assert signature(_boxed(dl)) == signature(_boxed(shorter))
    assert signature(_boxed(dl)) != signature(_boxed(tiles))
    assert signature(_boxed(dl)) != signature(_boxed(dl, featured_first=True))
    assert signature(_boxed(dl)) != signature(_boxed(dl, heading=hidden))


def test_rules_are_learned_then_reused() -> None:
    learned_rules = LearnedRules()
    methods = []
    for n in range(LEARNING_PAGES + 3):
        extraction = extract_journal([_page(n, ROWS)], learned_rules, source="s")
        methods.append(extraction.values["impact_factor"].method)
        assert extraction.value("title") == f"Journal {n}"
        assert extraction.value("issn") == journal_own_value(n, "3372-1653")
    assert methods[:LEARNING_PAGES] == ["heuristic"] * LEARNING_PAGES
    assert methods[LEARNING_PAGES:] == ["rule"] * 3
    assert len(learned_rules.templates["s"]) == 1


def test_reordered_and_missing_rows_keep_their_values_apart() -> None:
    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES):
        extract_journal([_page(n, ROWS)], learned_rules, source="s")
    reordered = extract_journal([_page(9, [ROWS[2], ROWS[1]])], learned_rules, source="s")
    assert reordered.value("impact_factor") == float(journal_own_value(9, "4.117"))
    assert reordered.value("issn") is None
    assert reordered.values["editor_in_chief"].method == "rule"


def test_an_invalid_value_triggers_relearning() -> None:
    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES):
        extract_journal([_page(n, ROWS)], learned_rules, source="s")
    odd = [("Print ISSN", "Ada Li"), ("ISSN", "3372-1653"), ("Impact Factor", "4.117")]
    extraction = extract_journal([_page(7, odd)], learned_rules, source="s")
    assert extraction.pages[0].learned
    assert extraction.value("issn") == journal_own_value(7, "3372-1653")


def test_new_templates_are_met_ad_hoc_and_stored_rules_reload() -> None:
    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES):
        extract_journal([_page(10 + n, ROWS)], learned_rules, source="s")
        extract_journal([_page(20 + n, ROWS, "table")], learned_rules, source="s")
    changed = learned_rules.take_changed()
    assert len(changed) == 2
    reloaded = LearnedRules()
    reloaded.load("s", {template: rules for (_, template), rules in changed.items()})
    extraction = extract_journal([_page(3, ROWS, "table")], reloaded, source="s")
    assert extraction.values["impact_factor"].method == "rule"
    assert extraction.value("impact_factor") == float(journal_own_value(3, "4.117"))


def _ids_page(n: int, ids: str) -> FetchedPage:
    html = (
        f"<html><body><main><h1>Journal {n}</h1><p class='ids'>{ids}</p><p>Impact Factor: {journal_own_value(n, '4.117')}</p>"
        f"<p>Editor-in-chief: {journal_own_value(n, 'Ada Li')}</p></main></body></html>"
    )
    return FetchedPage(url=f"https://example.org/ids/{n}", html=html, role="home")


def test_an_odd_learning_page_does_not_narrow_a_rule_that_reads_it() -> None:
    """A page showing only "eISSN y" learns a rule anchored at the start of its text; the template's other pages
    write "ISSN x · eISSN y". Learned last, that page must keep the rule that reads both."""
    learned_rules = LearnedRules()

    def both(n: int) -> str:
        return f"ISSN {journal_own_value(n, '3372-1653')} · eISSN {journal_own_value(n, '7877-9537')}"

    for n in range(LEARNING_PAGES - 1):
        extract_journal([_ids_page(n, both(n))], learned_rules, source="s")
    extract_journal([_ids_page(8, f"eISSN {journal_own_value(8, '7877-9537')}")], learned_rules, source="s")
    later = extract_journal([_ids_page(9, both(9))], learned_rules, source="s")
    assert later.values["eissn"].method == "rule"
    assert later.value("eissn") == journal_own_value(9, "7877-9537")
    assert later.value("issn") == journal_own_value(9, "3372-1653")


def test_half_learned_templates_are_not_handed_out_for_saving() -> None:
    rules = LearnedRules()
    for _ in range(LEARNING_PAGES - 1):
        rules.learn("site", "t1", {"issn": "//p[1]"})
    assert rules.take_changed() == {}
    rules.learn("site", "t1", {"editor_in_chief": "//p[2]"})
    assert rules.take_changed() == {("site", "t1"): {"issn": "//p[1]", "editor_in_chief": "//p[2]"}}
    assert rules.take_changed() == {}


def test_a_label_with_control_characters_is_not_learned_as_an_xpath() -> None:
    """Found by the fuzz run: lxml refuses control characters in an XPath string literal."""
    page = ('<html><body><ul><div><a href="/j/0">Journal :P\x08<html href="" href="::::"</a> ISSN 0028-0836'
            "</div></ul></body></html>")
    learned_rules = LearnedRules()
    extraction = extract_journal([FetchedPage(url="https://example.org/j", html=page, role="home")], learned_rules,
                                 source="s")
    assert [p.url for p in extraction.pages] == ["https://example.org/j"]
    xpaths = [x for rules in learned_rules.templates.get("s", {}).values() for x in rules.xpaths.values()]
    assert not any("\x08" in xpath for xpath in xpaths)


def _decoy_page(n: int, citescore: str = "") -> FetchedPage:
    """Journal ``n``'s page shows its impact factor; the only ISSN in its content is another journal's, the same on
    every page; its publisher is every journal's."""
    html = (
        f"<html><body><main><h1>Journal {n}</h1><dl><dt>Impact Factor</dt><dd>{journal_own_value(n, '4.117')}</dd>"
        f"<dt>Publisher</dt><dd>Campus Press</dd>{citescore}</dl><div class='sisters'><p>Acta Testica</p>"
        "<p>ISSN 0028-0836</p></div></main></body></html>"
    )
    return FetchedPage(url=f"https://example.org/decoy/{n}", html=html, role="home")


def test_a_rule_reading_one_value_for_different_journals_is_a_decoy_and_dropped() -> None:
    learned_rules = LearnedRules()
    first = extract_journal([_decoy_page(0)], learned_rules, source="s")
    assert first.value("issn") == "0028-0836"  # one page cannot tell
    later = [extract_journal([_decoy_page(n)], learned_rules, source="s") for n in range(1, LEARNING_PAGES + 3)]
    assert all(extraction.value("issn") is None for extraction in later)
    assert [extraction.value("impact_factor") for extraction in later] == [
        float(journal_own_value(n, "4.117")) for n in range(1, LEARNING_PAGES + 3)
    ]
    assert all(extraction.value("publisher") == "Campus Press" for extraction in later)  # may repeat
    (rules,) = learned_rules.templates["s"].values()
    assert "issn" not in rules.xpaths and {"impact_factor", "publisher"} <= set(rules.xpaths)
    assert later[-1].values["impact_factor"].method == "rule"


def test_two_journals_may_share_a_short_figure_by_chance() -> None:
    """A CiteScore like 4.1 is shared by two journals of a hundred: a third one makes the rule a decoy."""
    learned_rules = LearnedRules()
    row = "<dt>CiteScore</dt><dd>4.1</dd>"
    for n in range(2):
        assert extract_journal([_decoy_page(n, row)], learned_rules, source="s").value("citescore") == 4.1
    assert extract_journal([_decoy_page(2, row)], learned_rules, source="s").value("citescore") is None


def test_pages_of_one_journal_are_no_witnesses_against_a_rule() -> None:
    learned_rules = LearnedRules()
    for _ in range(3):
        extraction = extract_journal([_decoy_page(0)], learned_rules, source="s")
    assert extraction.value("issn") == "0028-0836"


def test_a_page_that_is_its_own_template_stops_being_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page visited again and again (a real site's page of its own template, the pipeline bench's real pages) is
    learned by its labels until its template is trusted, searched once more as a new page shape, then read by its
    rules on every later visit: its rules fit it, nothing is relearned."""
    from journals.extraction import extract

    calls: list[int] = []
    learn_page = extract.learn_page

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return learn_page(*args, **kwargs)

    monkeypatch.setattr(extract, "learn_page", counted)
    learned_rules = LearnedRules()
    page = _page(1, ROWS)
    learned = []
    for _ in range(LEARNING_PAGES + 4):
        before = len(calls)
        extraction = extract_journal([page], learned_rules, source="s")
        learned.append(len(calls) - before)
        assert extraction.value("issn") == journal_own_value(1, "3372-1653")
    assert learned == [1] * LEARNING_PAGES + [1, 0, 0, 0]


def _with_board(n: int, editor: bool) -> FetchedPage:
    """A page whose editorial board box is always there, empty on some journals' pages: the same page shape with
    and without the editor-in-chief row."""
    rows = "".join(f"<dt>{k}</dt><dd>{journal_own_value(n, v)}</dd>" for k, v in ROWS[:2])
    board = f"<dl><dt>Editor-in-Chief</dt><dd>{journal_own_value(n, 'Ada Li')}</dd></dl>" if editor else ""
    html = f"<html><body><main><h1>Journal {n}</h1><dl>{rows}</dl><div class='board'>{board}</div></main></body></html>"
    return FetchedPage(url=f"https://example.org/board/{n}", html=html, role="home")


def test_a_row_the_trusted_rules_lack_is_learned_on_a_page_of_a_known_shape() -> None:
    """Rules learned (or stored by an earlier crawl) on pages without the editor row read a later page of the same
    shape by position; the page's text names the editor-in-chief, so it is searched by its labels once more."""
    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES + 3):
        assert extract_journal([_with_board(n, editor=False)], learned_rules, source="s").value("editor_in_chief") is None
    extraction = extract_journal([_with_board(50, editor=True)], learned_rules, source="s")
    assert extraction.value("editor_in_chief") == journal_own_value(50, "Ada Li")
    later = extract_journal([_with_board(51, editor=True)], learned_rules, source="s")
    assert later.value("editor_in_chief") == journal_own_value(51, "Ada Li")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("<dt>Print ISSN</dt>", True),  # a label holding a shorter one ("ISSN") is found by it
        ("<dt>Editors-in-Chief</dt>", True),
        ("<dt>SCImago Journal Rank (SJR)</dt>", True),
        ("<dt>Publisher</dt><dd>Impact Press</dd>", False),
        ("", False),
    ],
)
def test_a_page_names_an_attribute_its_rules_lack(text: str, names: bool) -> None:
    learned_rules = LearnedRules()
    learned_rules.load("s", {"t": {"title": "string(//h1)"}})
    assert learned_rules.names_an_attribute_missing("s", "t", text) is names


def test_a_template_with_a_rule_for_every_core_attribute_misses_none() -> None:
    from journals.vocabulary import load_attributes

    learned_rules = LearnedRules()
    learned_rules.load("s", {"t": {a.name: "string(//h1)" for a in load_attributes() if a.core}})
    assert not learned_rules.names_an_attribute_missing("s", "t", "ISSN · Impact Factor · Editor-in-Chief · Title")
