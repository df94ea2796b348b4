"""ABSTRACTEXTRACTION (weak-rule removal) and ABSTRACTINTEGRATION (greedy clustering into mappings).

Both scan candidate matches by increasing distance. Extraction marks the two ends of each match correct and
drops every rule that overlaps a correct one (reads the same value occurrence on some page). Integration
merges the mappings of each match's ends and, as in the paper (Listing 1), stops at the first match whose
merge would put two attributes of one source in one mapping: under separable semantics every match after
it joins attributes of different meanings.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from journals.integration.distance import Distance
from journals.integration.model import PhysicalAttribute


def overlaps(attributes: Iterable[PhysicalAttribute]) -> dict[str, set[str]]:
    """Attribute name → names of attributes of its source reading at least one same value occurrence."""
    readers: dict[tuple[str, str], list[str]] = defaultdict(list)
    for attribute in attributes:
        for observation in attribute.values.values():
            if observation.occurrence:
                readers[attribute.source, observation.occurrence].append(attribute.name)
    overlapping: dict[str, set[str]] = defaultdict(set)
    for names in readers.values():
        for name in names:
            overlapping[name].update(n for n in names if n != name)
    return dict(overlapping)


def _match_order(match: Distance, positional: set[str]) -> tuple[float, int, str, str]:
    """Increasing distance; on a tie, matches of label-relative rules before positional ones."""
    return (match.value, (match.a in positional) + (match.b in positional), match.a, match.b)


@dataclass
class ExtractionResult:
    """What ABSTRACTEXTRACTION kept."""

    correct: set[str]
    """Rules marked correct (an end of a match taken)."""
    weak: set[str]
    """Rules dropped for overlapping a correct rule."""
    matches: list[Distance]
    """The matches between surviving rules, by increasing distance."""


def abstract_extraction(
    matches: Iterable[Distance], overlapping: Mapping[str, set[str]], positional: Iterable[str] = ()
) -> ExtractionResult:
    """Remove weak rules: scan matches by distance, mark both ends correct, drop the rules overlapping them.

    A rule that overlaps a rule already marked correct is weak, even when it is the closer end of a match.
    """
    ordered = sorted(matches, key=lambda m: _match_order(m, set(positional)))
    correct: set[str] = set()
    weak: set[str] = set()
    for match in ordered:
        ends = (match.a, match.b)
        if any(end in weak for end in ends):
            continue
        newly_weak = [end for end in ends if end not in correct and overlapping.get(end, set()) & correct]
        if newly_weak:
            weak.update(newly_weak)
            continue
        for end in ends:
            correct.add(end)
            weak.update(overlapping.get(end, set()) - correct)
    kept = [m for m in ordered if m.a not in weak and m.b not in weak]
    return ExtractionResult(correct=correct, weak=weak, matches=kept)


@dataclass
class AttributeMapping:
    """A conceptual attribute: the physical attributes of several sources that mean the same thing."""

    members: list[str]
    name: str | None = None
    """The vocabulary attribute most members are labelled with; None when no member carries a label."""
    edges: list[Distance] = field(default_factory=list)
    """The matches that built the mapping, in the order they were taken."""


@dataclass
class IntegrationResult:
    """What ABSTRACTINTEGRATION found."""

    mappings: list[AttributeMapping]
    """Mappings of two or more attributes, largest first."""
    stopped_at: Distance | None
    """The first match that would have broken local consistency (where the paper's algorithm stops)."""


def abstract_integration(attributes: Sequence[PhysicalAttribute], matches: Iterable[Distance]) -> IntegrationResult:
    """Greedy clustering by increasing distance; never two attributes of one unit; stop at the first conflict."""
    unit = {a.name: a.unit for a in attributes}
    label = {a.name: a.label for a in attributes}
    mapping_of = {a.name: i for i, a in enumerate(attributes)}
    members: dict[int, list[str]] = {i: [a.name] for i, a in enumerate(attributes)}
    edges: dict[int, list[Distance]] = defaultdict(list)
    stopped_at = None
    for match in sorted(matches, key=lambda m: (m.value, m.a, m.b)):
        if match.a not in mapping_of or match.b not in mapping_of:
            continue
        x, y = mapping_of[match.a], mapping_of[match.b]
        if x == y:
            continue
        units_x = {unit[n] for n in members[x]}
        if units_x & {unit[n] for n in members[y]}:
            stopped_at = match
            break
        for name in members[y]:
            mapping_of[name] = x
        members[x].extend(members.pop(y))
        edges[x].extend([*edges.pop(y, []), match])
    found = [
        AttributeMapping(members=sorted(names), name=_majority_label(names, label), edges=edges[i])
        for i, names in members.items()
        if len(names) > 1
    ]
    found.sort(key=lambda m: (-len(m.members), m.members))
    return IntegrationResult(mappings=found, stopped_at=stopped_at)


def _majority_label(names: Iterable[str], label: Mapping[str, str | None]) -> str | None:
    """The most frequent label among ``names`` (ties: alphabetical), None when none has one."""
    counts = Counter(label[n] for n in names if label[n])
    if not counts:
        return None
    return min(counts, key=lambda k: (-counts[k], k))
