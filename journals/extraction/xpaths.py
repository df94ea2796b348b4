"""Write a found value's location as one XPath 1.0 expression that yields its text on any page of the template.

The expression is anchored on the label, not on the row's position: ``…/dt[text()[normalize-space()='Impact
Factor']]/following-sibling::*[1]``. A row left out or moved on another page of the same template does not
shift the value onto a neighbour's. A value inside the label's own text is cut out with ``substring-after``
(bounded by the next label) or ``substring-before`` (for "1234-5678 (online)").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

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
    if not down:  # the value is a text of one of the label's ancestors ("<div><a>Label</a> value</div>")
        return f"ancestor::*[{up}]"
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
_LOWER_CASED = "translate(., 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
"""A text node lower-cased in XPath 1.0, to test it for the longer labels that hold a rule's label."""
"""Ancestor steps of a label written without their position: rows and cells move when a row is left out."""


def _label_anchor(node: TextNode, label: str) -> tuple[str, str]:
    """The label's element, found by its text under its parent's path, and the predicate on its text node. A label
    found inside running text is taken only where no longer label holding it is said ("Impact Factor", not in
    "five-year Impact Factor": the longest label wins on every page the rule reads)."""
    owner = node.owner
    if node.text.strip() == label:
        predicate = f"normalize-space()={literal(' '.join(label.split()))}"
    elif node.text.lstrip().startswith(label) and default_matcher().nested(label):
        predicate = f"starts-with(normalize-space(), {literal(label)})"
    else:
        predicate = f"contains(., {literal(label)})"
        if qualifiers := default_matcher().qualifiers(label):
            predicate = f"{predicate} and not({_qualified(label.lower(), qualifiers)})"
    parent = owner.getparent()
    tree = owner.getroottree()
    steps = tree.getpath(parent).split("/") if parent is not None else [""]
    pinned = max(len(steps) - UNPINNED_STEPS, 2)
    base = "/".join(steps[:pinned] + [re.sub(r"\[\d+\]$", "", step) for step in steps[pinned:]])
    return f"{base}/{owner.tag}[text()[{predicate}]]", predicate


def _qualified(label: str, qualifiers: tuple[tuple[str, str], ...]) -> str:
    """An XPath test that the first ``label`` (lower case) of a text node is qualified as a longer label: preceded
    or followed by one of ``qualifiers``' parts."""
    before = f"substring-before({_LOWER_CASED}, {literal(label)})"
    after = f"substring-after({_LOWER_CASED}, {literal(label)})"
    tests = []
    for prefix, suffix in qualifiers:
        if prefix:
            start = f"string-length({before}) - {len(prefix) - 1}"
            tests.append(f"substring({before}, {start}) = {literal(prefix)}")
        if suffix:
            tests.append(f"starts-with({after}, {literal(suffix)})")
    return " or ".join(tests)


def first_is_qualified(text: str, label: str) -> bool:
    """What :func:`_qualified` tests, in Python: whether the first ``label`` of ``text`` (case aside) is written
    inside a longer label of another attribute."""
    lowered, wanted = text.lower(), label.lower()
    before, found, after = lowered.partition(wanted)
    if not found:
        return False
    return any(
        (prefix and before.endswith(prefix)) or (suffix and after.startswith(suffix))
        for prefix, suffix in default_matcher().qualifiers(label)
    )


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


class RuleParts(NamedTuple):
    """A rule taken apart (see :func:`rule_parts`): where its text comes from and how it is cut."""

    nodes: str
    """The node-set expression whose first node's string value the rule starts from."""
    operations: tuple[tuple[str, str], ...]
    """What is then done to that string, innermost first: ``("normalize", "")``, ``("after", s)`` (XPath's
    ``substring-after``), ``("before", s)`` or ``("append", s)`` (``concat``)."""
    label: str
    """The label's element, as an expression (``""`` for a rule without a label: the title's)."""
    test: tuple[str, str]
    """The label's text test: ``("equals" | "starts" | "contains", label)`` (``("", "")`` without a label)."""


_FUNCTIONS = {
    "normalize-space": "normalize",
    "substring-after": "after",
    "substring-before": "before",
    "concat": "append",
}
"""The XPath string functions rules are written with, and the name of their operation in :class:`RuleParts`."""


def rule_parts(xpath: str) -> RuleParts | None:
    """Take apart a rule written by :func:`rule_xpath` or :func:`element_rule`; None for any other expression.

    The inverse of the writers above, for :mod:`journals.extraction.positions`, which reads rules without the
    XPath engine on pages shaped like one already read.
    """
    operations: list[tuple[str, str]] = []
    expression = xpath
    while not (expression.startswith("(") and expression.endswith(")[1]")):
        name, _, rest = expression.partition("(")
        if name not in _FUNCTIONS or not rest.endswith(")"):
            return None
        arguments = _arguments(rest[:-1])
        if not arguments:
            return None
        literals = [literal for a in arguments[1:] if (literal := _literal_value(a)) is not None]
        if len(literals) != len(arguments) - 1 or len(literals) != (0 if name == "normalize-space" else 1):
            return None
        operations.append((_FUNCTIONS[name], literals[0] if literals else ""))
        expression = arguments[0]
    nodes = expression[1:-4]
    start = nodes.find("[text()[")
    if start < 0:
        return RuleParts(nodes, tuple(reversed(operations)), "", ("", ""))
    end = _closing(nodes, start + len("[text()["))
    if end is None:
        return None
    test = _label_test(nodes[start + len("[text()[") : end])
    if test is None:
        return None
    return RuleParts(nodes, tuple(reversed(operations)), nodes[: end + 2], test)


def _label_test(predicate: str) -> tuple[str, str] | None:
    """``normalize-space()='x'`` → ("equals", "x"); ``starts-with(normalize-space(), 'x')`` → ("starts", "x");
    ``contains(., 'x')`` → ("contains", "x"); ``contains(., 'x') and not(…)``, written by :func:`_label_anchor`
    for a label longer labels hold → ("contains_unqualified", "x") (:func:`first_is_qualified`)."""
    head, joiner, rest = predicate.partition(" and not(")
    if joiner:
        test = _label_test(head)
        if test is None or test[0] != "contains" or not rest.endswith(")"):
            return None
        qualifiers = default_matcher().qualifiers(test[1])
        if not qualifiers or rest[:-1] != _qualified(test[1].lower(), qualifiers):
            return None
        return "contains_unqualified", test[1]
    for prefix, suffix, kind in (
        ("normalize-space()=", "", "equals"),
        ("starts-with(normalize-space(), ", ")", "starts"),
        ("contains(., ", ")", "contains"),
    ):
        if predicate.startswith(prefix) and predicate.endswith(suffix):
            text = _literal_value(predicate[len(prefix) : len(predicate) - len(suffix)])
            if text is not None:
                return kind, text
    return None


def _scan(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of ``text`` outside string literals."""
    quote = ""
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        else:
            yield index, char


def _arguments(text: str) -> list[str]:
    """A function call's arguments (the text between its parentheses), split at top-level commas."""
    arguments, depth, start = [], 0, 0
    for index, char in _scan(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[start:index].strip())
            start = index + 1
    arguments.append(text[start:].strip())
    return arguments


def _closing(text: str, start: int) -> int | None:
    """Index of the ``]`` closing the bracket open just before ``start``."""
    depth = 1
    for index, char in _scan(text[start:]):
        depth += char in "(["
        depth -= char in ")]"
        if depth == 0:
            return start + index
    return None


def _literal_value(text: str) -> str | None:
    """The string an XPath literal written by :func:`literal` stands for; None for anything else."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        return text[1:-1]
    if text.startswith("concat(") and text.endswith(")"):
        arguments = _arguments(text[7:-1])
        parts = [part for a in arguments if (part := _literal_value(a)) is not None]
        return "".join(parts) if len(parts) == len(arguments) else None
    return None
