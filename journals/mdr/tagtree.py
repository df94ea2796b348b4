"""The tag tree MDR works on: the page's elements in preorder, without scripts, styles, comments or PIs.

Nodes are numbered in preorder, so the tag string of a node's subtree, and of any run of adjacent siblings,
is one contiguous slice of a single page-wide string with one character per start tag. No recursion
anywhere: deeply nested pages only cost their size.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

import lxml.html
from lxml import etree

IGNORED_TAGS = frozenset({"script", "style", "noscript", "template"})
"""Elements left out of the tag tree together with their subtrees (their text is no record's content)."""

OPAQUE_TAGS = frozenset({"svg", "math"})
"""Elements kept as leaves: an icon's or a formula's drawing (10% of today's elements) is no record structure."""

_TOKEN_BASE = 0x100  # one character per tag name, outside ASCII so no tag can look like another


def parse_html(html: str | bytes) -> etree._Element | None:
    """Parse a page the way ``lxml.html`` does; ``None`` for an empty document.

    A ``str`` carrying an XML encoding declaration, which lxml refuses, is parsed as its UTF-8 bytes.
    """
    try:
        try:
            return lxml.html.document_fromstring(html, parser=_PARSER)
        except ValueError:
            if not isinstance(html, str):
                raise
            return lxml.html.document_fromstring(html.encode("utf-8"), parser=_UTF8_PARSER)
    except etree.ParserError:  # the UTF-8 retry can find the document empty too ('<?xml encoding=""')
        return None


_FAST = {"collect_ids": False, "default_doctype": False}
"""Parser options that leave the elements, their text and so their XPaths alone: no hash table of ``id``
attributes and no made-up DOCTYPE node (together 7–10% off libxml2's parse)."""
_PARSER = etree.HTMLParser(**_FAST)
"""``lxml.html``'s parser without its Python element-class lookup (plain ``_Element`` proxies, 4× cheaper
to create) and with :data:`_FAST`: the same libxml2 parse, so the same tree and the same XPaths."""
_UTF8_PARSER = etree.HTMLParser(encoding="utf-8", **_FAST)


@dataclass
class TagTree:
    """The elements of a page in preorder, with what MDR needs to know about each.

    Node ``i`` is ``elements[i]``; its subtree is nodes ``i`` to ``ends[i] - 1`` and its tag string is
    ``tokens[i:ends[i]]``. The siblings ``a..b`` (node numbers) have the tag string ``tokens[a:ends[b]]``.
    """

    elements: list[etree._Element]
    """The lxml elements, in document order; never modified (empty when built without them)."""
    tokens: str
    """One character per element (its tag name), in preorder."""
    ends: list[int]
    """Per node, one past the last node of its subtree."""
    children: list[list[int]]
    """Per node, its child nodes."""
    heights: list[int]
    """Per node, the height of its subtree: 1 for a leaf, 2 when its children are all leaves, …"""
    _piece_keys: list[int] | None = field(default=None, repr=False)
    """The sort keys of the page's text pieces (see :meth:`_index_text`), once :meth:`text` needs them."""
    _key_size: int = field(default=0, repr=False)
    """The ``m`` of the sort keys (see :meth:`_index_text`)."""
    _pieces: list[str] = field(default_factory=list, repr=False)
    """The page's text pieces in document order."""
    _piece_ends: list[int] = field(default_factory=list, repr=False)
    """Characters in the pieces before each piece (one more entry than pieces)."""
    _tag_names: dict[str, str] = field(default_factory=dict, repr=False)
    """The tag name of each token character."""
    _paths: dict[int, str] = field(default_factory=dict, repr=False)
    """Absolute XPaths computed so far, per node (the root's from lxml itself)."""

    parents: list[int] = field(default_factory=list, repr=False)
    """Per node, its parent node (-1 for the root)."""
    extra_text: dict[int, list[str]] = field(default_factory=dict, repr=False)
    """Per node, the tails of left-out children (comments, scripts, …) before its first kept child."""
    extra_tail: dict[int, list[str]] = field(default_factory=dict, repr=False)
    """Per node, the tails of left-out siblings (comments, scripts, …) between it and its next kept sibling."""
    _texts: list[str | None] = field(default_factory=list, repr=False)
    """Per node, lxml's ``text``, read while :meth:`build` walks the tree (the element is in the cache then)."""
    _tails: list[str | None] = field(default_factory=list, repr=False)
    """Per node, lxml's ``tail``, read the same way."""

    @classmethod
    def build(cls, root: etree._Element, keep_elements: bool = True) -> TagTree:
        """Build the tag tree of ``root`` and everything under it, in one pass without recursion.

        lxml's own preorder iteration does the walk; a node's parent is found by identity (lxml keeps
        one proxy per live element), an element whose parent was left out is left out with it, and the
        subtree ends and heights come from one pass backwards over the preorder. Each element's text and
        tail are read on the way, while lxml's node is in the cache (a later pass over the elements costs
        more). Tags, text and XPaths need no lxml element afterwards: with ``keep_elements=False``,
        :attr:`elements` is left empty and lxml's tree can be freed as soon as the tag tree is built.
        """
        elements: list[etree._Element] = [root]
        tags: list[str] = [root.tag]
        parents: list[int] = [-1]
        left_out_tails: list[tuple[int, int, str]] = []  # (parent, last node so far, tail)
        index: dict[etree._Element, int] = {root: 0}
        texts: list[str | None] = [root.text]
        tails: list[str | None] = [root.tail]
        add_element, add_tag, add_parent = elements.append, tags.append, parents.append
        add_text, add_tail = texts.append, tails.append
        node = 0
        iterator = root.iter()
        next(iterator)
        for element in iterator:
            parent = index.get(element.getparent())
            if parent is None:  # inside a left-out element
                continue
            tag = element.tag
            if tag.__class__ is not str or tag in IGNORED_TAGS:
                tail = element.tail
                if tail:  # the text after a comment, a script, … still belongs where it stands
                    left_out_tails.append((parent, node, tail))
                continue
            node += 1
            if tag not in OPAQUE_TAGS:
                index[element] = node
            add_element(element)
            add_tag(tag)
            add_parent(parent)
            add_text(element.text)
            add_tail(element.tail)
        size = len(elements)
        children: list[list[int]] = [[] for _ in range(size)]
        for node in range(1, size):
            children[parents[node]].append(node)
        sizes = [1] * size
        heights = [1] * size
        for node in range(size - 1, 0, -1):
            parent = parents[node]
            sizes[parent] += sizes[node]
            if heights[parent] <= heights[node]:
                heights[parent] = heights[node] + 1
        extra_text, extra_tail = _place_tails(left_out_tails, children)
        ends = [node + subtree for node, subtree in enumerate(sizes)]
        tag_chars = {tag: chr(_TOKEN_BASE + number) for number, tag in enumerate(dict.fromkeys(tags))}
        token_chars = map(tag_chars.__getitem__, tags)
        tree = cls(elements if keep_elements else [], "".join(token_chars), ends, children, heights)
        tree.parents, tree.extra_text, tree.extra_tail = parents, extra_text, extra_tail
        tree._paths[0] = root.getroottree().getpath(root)
        tree._tag_names = {char: tag for tag, char in tag_chars.items()}
        tree._texts, tree._tails = texts, tails
        return tree

    def tag(self, node: int) -> str:
        """The tag name of a node."""
        return self._tag_names[self.tokens[node]]

    def xpath(self, node: int) -> str:
        """The absolute XPath of a node, exactly as ``getroottree().getpath()`` writes it, in time linear in
        the page: libxml2 counts an element's same-named siblings on each call, which is quadratic over
        50,000 siblings; here each parent's children are numbered once (from the tag tree, without lxml)
        and every path is kept."""
        paths = self._paths
        path = paths.get(node)
        if path is not None:  # mostly: a record's siblings were numbered with it
            return path
        parents = self.parents
        missing = [node]
        while parents[missing[-1]] not in paths:
            missing.append(parents[missing[-1]])
        for ancestor in reversed(missing):
            if ancestor not in paths:
                _number_children(self, parents[ancestor])
        return paths[node]

    def text(self, node: int) -> str:
        """The visible text of a node's subtree, whitespace collapsed (scripts, styles, comments left out).

        Text pieces are joined with a space: adjacent cells and fields stay apart. Whitespace is collapsed
        by ``split()`` and ``join`` (the same whitespace as the regex ``\\s+``, and faster).
        """
        first, last = self._piece_range(node)
        return " ".join(" ".join(self._pieces[first:last]).split())

    def text_bound(self, node: int) -> int:
        """An upper bound of ``len(self.text(node))``, cheaply: 0 exactly when the node has no text.

        :meth:`_piece_range` written inline: MDR asks this of every record of every region.
        """
        keys = self._piece_keys if self._piece_keys is not None else self._index_text()
        size = self._key_size
        first = bisect_left(keys, node * size + size - 1)
        last = bisect_left(keys, self.ends[node] * size + size - 1 - node)
        piece_ends = self._piece_ends
        return piece_ends[last] - piece_ends[first] + last - first

    def _piece_range(self, node: int) -> tuple[int, int]:
        keys = self._piece_keys if self._piece_keys is not None else self._index_text()
        size = self._key_size
        return (
            bisect_left(keys, node * size + size - 1),
            bisect_left(keys, self.ends[node] * size + size - 1 - node),
        )

    def _index_text(self) -> list[int]:
        """Lay the page's text pieces out in document order once, each under a sort key.

        With ``n`` nodes and ``m = n + 1``, node ``j``'s text has the key ``j*m + n`` and its tail, which comes
        after its whole subtree (just before node ``ends[j]``, innermost first), ``ends[j]*m + n - j``. A
        node's text is then the pieces from its text's key up to, not including, its tail's key: two binary
        searches. Pieces of whitespace only are left out (they would collapse into the joining spaces).
        """
        ends = self.ends
        texts, tails = self._texts, self._tails
        for pieces_of, extra in ((texts, self.extra_text), (tails, self.extra_tail)):
            for node, more in extra.items():
                pieces_of[node] = " ".join(filter(None, [pieces_of[node], *more]))
        last = len(ends)
        size = last + 1
        keyed = [(node * size + last, text) for node, text in enumerate(texts) if text and not text.isspace()]
        keyed += [
            (ends[node] * size + last - node, tail) for node, tail in enumerate(tails) if tail and not tail.isspace()
        ]
        keyed.sort()
        self._piece_keys = [key for key, _ in keyed]
        self._pieces = [piece for _, piece in keyed]
        self._piece_ends = [0, *accumulate(map(len, self._pieces))]
        self._key_size = size
        return self._piece_keys


def _place_tails(
    left_out_tails: list[tuple[int, int, str]], children: list[list[int]]
) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Where the tails of left-out elements go: each ``(parent, last node so far, tail)`` after the parent's
    last kept child so far, else into the parent's text. Returns the extra texts and the extra tails."""
    extra_text: dict[int, list[str]] = {}
    extra_tail: dict[int, list[str]] = {}
    for parent, last, tail in left_out_tails:
        siblings = children[parent]
        before = bisect_right(siblings, last)
        if before:
            extra_tail.setdefault(siblings[before - 1], []).append(tail)
        else:
            extra_text.setdefault(parent, []).append(tail)
    return extra_text, extra_tail


def _number_children(tree: TagTree, parent: int) -> None:
    """Cache the paths of all children of ``parent`` (``tag[n]``, or ``tag`` when unique).

    The tree's children of a node are all its element children but the left-out ones, whose tags no kept
    element has: the same-named siblings ``getpath`` counts are the same.
    """
    siblings = tree.children[parent]
    tags = list(map(tree.tag, siblings))
    totals: dict[str, int] = {}
    for tag in tags:
        totals[tag] = totals.get(tag, 0) + 1
    seen: dict[str, int] = {}
    parent_path, paths = tree._paths[parent], tree._paths
    for child, tag in zip(siblings, tags, strict=True):
        seen[tag] = seen.get(tag, 0) + 1
        paths[child] = f"{parent_path}/{tag}[{seen[tag]}]" if totals[tag] > 1 else f"{parent_path}/{tag}"
