"""Learned rules read by position: the fast path on pages shaped like a page the rules have already read.

A template's rules are XPath expressions anchored on labels, so that a row left out or moved does not shift a
value onto its neighbour. On a small page, evaluating them and naming the page's template cost more than the
page's parse. Once the rules have read a page, where they landed is known: a chain of child positions from the
root to each label and value. :func:`compile_reader` turns those chains into a :class:`PositionalReader`, which
reads a later page by walking the same chains (a step is far cheaper than an XPath) and checking, on the way, the
shape it relies on:

- every element on a chain has the child count it had (a row added or left out anywhere on the way fails);
- every element the rule names by tag (a label's ``dt``, the title's ``h1``) has that tag, and every label its
  text (a label's text node equal to the one read, or passing the rule's own test for a value written inside
  the label's text: "ISSN: 1234-5679");
- the title is where it was, and the children of the elements the template signature reads have their tags
  and classes (see :func:`compile_reader`).

A page that fails any check is read by the rules themselves. The reader is built when the rules read a page
right and kept only if it returns exactly what the rules returned there; :class:`~journals.extraction.templates.
LearnedRules` also audits one read in :data:`AUDIT_EVERY` against the rules and drops a reader that disagrees.

Why generated code: the checks and steps are written out as one straight-line Python function per page shape
(the way :mod:`dataclasses` writes ``__init__``), because interpreting a list of steps in a loop costs several
times more per step than the step itself. The generated source holds only integers and ``repr``'d strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from lxml import etree

from journals.extraction.xpaths import first_is_qualified, rule_parts

AUDIT_EVERY = 64
"""One positional read in this many is checked against the rules' own XPath evaluation."""
AUDITED_FIRST_READS = 2
"""A new reader's first reads are all checked: it was made on one page, and must read others as the rules do."""
MAX_CHECKED_CHILDREN = 256
"""A template parent with more children than this gets no reader (its pages are read by the rules): a reader
checks every one of them, and a page of 50,000 siblings would make a function of 100,000 lines."""

Read = Callable[[etree._Element], "tuple[str, ...] | None"]
"""A reader's function: the rules' texts on a page (``""`` where a rule finds nothing), None if the shape differs."""

_XML_SPACE = re.compile(r"[ \t\r\n]+")
_STRING = etree.XPath("string()", smart_strings=False)


def normalize_space(text: str) -> str:
    """XPath's ``normalize-space()``: XML whitespace collapsed and stripped (ASCII text split the quick way)."""
    if text.isascii():
        return " ".join(text.split())
    return _XML_SPACE.sub(" ", text).strip(" \t\r\n")


def substring_after(text: str, marker: str) -> str:
    """XPath's ``substring-after()``."""
    at = text.find(marker)
    return "" if at < 0 else text[at + len(marker) :]


def substring_before(text: str, marker: str) -> str:
    """XPath's ``substring-before()``."""
    at = text.find(marker)
    return "" if at < 0 else text[:at]


def _names_its_tag(nodes: str) -> bool:
    """Whether a rule's node path ends in an element step that names a tag (``…/h1``), not ``*``."""
    steps = nodes.split("/")
    step = steps[-2] if steps[-1].startswith("text()") and len(steps) > 1 else steps[-1]
    return not step.split("::")[-1].startswith("*")


class PositionalReader:
    """One page shape's reader of a template's rules (see the module's docstring)."""

    __slots__ = ("read", "source", "unaudited")

    def __init__(self, read: Read, source: str) -> None:
        self.read = read
        """The rules' texts on a page of this shape, in the rules' order; None when the page has another shape."""
        self.source = source
        """The generated Python source of :attr:`read`, for reading and debugging."""
        self.unaudited = AUDITED_FIRST_READS
        """How many of its next reads are still checked against the rules before it is trusted."""


def compile_reader(
    root: etree._Element,
    xpaths: Mapping[str, str],
    title: etree._Element | None = None,
    template_parents: Iterable[etree._Element] = (),
) -> PositionalReader | None:
    """A reader of ``xpaths`` for pages shaped like ``root``; None when a rule cannot be read by position.

    ``title`` and ``template_parents`` are what names the page's template (see :func:`~journals.extraction.
    templates.signature_parents`): the reader also checks that ``title`` is where it was and the tag and class
    of every child of each template parent, so that it reads pages of its own template only. Child counts and
    labels alone are not enough: a home page whose metrics sit on another page (``main`` holding the header and
    a link) has the counts and labels of the header of a home page that shows its metrics (the header and a
    ``section``), and its reader would read the latter without its metrics.
    """
    writer = _ReaderWriter(root)
    texts = []
    for xpath in xpaths.values():
        text = writer.rule_text(xpath)
        if text is None:
            return None
        texts.append(text)
    if title is not None and writer.reach(title, check_tag=True, leaf_count=False) is None:
        return None
    if not all(writer.check_children(parent) for parent in template_parents):
        return None
    lines = ["def read(n0):", *writer.lines, f"    return ({''.join(t + ', ' for t in texts)})"]
    source = "\n".join(lines)
    namespace: dict[str, Any] = {
        "_normalize": normalize_space,
        "_qualified": first_is_qualified,
        "_after": substring_after,
        "_before": substring_before,
        "_string": _STRING,
        **writer.evaluated,
    }
    exec(compile(source, "<positional reader>", "exec"), namespace)
    return PositionalReader(namespace["read"], source)


class _ReaderWriter:
    """Writes a reader's lines: one register per element reached, its checks beside it."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.registers: dict[Any, str] = {root: "n0"}
        self.lines = [f"    if len(n0) != {len(root)}: return None"]
        self.tags_checked: set[str] = set()
        self.counted: set[str] = {"n0"}
        self.evaluated: dict[str, etree.XPath] = {}
        """Rules evaluated by the XPath engine, by the name the reader calls them."""

    def _evaluated(self, xpath: str) -> str:
        """The expression of a rule's text as the XPath engine evaluates it."""
        name = f"_rule{len(self.evaluated)}"
        self.evaluated[name] = etree.XPath(xpath, smart_strings=False)
        return f"str({name}(n0))"

    def rule_text(self, xpath: str) -> str | None:
        """The expression of one rule's text, its label checked; None when it cannot be read by position."""
        parts = rule_parts(xpath)
        if parts is None:
            return None
        try:
            found = self.root.xpath(parts.nodes)
            labels = self.root.xpath(parts.label) if parts.label else []
        except etree.XPathError:
            return None
        if not isinstance(found, list):
            return None
        if not found:
            # A row left out here: that it is absent elsewhere too cannot be told from positions (a text node
            # holding "eISSN: x" alone on this page may hold "ISSN: y · eISSN: x" on the next), so the rule
            # itself is evaluated.
            return self._evaluated(xpath)
        text = self._node_text(found[0], _names_its_tag(parts.nodes))
        if text is None or (parts.label and not self._check_label(labels[0], parts.test)):
            return None
        for operation, argument in parts.operations:
            if operation == "normalize":
                text = f"_normalize({text})"
            elif operation == "after":
                text = f"_after({text}, {argument!r})"
            elif operation == "before":
                text = f"_before({text}, {argument!r})"
            else:
                text = f"({text} + {argument!r})"
        return text

    def _node_text(self, node: object, check_tag: bool) -> str | None:
        """The expression of a node's string value: an element's text, or one text node (a text or a tail)."""
        if isinstance(node, etree._Element):
            register = self.reach(node, check_tag=check_tag)
            if register is None:
                return None
            return f"({register}.text or '')" if len(node) == 0 else f"_string({register})"
        owner = getattr(node, "getparent", lambda: None)()
        if owner is None or not (node.is_text or node.is_tail):  # type: ignore[attr-defined]
            return None
        register = self.reach(owner, check_tag=check_tag)
        if register is None:
            return None
        return f"({register}.text or '')" if node.is_text else f"({register}.tail or '')"  # type: ignore[attr-defined]

    def check_children(self, parent: Any) -> bool:
        """Write the checks of the tag and class of every child of ``parent``; False outside the root or past
        :data:`MAX_CHECKED_CHILDREN`."""
        register = self.reach(parent, check_tag=True)
        if register is None or len(parent) > MAX_CHECKED_CHILDREN:
            return False
        for index, child in enumerate(parent):
            if isinstance(child.tag, str):
                self.lines.append(f"    c = {register}[{index}]")
                self.lines.append(
                    f"    if c.tag != {child.tag!r} or c.get('class') != {child.get('class')!r}: return None"
                )
        return True

    def _check_label(self, label: Any, test: tuple[str, str]) -> bool:
        """Write the check that ``label`` still holds its label text; False when no text node of it passes."""
        if not isinstance(label, etree._Element):
            return False
        register = self.reach(label, check_tag=True, leaf_count=False)
        if register is None:
            return False
        kind, wanted = test
        slots = [(f"{register}.text", label.text)]
        if len(label) and register not in self.counted:  # its children's tails are read: their number matters
            self.counted.add(register)
            self.lines.append(f"    if len({register}) != {len(label)}: return None")
        slots += [(f"{register}[{i}].tail", child.tail) for i, child in enumerate(label)]
        for expression, text in slots:
            if text is None:
                continue
            if kind == "equals" and normalize_space(text) == wanted:
                self.lines.append(f"    if {expression} != {text!r}: return None")
                return True
            if kind == "starts" and normalize_space(text).startswith(wanted):
                self.lines.append(f"    t = {expression}")
                self.lines.append(f"    if t is None or not _normalize(t).startswith({wanted!r}): return None")
                return True
            if kind == "contains" and wanted in text:
                self.lines.append(f"    t = {expression}")
                self.lines.append(f"    if t is None or {wanted!r} not in t: return None")
                return True
            if kind == "contains_unqualified" and wanted in text and not first_is_qualified(text, wanted):
                self.lines.append(f"    t = {expression}")
                self.lines.append(
                    f"    if t is None or {wanted!r} not in t or _qualified(t, {wanted!r}): return None"
                )
                return True
        return False

    def reach(self, element: Any, check_tag: bool, leaf_count: bool = True) -> str | None:
        """The register holding ``element``, written with its path from the root; None outside the root.

        Every element on the path has its child count checked; ``element`` itself too when ``leaf_count`` (a
        value read as ``.text`` must still have no children; a label's text does not care), and its tag when
        ``check_tag`` (the rule names it: a label's ``dt``, the title's ``h1``; not a value's ``*``)."""
        chain = []
        node = element
        while node not in self.registers:
            parent = node.getparent()
            if parent is None:
                return None
            chain.append((parent, node))
            node = parent
        for parent, child in reversed(chain):
            register = f"n{len(self.registers)}"
            self.registers[child] = register
            self.lines.append(f"    {register} = {self.registers[parent]}[{parent.index(child)}]")
            if child is not element or leaf_count:
                self.counted.add(register)
                self.lines.append(f"    if len({register}) != {len(child)}: return None")
        register = self.registers[element]
        if leaf_count and register not in self.counted:
            self.counted.add(register)
            self.lines.append(f"    if len({register}) != {len(element)}: return None")
        tag = element.tag
        if check_tag and register not in self.tags_checked and isinstance(tag, str):
            self.tags_checked.add(register)
            self.lines.append(f"    if {register}.tag != {tag!r}: return None")
        return register
