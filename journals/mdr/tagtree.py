"""The tag tree MDR works on: the page's elements in preorder, without scripts, styles, comments or PIs.

Nodes are numbered in preorder, so the tag string of a node's subtree, and of any run of adjacent siblings,
is one contiguous slice of a single page-wide string with one character per start tag. No recursion
anywhere: deeply nested pages only cost their size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

IGNORED_TAGS = frozenset({"script", "style", "noscript", "template"})
"""Elements left out of the tag tree together with their subtrees (their text is no record's content)."""

_TOKEN_BASE = 0x100  # one character per tag name, outside ASCII so no tag can look like another
_SPACES = re.compile(r"\s+")


def parse_html(html: str | bytes) -> etree._Element | None:
    """Parse a page the way ``lxml.html`` does; ``None`` for an empty document.

    A ``str`` carrying an XML encoding declaration, which lxml refuses, is parsed as its UTF-8 bytes.
    """
    try:
        return lxml.html.document_fromstring(html)
    except ValueError:
        if not isinstance(html, str):
            raise
        return lxml.html.document_fromstring(html.encode("utf-8"), parser=_UTF8_PARSER)
    except etree.ParserError:
        return None


_UTF8_PARSER = lxml.html.HTMLParser(encoding="utf-8")


def _is_tree_element(child: etree._Element) -> bool:
    tag = child.tag
    return isinstance(tag, str) and tag not in IGNORED_TAGS


@dataclass
class TagTree:
    """The elements of a page in preorder, with what MDR needs to know about each.

    Node ``i`` is ``elements[i]``; its subtree is nodes ``i`` to ``ends[i] - 1`` and its tag string is
    ``tokens[i:ends[i]]``. The siblings ``a..b`` (node numbers) have the tag string ``tokens[a:ends[b]]``.
    """

    elements: list[etree._Element]
    """The lxml elements, in document order; never modified."""
    tokens: str
    """One character per element (its tag name), in preorder."""
    ends: list[int]
    """Per node, one past the last node of its subtree."""
    children: list[list[int]]
    """Per node, its child nodes."""
    heights: list[int]
    """Per node, the height of its subtree: 1 for a leaf, 2 when its children are all leaves, …"""
    _paths: dict[etree._Element, str] = field(default_factory=dict, repr=False)
    """Absolute XPaths computed so far, per lxml element (keys keep the proxies alive, so identity holds)."""

    @classmethod
    def build(cls, root: etree._Element) -> TagTree:
        """Build the tag tree of ``root`` and everything under it, in one walk without recursion."""
        elements: list[etree._Element] = []
        token_chars: list[str] = []
        children: list[list[int]] = []
        ends: list[int] = []
        heights: list[int] = []
        tag_chars: dict[str, str] = {}
        open_nodes: list[int] = []
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, element in walker:
            tag = element.tag
            if tag.__class__ is not str or tag in IGNORED_TAGS:
                if event == "start":
                    walker.skip_subtree()
                continue
            if event == "end":
                node = open_nodes.pop()
                ends[node] = len(elements)
                if open_nodes:
                    parent = open_nodes[-1]
                    if heights[parent] <= heights[node]:
                        heights[parent] = heights[node] + 1
                continue
            node = len(elements)
            if open_nodes:
                children[open_nodes[-1]].append(node)
            open_nodes.append(node)
            elements.append(element)
            char = tag_chars.get(tag)
            if char is None:
                char = tag_chars[tag] = chr(_TOKEN_BASE + len(tag_chars))
            token_chars.append(char)
            children.append([])
            ends.append(0)
            heights.append(1)
        return cls(elements, "".join(token_chars), ends, children, heights)

    def tag(self, node: int) -> str:
        """The tag name of a node."""
        return self.elements[node].tag

    def xpath(self, node: int) -> str:
        """The absolute XPath of a node, exactly as ``getroottree().getpath()`` writes it."""
        return element_xpath(self.elements[node], self._paths)

    def text(self, node: int) -> str:
        """The visible text of a node's subtree, whitespace collapsed (scripts, styles, comments left out).

        Text pieces are joined with a space: adjacent cells and fields stay apart.
        """
        return _SPACES.sub(" ", " ".join(_iter_text(self.elements[node]))).strip()


def element_xpath(element: etree._Element, cache: dict[etree._Element, str]) -> str:
    """``getroottree().getpath(element)`` for an element, in time linear in the page.

    libxml2 counts an element's same-named siblings on each call, which is quadratic over 50,000
    siblings; here each parent's children are numbered once and every path is kept in ``cache``.
    """
    missing: list[etree._Element] = []
    current: etree._Element | None = element
    while current is not None and current not in cache:
        missing.append(current)
        current = current.getparent()
    path = cache[current] if current is not None else ""
    for ancestor in reversed(missing):
        parent = ancestor.getparent()
        if parent is None:
            path = "/" + ancestor.tag
            cache[ancestor] = path
            continue
        _number_children(parent, path, cache)
        path = cache[ancestor]
    return path


def _number_children(parent: etree._Element, parent_path: str, cache: dict[etree._Element, str]) -> None:
    """Cache the paths of all element children of ``parent`` (``tag[n]``, or ``tag`` when unique)."""
    siblings = [child for child in parent if isinstance(child.tag, str)]
    totals: dict[str, int] = {}
    for child in siblings:
        totals[child.tag] = totals.get(child.tag, 0) + 1
    seen: dict[str, int] = {}
    for child in siblings:
        tag = child.tag
        seen[tag] = seen.get(tag, 0) + 1
        step = f"{tag}[{seen[tag]}]" if totals[tag] > 1 else tag
        cache[child] = f"{parent_path}/{step}"


def _iter_text(element: etree._Element) -> list[str]:
    """Text and tails under ``element``, skipping ignored elements, comments and PIs but not their tails."""
    parts: list[str] = []
    walker = etree.iterwalk(element, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if not _is_tree_element(node):
                walker.skip_subtree()
            elif node.text:
                parts.append(node.text)
        elif node is not element and node.tail:
            parts.append(node.tail)
    return parts
