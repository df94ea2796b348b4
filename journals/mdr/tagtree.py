"""The tag tree MDR works on: the page's elements in preorder, without scripts, styles, comments or PIs.

It is built on the page's one tree (:class:`journals.pages.parsed.ParsedPage`), whose XPaths the extraction reads.

Nodes are numbered in preorder, so the tag string of a node's subtree, and of any run of adjacent siblings,
is one contiguous slice of a single page-wide string with one character per start tag. No recursion
anywhere: deeply nested pages only cost their size.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, islice
from typing import NamedTuple

from lxml import etree

IGNORED_TAGS = frozenset({"script", "style", "noscript", "template"})
"""Elements left out of the tag tree together with their subtrees (their text is no record's content)."""

OPAQUE_TAGS = frozenset({"svg", "math"})
"""Elements kept as leaves: an icon's or a formula's drawing (10% of today's elements) is no record structure."""

_NOT_NODES = IGNORED_TAGS | OPAQUE_TAGS | {etree.Comment, etree.PI, etree.Entity}
"""The tags of what the walk makes no node of, or no node with children: left-out and opaque elements, comments,
processing instructions and entity references (whose tags are lxml's factories, not names)."""



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
    _pieces: list[str] = field(default_factory=list, repr=False)
    """The page's text pieces (texts and tails with more than whitespace) in document order."""
    _piece_ends: list[int] = field(default_factory=list, repr=False)
    """Characters in the pieces before each piece (one more entry than pieces)."""
    _firsts: list[int] = field(default_factory=list, repr=False)
    """Per node, its first text piece (its own text, if any)."""
    _lasts: list[int] = field(default_factory=list, repr=False)
    """Per node, one past its last text piece (just before its own tail)."""
    _tag_names: dict[str, str] = field(default_factory=dict, repr=False)
    """The tag name of each token character."""
    _token_of: dict[str, str] = field(default_factory=dict, repr=False)
    """The token character of each tag name."""
    _paths: dict[int, str] = field(default_factory=dict, repr=False)
    """Absolute XPaths computed so far, per node (the root's from lxml itself)."""

    parents: list[int] = field(default_factory=list, repr=False)
    """Per node, its parent node (-1 for the root)."""
    branching: list[int] = field(default_factory=list, repr=False)
    """The nodes with grandchildren (TreeDepth >= 3, FindDRs' nodes), each after all its descendants."""
    _unread_at: list[int] = field(default_factory=list, repr=False)
    """Where the text the pieces leave out lies (see :meth:`reads_all_text`): per left-out element with text, or
    opaque element's children, in document order, the number of the node that follows them."""
    _unread_in: list[int] = field(default_factory=list, repr=False)
    """Per such text, the node it is inside: the left-out element's parent, the opaque element itself."""

    @classmethod
    def build(cls, root: etree._Element, keep_elements: bool = True) -> TagTree:
        """Build the tag tree of ``root`` and everything under it in one walk, without recursion (see :func:`_walk`).

        Tags, text and XPaths need no lxml element afterwards: with ``keep_elements=False``, :attr:`elements` is
        left empty, no element's proxy outlives the walk, and lxml's tree can be freed as soon as the tag tree is
        built.
        """
        walk = _walk(root, keep_elements)
        tree = cls(walk.elements, "".join(walk.tokens), walk.ends, walk.children)
        tree.parents, tree._tag_names = walk.parents, {char: tag for tag, char in walk.token_of.items()}
        tree._token_of = walk.token_of
        tree.branching = walk.branching
        tree._pieces, tree._firsts, tree._lasts = walk.pieces, walk.firsts, walk.lasts
        tree._unread_at, tree._unread_in = walk.unread_at, walk.unread_in
        tree._piece_ends = [0, *accumulate(map(len, walk.pieces))]
        tree._paths[0] = root.getroottree().getpath(root)
        return tree

    @cached_property
    def heights(self) -> list[int]:
        """Per node, the height of its subtree: 1 for a leaf, 2 when its children are all leaves, …

        Computed when first asked for (MDR itself needs only whether a node has grandchildren, which its subtree's
        size and its children tell)."""
        parents = self.parents
        heights = [1] * len(parents)
        for node in range(len(parents) - 1, 0, -1):
            parent = parents[node]
            if heights[parent] <= heights[node]:
                heights[parent] = heights[node] + 1
        return heights

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

    def within(self, tag: str) -> bytearray:
        """Per node, 1 when it is a ``tag`` element or inside one: a subtree is one run of the preorder, so each
        outermost such element marks its run at once."""
        marks = bytearray(len(self.tokens))
        char = next((c for c, name in self._tag_names.items() if name == tag), None)
        if char is None:
            return marks
        tokens, ends = self.tokens, self.ends
        start = tokens.find(char)
        while start >= 0:
            marks[start : ends[start]] = b"\x01" * (ends[start] - start)
            start = tokens.find(char, ends[start])
        return marks

    def nodes_by_path(self) -> dict[str, int]:
        """The nodes whose :meth:`xpath` was asked for so far (and their siblings), by that path: a mined record's
        elements are found again without a path for every node of the page."""
        return {path: node for node, path in self._paths.items()}

    def text(self, node: int) -> str:
        """The visible text of a node's subtree, whitespace collapsed (scripts, styles, comments left out).

        Text pieces are joined with a space: adjacent cells and fields stay apart. Whitespace is collapsed
        by ``split()`` and ``join`` (the same whitespace as the regex ``\\s+``, and faster).
        """
        return " ".join(" ".join(self._pieces[self._firsts[node] : self._lasts[node]]).split())

    def reads_all_text(self, node: int) -> bool:
        """Whether the node's pieces are all the text lxml's ``itertext()`` gives of its element, but pieces of
        whitespace alone: no script, style or other left-out element with text, and no opaque element with
        children, inside it (their text is no piece). Then :meth:`text` is its ``itertext()`` joined with spaces,
        whitespace collapsed, without lxml reading its texts again. Comments and processing instructions do not
        count: ``itertext()`` leaves their text out too, and keeps their tails as the pieces do."""
        at = self._unread_at
        first = bisect_left(at, node + 1)
        end = self.ends[node]
        last = bisect_right(at, end, first)
        return first == last or not any(node <= parent < end for parent in self._unread_in[first:last])

    def nodes_of(self, tag: str, node: int) -> list[int]:
        """The ``tag`` nodes of the node's subtree (itself included), in preorder: its run of the tokens searched
        for the tag's character."""
        char = self._token_of.get(tag)
        if char is None:
            return []
        tokens, end = self.tokens, self.ends[node]
        found = []
        at = tokens.find(char, node, end)
        while at >= 0:
            found.append(at)
            at = tokens.find(char, at + 1, end)
        return found

    def ancestor(self, tag: str, node: int) -> int:
        """The nearest ``tag`` node above ``node``, -1 when none is."""
        char = self._token_of.get(tag)
        if char is None:
            return -1
        tokens, parents = self.tokens, self.parents
        node = parents[node]
        while node >= 0 and tokens[node] != char:
            node = parents[node]
        return node

    def children_of(self, node: int, tags: tuple[str, ...]) -> list[int]:
        """The node's children of these tags, in order."""
        chars = {self._token_of[tag] for tag in tags if tag in self._token_of}
        tokens = self.tokens
        return [child for child in self.children[node] if tokens[child] in chars]

    def pieces(self, node: int) -> list[str]:
        """The node's text pieces, in document order (texts and tails with more than whitespace)."""
        return self._pieces[self._firsts[node] : self._lasts[node]]

    def text_bound(self, node: int) -> int:
        """An upper bound of ``len(self.text(node))``, cheaply: 0 exactly when the node has no text."""
        first, last = self._firsts[node], self._lasts[node]
        piece_ends = self._piece_ends
        return piece_ends[last] - piece_ends[first] + last - first


class _Walk(NamedTuple):
    """What one walk of the tree reads (see :func:`_walk`), per node in preorder unless said otherwise."""

    elements: list[etree._Element]
    tokens: list[str]
    """Per node, its tag name's character: the n-th tag name met is chr(n), so a page's tokens fit one byte each
    (up to 256 names) and slicing, comparing and rapidfuzz's distance work on the narrowest strings."""
    token_of: dict[str, str]
    """The character of each tag name (not per node)."""
    parents: list[int]
    children: list[list[int]]
    ends: list[int]
    pieces: list[str]
    """The text pieces, in document order (not per node)."""
    firsts: list[int]
    lasts: list[int]
    branching: list[int]
    """The nodes with grandchildren, in the order they end (not per node)."""
    unread_at: list[int]
    """Per text that is no piece (see :attr:`TagTree._unread_at`), the number of the node that follows it."""
    unread_in: list[int]
    """Per such text, the node it is inside."""


def _walk(root: etree._Element, keep_elements: bool) -> _Walk:  # noqa: PLR0912, PLR0915  # one loop, all local
    """The kept elements under ``root`` in preorder, their tags, parents, children and subtree ends, and the
    page's text, in one pass of lxml's preorder iterator (``iter``: one step per node, no end events).

    The nodes still open are kept on a stack with the children each has left to come (``len`` counts an element's
    children, comments and processing instructions included, exactly the nodes ``iter`` yields under it), so a
    node's parent is the top of the stack when it comes, and its subtree end and last text piece are known once its
    last child is done. A left-out element (script, style, …) or an opaque one (svg, math) has the nodes under it
    passed over without a look. Texts and tails are laid out in document order: a node's text when it comes, its
    tail when it is done, so a node's text is one slice of the pieces. The tail of a comment, a script, … still
    belongs where it stands; pieces of whitespace only are left out (they would collapse into the joining spaces).
    One loop with everything local: it runs once per node.
    """
    token_of = {root.tag: "\x00"}
    walk = _Walk([root] if keep_elements else [], ["\x00"], token_of, [-1], [[]], [0], [], [0], [0], [], [], [])
    elements, tokens, _, parents, children, ends, pieces, firsts, lasts, branching, unread_at, unread_in = walk
    grandparents: set[int] = set()  # the open nodes with a child that has children
    text = root.text
    if text and not text.isspace():
        pieces.append(text)
    # counted, not measured: a count is read far more often than it grows, and the same int is stored each time
    piece_count, size = len(pieces), 1
    nodes = root.iter()
    next(nodes)  # the root
    # per open node but the innermost: its node, element, children left to come and children so far
    open_nodes: list[tuple[int, etree._Element, int, list[int]]] = []
    current, current_element, left, siblings = 0, root, len(root), children[0]
    for element in nodes:
        left -= 1
        tag = element.tag
        if tag in _NOT_NODES:
            if len(element):  # pass over what is under it
                under = sum(1 for _ in element.iter()) - 1
                next(islice(nodes, under - 1, under), None)
                if tag in OPAQUE_TAGS:  # its children's text is no piece: they are inside its node
                    unread_at.append(size + 1)
                    unread_in.append(size)
                else:
                    unread_at.append(size)
                    unread_in.append(current)
            elif tag is etree.Entity or (tag in IGNORED_TAGS and (text := element.text) and not text.isspace()):
                unread_at.append(size)
                unread_in.append(current)
            count = 0 if tag in OPAQUE_TAGS else -1  # an opaque element is a leaf, the others no node
        else:
            count = len(element)
        if count >= 0:
            siblings.append(size)
            parents.append(current)
            if keep_elements:
                elements.append(element)
            try:
                tokens.append(token_of[tag])
            except KeyError:  # a tag name met for the first time
                token_of[tag] = chr(len(token_of))
                tokens.append(token_of[tag])
            firsts.append(piece_count)
            text = element.text
            if text and not text.isspace():
                pieces.append(text)
                piece_count += 1
            if count:  # opened: done when its last child is
                open_nodes.append((current, current_element, left, siblings))
                current, current_element, left = size, element, count
                size += 1
                siblings = []
                children.append(siblings)
                ends.append(0)
                lasts.append(0)
                continue
            size += 1
            children.append([])
            ends.append(size)
            lasts.append(piece_count)
        text = element.tail  # of a leaf, a comment, a processing instruction or a left-out element
        if text and not text.isspace():
            pieces.append(text)
            piece_count += 1
        while not left:  # the innermost open node is done, and maybe its parent with it
            ends[current] = size
            lasts[current] = piece_count
            if current in grandparents:
                branching.append(current)
            if not current:  # the root's own tail is no text of the tree
                break
            text = current_element.tail
            if text and not text.isspace():
                pieces.append(text)
                piece_count += 1
            has_children = size > current + 1
            current, current_element, left, siblings = open_nodes.pop()
            if has_children:
                grandparents.add(current)
    if not left and not current:  # a root without children
        ends[0], lasts[0] = size, piece_count
    return walk


def _number_children(tree: TagTree, parent: int) -> None:
    """Cache the paths of all children of ``parent`` (``tag[n]``, or ``tag`` when unique).

    The tree's children of a node are all its element children but the left-out ones, whose tags no kept
    element has: the same-named siblings ``getpath`` counts are the same.
    """
    siblings = tree.children[parent]
    parent_path, paths = tree._paths[parent], tree._paths
    chars = list(map(tree.tokens.__getitem__, siblings))
    if len(chars) > 1 and chars.count(chars[0]) == len(chars):  # one tag for all (a list's items): numbered in turn
        prefix = f"{parent_path}/{tree._tag_names[chars[0]]}["
        paths.update(zip(siblings, [f"{prefix}{number}]" for number in range(1, len(chars) + 1)], strict=True))
        return
    tags = list(map(tree._tag_names.__getitem__, chars))
    totals = Counter(tags)
    seen: dict[str, int] = {}
    for child, tag in zip(siblings, tags, strict=True):
        if totals[tag] > 1:
            seen[tag] = number = seen.get(tag, 0) + 1
            paths[child] = f"{parent_path}/{tag}[{number}]"
        else:
            paths[child] = f"{parent_path}/{tag}"
