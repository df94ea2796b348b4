"""Positional readers: they read what the rules read on pages of the same shape, and nothing on any other."""

from __future__ import annotations

import pytest
from conftest import journal_own_value
from lxml import etree

from journals.extraction import LearnedRules, extract_journal, template_signature
from journals.extraction.extract import extract_page
from journals.extraction.positions import AUDIT_EVERY, MAX_CHECKED_CHILDREN, PositionalReader, compile_reader
from journals.extraction.templates import LEARNING_PAGES
from journals.extraction.xpaths import rule_parts
from journals.items import FetchedPage
from journals.pages.parsed import ParsedPage, parse_html
from lab.extraction.bench import sample_pages

ROWS = [("Print ISSN", "3372-1653"), ("Impact Factor", "4.117"), ("Editor-in-Chief", "Ada Li")]
def _page(n: int, rows: list[tuple[str, str]]) -> FetchedPage:
    block = "<dl>" + "".join(f"<dt>{k}</dt><dd>{journal_own_value(n, v)}</dd>" for k, v in rows) + "</dl>"
    html = f"<html><body><main><h1>Journal {n}</h1>{block}</main></body></html>"
    return FetchedPage(url=f"https://example.org/{n}", html=html, role="home")


def _trained(rows: list[tuple[str, str]] = ROWS) -> LearnedRules:
    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES + 1):
        extract_journal([_page(n, rows)], learned_rules, source="s")
    return learned_rules


def _rules(learned_rules: LearnedRules) -> dict[str, str]:
    (rules,) = learned_rules.templates["s"].values()
    return rules.xpaths


def test_sandbox_pages_are_read_by_position_as_the_rules_read_them() -> None:
    learned_rules = LearnedRules()
    documents = [(source, page, ParsedPage(page.url, page.html)) for source, page in sample_pages(per_site=25)]
    for _ in range(3):
        for source, page, document in documents:
            extract_page(page, source, learned_rules, parsed=document)
    read = 0
    for source, page, document in documents:
        root = document.tree
        assert root is not None
        signature = template_signature(root)
        trusted = learned_rules.get(source, signature)
        shaped = learned_rules.read_by_position(source, root, page.role)
        if trusted is None or trusted.pages_learned < LEARNING_PAGES:  # a template seen on too few pages
            assert shaped is None, page.url
            continue
        assert shaped is not None, page.url
        template, rules, texts = shaped
        assert template == signature, page.url
        assert list(texts) == rules.apply(root), page.url
        read += 1
    assert read >= 0.95 * len(documents)
    assert learned_rules.position_stats.disagreements == 0


def test_another_shape_is_left_to_the_rules() -> None:
    learned_rules = _trained()
    moved = parse_html(_page(99, [ROWS[1], ROWS[0], ROWS[2]]).html)
    relabelled = parse_html(_page(99, [("Online ISSN", "3372-1653"), *ROWS[1:]]).html)
    longer = parse_html(_page(99, [*ROWS, ("SJR", "1.2")]).html)
    same = parse_html(_page(99, ROWS).html)
    for root in (moved, relabelled, longer):
        assert root is not None
        assert learned_rules.read_by_position("s", root, "home") is None
    assert same is not None
    shaped = learned_rules.read_by_position("s", same, "home")
    assert shaped is not None and journal_own_value(99, "4.117") in shaped[2]


def test_moved_rows_are_still_read_right_by_the_rules() -> None:
    learned_rules = _trained()
    extraction = extract_journal([_page(99, [ROWS[2], ROWS[1], ROWS[0]])], learned_rules, source="s")
    assert extraction.value("impact_factor") == float(journal_own_value(99, "4.117"))
    assert extraction.value("issn") == journal_own_value(99, "3372-1653")
    assert extraction.value("editor_in_chief") == journal_own_value(99, "Ada Li")


def test_a_row_left_out_where_the_reader_was_made_is_evaluated_not_assumed_absent() -> None:
    """One text node holds "Online ISSN: y" alone on one page and "Print ISSN: x | Online ISSN: y" on the next:
    the same shape, so only evaluating the rule finds x."""

    def page(n: int, issns: str) -> FetchedPage:
        html = f"<html><body><main><h1>Journal {n}</h1><p>{issns}</p><dl><dt>Impact Factor</dt><dd>{n}.5</dd></dl>"
        return FetchedPage(url=f"https://example.org/{n}", html=html + "</main></body></html>", role="home")

    def both(n: int) -> str:
        return f"Print ISSN: {journal_own_value(n, '3372-1653')} | Online ISSN: {journal_own_value(n, '0028-0836')}"

    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES + 1):
        extract_journal([page(n, both(n))], learned_rules, source="s")
    xpaths = _rules(learned_rules)
    assert {"issn", "eissn"} <= set(xpaths)
    online_only = parse_html(page(1, f"Online ISSN: {journal_own_value(1, '0028-0836')}").html)
    assert online_only is not None
    reader = compile_reader(online_only, xpaths)
    assert reader is not None and "_rule0(n0)" in reader.source
    other = parse_html(page(2, both(2)).html)
    assert other is not None
    texts = reader.read(other)
    assert texts is not None
    (rules,) = learned_rules.templates["s"].values()
    assert list(texts) == rules.apply(other)
    assert any(journal_own_value(2, "3372-1653") in text for text in texts)


def _trained_with_a_lying_reader() -> tuple[LearnedRules, etree._Element]:
    """Trained rules whose only page shape has a reader that reads "wrong" everywhere, and a page of that shape."""
    learned_rules = _trained()
    root = parse_html(_page(50, ROWS).html)
    assert root is not None
    (template,) = learned_rules.templates["s"]
    lying = PositionalReader(lambda page: ("wrong",) * len(_rules(learned_rules)), "")
    learned_rules.shapes[("s", "home")] = [(template, lying)]
    return learned_rules, root


def test_audit_drops_a_reader_that_disagrees_with_the_rules() -> None:
    learned_rules, root = _trained_with_a_lying_reader()
    learned_rules.position_stats.reads = AUDIT_EVERY - 1
    assert learned_rules.read_by_position("s", root, "home") is None
    assert learned_rules.position_stats.disagreements == 1
    assert learned_rules.shapes[("s", "home")] == []


def test_relearning_a_template_drops_its_readers() -> None:
    learned_rules = _trained()
    assert learned_rules.shapes[("s", "home")]
    (template,) = learned_rules.templates["s"]
    learned_rules.learn("s", template, {"sjr": "normalize-space((/html/body/main/p)[1])"})
    assert learned_rules.shapes[("s", "home")] == []


@pytest.mark.parametrize(
    "xpath",
    [
        "string(/html/body)",
        "normalize-space(/html/body/main/h1)",
        "substring-after((/html/body/p)[1], $label)",
        "translate((/html/body/p)[1], 'a', 'b')",
    ],
)
def test_expressions_not_written_by_the_learner_are_not_taken_apart(xpath: str) -> None:
    assert rule_parts(xpath) is None


def test_rule_parts_reads_literals_with_both_quotes() -> None:
    xpath = (
        "normalize-space((/html/body/main/dl/dt[text()[normalize-space()=concat('Editor', \"'\", 's pick')]]"
        "/following-sibling::*[1])[1])"
    )
    parts = rule_parts(xpath)
    assert parts is not None
    assert parts.test == ("equals", "Editor's pick")
    assert parts.operations == (("normalize", ""),)


def test_a_page_of_another_template_with_the_same_counts_and_labels_is_not_read() -> None:
    """The home page whose metrics sit on another page must not read the home page that shows them."""

    def home(n: int, rest: str) -> FetchedPage:
        header = f"<div class='header'><h1>Journal {n}</h1><p>ISSN: {journal_own_value(n, '3372-1653')}</p></div>"
        return FetchedPage(
            url=f"https://example.org/{n}", html=f"<html><body><main>{header}{rest}</main></body></html>"
        )

    learned_rules = LearnedRules()
    for n in range(LEARNING_PAGES + 1):
        extract_journal([home(n, "<p><a href='/m'>Journal metrics</a></p>")], learned_rules, source="s")
    with_metrics = home(99, "<section><dl><dt>Impact Factor</dt><dd>4.117</dd></dl></section>")
    root = parse_html(with_metrics.html)
    assert root is not None
    assert learned_rules.read_by_position("s", root, "home") is None
    assert extract_journal([with_metrics], learned_rules, source="s").value("impact_factor") == 4.117


def test_a_template_parent_with_too_many_children_gets_no_reader() -> None:
    xpaths = _rules(_trained())
    crowded = parse_html(
        _page(1, ROWS).html.replace("<main>", "<main>" + "<span>x</span>" * (MAX_CHECKED_CHILDREN + 1))
    )
    assert crowded is not None
    main = crowded[0][0]
    assert main.tag == "main"
    assert compile_reader(crowded, xpaths, main[-2], [main]) is None
    assert compile_reader(crowded, xpaths, main[-2], []) is not None


def test_a_row_the_learning_pages_all_left_out_is_learned_on_the_first_page_that_shows_it() -> None:
    learned_rules = _trained(ROWS)  # trusted without an SJR rule: no learning page showed one
    assert "sjr" not in _rules(learned_rules)
    shown = extract_journal([_page(50, [*ROWS, ("SJR", "1.234")])], learned_rules, source="s")
    assert shown.value("sjr") == float(journal_own_value(50, "1.234"))
    assert "sjr" in _rules(learned_rules)
    again = extract_journal([_page(51, [*ROWS, ("SJR", "2.5")])], learned_rules, source="s")
    assert again.value("sjr") == float(journal_own_value(51, "2.5"))
    assert again.values["sjr"].method == "rule"


def test_rules_loaded_over_a_template_with_readers_are_read_in_their_own_order() -> None:
    """Found by a CI rehearsal: the pipeline loads a source's stored rules in a worker thread while its other
    items are already extracted; a reader made for the rules learned meanwhile returned their texts in that
    order, and the stored rules, in another, took them as each other's (impact factor for CiteScore)."""
    rows = [("Impact Factor", "4.117"), ("CiteScore", "5.2"), ("SJR", "0.7")]
    learned_rules = _trained(rows)
    assert learned_rules.shapes[("s", "home")]
    ((template, rules),) = learned_rules.templates["s"].items()
    order = ["title", *reversed([name for name in rules.xpaths if name != "title"])]  # the metrics reversed
    assert order != list(rules.xpaths)  # another order of the same rules, as the database returns them
    learned_rules.load("s", {template: {name: rules.xpaths[name] for name in order}})
    extraction = extract_journal([_page(60, rows)], learned_rules, source="s")
    assert extraction.value("impact_factor") == float(journal_own_value(60, "4.117"))
    assert extraction.value("citescore") == float(journal_own_value(60, "5.2"))
    assert extraction.value("sjr") == float(journal_own_value(60, "0.7"))


def test_a_new_readers_first_reads_are_audited() -> None:
    learned_rules, root = _trained_with_a_lying_reader()
    learned_rules.position_stats.reads = 1  # far from the next periodic audit
    assert learned_rules.read_by_position("s", root, "home") is None
    assert learned_rules.shapes[("s", "home")] == []
