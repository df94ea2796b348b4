"""Write a found value's location as one XPath 1.0 expression that yields its text on any page of the template.

The expression is anchored on the label, not on the row's position: ``…/dt[text()[normalize-space()='Impact
Factor']]/following-sibling::*[1]``. A row left out or moved on another page of the same template does not
shift the value onto a neighbour's. A value inside the label's own text is cut out with ``substring-after``
(bounded by the next label) or ``substring-before`` (for "1234-5678 (online)").
"""

from __future__ import annotations

import re

from lxml import etree

from journals.extraction.content import TextNode
from journals.extraction.labels import default_matcher
from journals.extraction.locate import Candidate


def literal(text: str) -> str:
    """``text`` as an XPath 1.0 string literal (``concat()`` when it holds both kinds of quote)."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    parts = text.split("'")
    return "concat(" + ', "\'", '.join(f"'{p}'" for p in parts) + ")"


def _step_index(element: etree._Element) -> int:
    """1-based position of ``element`` among its parent's element children."""
    parent = element.getparent()
    assert parent is not None
    return [c for c in parent if isinstance(c.tag, str)].index(element) + 1


def _relative(label_owner: etree._Element, value_owner: etree._Element) -> str:
    """A path from the label's element to the value's element: up, across to a sibling, then down."""
    if label_owner is value_owner:
        return "."
    ancestors = [label_owner, *label_owner.iterancestors()]
    down: list[etree._Element] = []
    common = value_owner
    while common not in ancestors:
        down.append(common)
        common = common.getparent()
    up = ancestors.index(common)
    down.reverse()
    steps = [f"*[{_step_index(e)}]" for e in down]
    if up == 0:
        return "/".join(steps)
    across = ancestors[up - 1]
    gap = _step_index(down[0]) - _step_index(across)
    steps[0] = f"following-sibling::*[{gap}]" if gap > 0 else f"preceding-sibling::*[{-gap}]"
    if up > 1:
        steps.insert(0, f"ancestor::*[{up - 1}]")
    return "/".join(steps)


UNPINNED_STEPS = 2
"""Ancestor steps of a label written without their position: rows and cells move when a row is left out."""


def _label_anchor(node: TextNode, label: str) -> tuple[str, str]:
    """The label's element, found by its text under its parent's path, and the predicate on its text node."""
    owner = node.owner
    if node.text.strip() == label:
        predicate = f"normalize-space()={literal(' '.join(label.split()))}"
    elif node.text.lstrip().startswith(label) and default_matcher().nested(label):
        predicate = f"starts-with(normalize-space(), {literal(label)})"
    else:
        predicate = f"contains(., {literal(label)})"
    parent = owner.getparent()
    tree = owner.getroottree()
    steps = tree.getpath(parent).split("/") if parent is not None else [""]
    pinned = max(len(steps) - UNPINNED_STEPS, 2)
    base = "/".join(steps[:pinned] + [re.sub(r"\[\d+\]$", "", step) for step in steps[pinned:]])
    return f"{base}/{owner.tag}[text()[{predicate}]]", predicate


def rule_xpath(candidate: Candidate) -> str:
    """An XPath expression whose string value is the text ``candidate`` was parsed from."""
    expression = _value_text(candidate)
    if candidate.pair_separator:
        return f"substring-after({expression}, {literal(candidate.pair_separator)})"
    return expression


def _value_text(candidate: Candidate) -> str:
    anchor, predicate = _label_anchor(candidate.label_node, candidate.label_text)
    label = literal(candidate.label_text)
    if candidate.mode in ("after", "before"):
        text = f"({anchor}/text()[{predicate}])[1]"
        if candidate.mode == "before":
            return f"substring-before({text}, {label})"
        after = f"substring-after({text}, {label})"
        if candidate.bound:
            bound = literal(candidate.bound)
            after = f"substring-before(concat({after}, {bound}), {bound})"
        return after
    value = candidate.value_node
    path = _relative(candidate.label_node.owner, value.owner)
    target = f"{anchor}/{path}" if path != "." else anchor
    if value.leaf:
        return f"normalize-space(({target})[1])"
    return f"normalize-space(({target}/text()[{value.slot}])[1])"


def element_rule(element: etree._Element) -> str:
    """An XPath expression for the whole text of one element (the title's ``h1``)."""
    return f"normalize-space(({element.getroottree().getpath(element)})[1])"


def reads_last(xpath: str) -> bool:
    """Whether the value is the last one in the expression's text (a label written after its value)."""
    return xpath.startswith("substring-before(") and not xpath.startswith("substring-before(concat(")
