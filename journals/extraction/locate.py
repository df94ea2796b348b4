"""Find each labelled value on a page: the paper's leaf-text heuristic, with the value wherever it sits.

A label is a whole text node ("Impact Factor") or a phrase inside one ("The journal's 2024 Impact Factor is
4.117", "Print ISSN: x | Online ISSN: y", "x (online)"). Its value is cut from the same text node when it is
there, else it is the nearest text node that parses as the attribute's type: the next one (``dd`` after
``dt``, ``td`` after ``th``, a child, the parent's next cell) or the one before (value before label),
whichever is closer in the tree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from journals.domain.numbers import YEAR_IN_BRACKETS
from journals.domain.parsed import Parsed
from journals.extraction.content import TextNode
from journals.extraction.labels import LabelHit, LabelMatcher
from journals.extraction.values import TYPED, count_issns, parse_value
from journals.vocabulary import Attribute, normalise_label

MAX_TREE_DISTANCE = 4
"""How far (edges in the DOM tree) a value may sit after its label."""
MAX_BACKWARD_DISTANCE = 2
"""How far a value may sit before its label: in the same element or a sibling, never in the previous row."""
FORWARD_LOOKAHEAD = 2


@dataclass(frozen=True)
class Candidate:
    """A value found for an attribute, with what the rule learner needs to find it again."""

    attribute: str
    parsed: Parsed
    label_node: TextNode
    label_text: str
    """The label as the page writes it: the whole node's text, or the phrase inside it."""
    value_node: TextNode
    mode: str
    """``node`` (the value is its own text node) or ``after``/``before`` (in the label's node)."""
    position: int
    """Index of the label's text node in document order."""
    bound: str = ""
    """For ``after``: the next label in the same node, where the value's text ends."""
    pair_separator: str = ""
    """Set when the value is the second of two ISSNs under one plain "ISSN" label: the text between them."""


def tree_distance(a: etree._Element, b: etree._Element) -> int:
    """Edges between two elements of one tree."""
    if a is b:
        return 0
    up_a = [a, *a.iterancestors()]
    index = {id(e): i for i, e in enumerate(up_a)}
    for depth, ancestor in enumerate([b, *b.iterancestors()]):
        if id(ancestor) in index:
            return depth + index[id(ancestor)]
    return 1 << 16


class Locator:
    """Match text nodes against labels and take each label's value."""

    def __init__(self, matcher: LabelMatcher, attributes: dict[str, Attribute]) -> None:
        self.matcher = matcher
        self.attributes = attributes

    def candidates(self, nodes: list[TextNode]) -> list[Candidate]:
        """Every (attribute, value) the page's text nodes support, in document order of their labels."""
        whole = [self.matcher.whole(n.text) for n in nodes]
        hits = [[] if whole[i] else self.matcher.embedded(n.text) for i, n in enumerate(nodes)]
        # The attribute each node labels (None for a node that is no label): a node that opens with a label is one.
        is_label = [
            whole[i] or next((h.attribute for h in hits[i] if h.start <= len(n.text) - len(n.text.lstrip())), None)
            for i, n in enumerate(nodes)
        ]
        found: list[Candidate] = []
        for i, node in enumerate(nodes):
            name = whole[i]
            if name is not None:
                found.extend(self._near(nodes, is_label, i, name, node.text.strip()))
                continue
            for k, hit in enumerate(hits[i]):
                following = hits[i][k + 1] if k + 1 < len(hits[i]) else None
                found.extend(self._embedded(nodes, is_label, i, hit, following, hits[i][k - 1] if k else None))
        return found

    def _type(self, name: str) -> str:
        return self.attributes[name].type

    def _embedded(  # noqa: PLR0917 - the label's node, its neighbours and the labels on either side
        self,
        nodes: list[TextNode],
        is_label: list[str | None],
        i: int,
        hit: LabelHit,
        following: LabelHit | None,
        previous: LabelHit | None,
    ) -> list[Candidate]:
        node = nodes[i]
        value_type = self._type(hit.attribute)
        end = following.start if following else len(node.text)
        after = node.text[hit.end : end]
        if value_type in TYPED:
            if hit.bracketed:
                before = node.text[previous.end if previous else 0 : hit.start]
                parsed = parse_value(value_type, before, last=True)
                if parsed is not None and parsed.value is not None:
                    return [Candidate(hit.attribute, parsed, node, hit.text, node, "before", i)]
                return []
            if following is not None and following.bracketed and following.attribute != hit.attribute:
                return []
            parsed = parse_value(value_type, after)
            if parsed is not None:
                bound = following.text if following else ""
                found = Candidate(hit.attribute, parsed, node, hit.text, node, "after", i, bound)
                return [found, *self._pair(found, after)]
        elif node.text[: hit.start].strip():
            return []
        rest = YEAR_IN_BRACKETS.sub(" ", after).strip(" \t\r\n:–-")
        if value_type not in TYPED and rest and after.lstrip().startswith((":", "-", "–")):
            parsed = parse_value(value_type, after.lstrip().lstrip(":–-"))
            if parsed is None:
                return []
            bound = following.text if following else ""
            return [Candidate(hit.attribute, parsed, node, hit.text, node, "after", i, bound)]
        if rest or following is not None:
            return []
        return self._near(nodes, is_label, i, hit.attribute, hit.text)

    def _pair(self, first: Candidate, text: str) -> list[Candidate]:
        """A plain "ISSN" label before two ISSNs ("15384357, 00030031"): the second is the online one."""
        if normalise_label(first.label_text) != "issn" or "eissn" not in self.attributes or count_issns(text) != 2:
            return []
        rest = text[text.index(first.parsed.raw) + len(first.parsed.raw) :]
        second = parse_value("issn", rest)
        if second is None or second.value is None:
            return []
        separator = rest[: rest.index(second.raw)].strip() or " "
        return [replace(first, attribute="eissn", parsed=second, pair_separator=separator)]

    def _near(
        self, nodes: list[TextNode], is_label: list[str | None], i: int, name: str, label: str
    ) -> list[Candidate]:
        """The value of a label that fills its own text node: the closest parseable neighbour."""
        value_type = self._type(name)
        owner = nodes[i].owner
        options: list[tuple[int, int, int, Parsed]] = []
        for j in range(i + 1, min(len(nodes), i + 1 + FORWARD_LOOKAHEAD)):
            if is_label[j] not in (None, name):
                break  # another attribute's label is never a value: a field left empty before it has none
            parsed = parse_value(value_type, nodes[j].text)
            if parsed is not None:
                options.append((tree_distance(owner, nodes[j].owner), 0, j, parsed))
                break
        if i > 0 and not is_label[i - 1]:
            parsed = parse_value(value_type, nodes[i - 1].text)
            distance = tree_distance(owner, nodes[i - 1].owner)
            # The text before the label is the previous label's value when it sits as close to that one.
            taken = i > 1 and is_label[i - 2] and tree_distance(nodes[i - 2].owner, nodes[i - 1].owner) <= distance
            if parsed is not None and distance <= MAX_BACKWARD_DISTANCE and not taken:
                options.append((distance, 1, i - 1, parsed))
        options = [o for o in options if o[0] <= MAX_TREE_DISTANCE]
        if not options:
            return []
        _, _, j, parsed = min(options, key=lambda o: (o[0], o[1]))
        found = Candidate(name, parsed, nodes[i], label, nodes[j], "node", i)
        return [found, *self._pair(found, nodes[j].text)]
