"""Rule XPaths: written for a value wherever it sits relative to its label, and taken apart again."""

from __future__ import annotations

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.xpaths import rule_parts
from journals.items import FetchedPage


def test_a_value_in_the_text_of_the_labels_ancestor_gets_a_rule() -> None:
    """Found by `make fuzz`: the label inside a link, the value in the text after it, in the link's parent."""
    learned_rules = LearnedRules()
    for n in range(8):
        html = f'<html><body><div><a href="/j/{n}">Impact Factor</a> {n}.5</div></body></html>'
        extraction = extract_journal([FetchedPage(url=f"https://e.org/{n}", html=html, role="home")], learned_rules)
        assert extraction.value("impact_factor") == n + 0.5
    ((rules,),) = (t.values() for t in learned_rules.templates.values())
    assert "ancestor::*[1]" in rules.xpaths["impact_factor"]
    assert rule_parts(rules.xpaths["impact_factor"]) is not None


def test_a_title_whose_path_is_no_xpath_learns_no_rule() -> None:
    """Found by `make fuzz`: libxml2 names an element ``a,<html`` out of broken markup and getpath writes it;
    such a rule made every later page of the template raise when the rules were compiled."""
    learned_rules = LearnedRules()
    html = "<html><body><div><a href=x>Journal <A,<html><h1>The Title</h1></a></div></body></html>"
    for n in range(8):
        extract_journal([FetchedPage(url=f"https://e.org/{n}", html=html, role="home")], learned_rules)
    assert all("title" not in rules.xpaths for t in learned_rules.templates.values() for rules in t.values())
