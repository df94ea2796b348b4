"""The whole method on plain data: link records, match attributes, drop weak rules, map, fuse.

:func:`integrate` takes source records and physical attributes (from crawled rows or candidate rules) and
returns the linked journals, the conceptual attributes with their physical members, and one fused value
per journal and attribute with its provenance. Attributes that no other source overlaps (a publisher's own
five-year impact factor) cannot be matched by their values; a labelled one joins the mapping of its label
when no measured distance speaks against it (an extension of the paper, which assumes redundancy).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from journals.gc_pause import cyclic_gc_paused
from journals.integration.distance import MATCH_THRESHOLD, Distance, direct_distances, indirect_distances
from journals.integration.fusion import Claim, FusionResult, ItemKey, fuse
from journals.integration.linkage import Linkage, link_records
from journals.integration.mapping import (
    AttributeMapping,
    ExtractionResult,
    IntegrationResult,
    abstract_extraction,
    abstract_integration,
    overlaps,
)
from journals.integration.model import PhysicalAttribute, SourceRecord


@dataclass
class Integrated:
    """Everything :func:`integrate` found."""

    linkage: Linkage
    attributes: dict[str, PhysicalAttribute]
    extraction: ExtractionResult
    integration: IntegrationResult
    indirect: list[Distance]
    conceptual: dict[str, list[str]]
    """Conceptual attribute name → its physical attributes (the mappings, named)."""
    items: dict[ItemKey, list[Claim]]
    fusion: FusionResult
    titles: dict[int, str]
    """The fused title of each journal (the most common of its records')."""
    sources: dict[int, list[str]]
    """The sources of each journal."""


def integrate(
    records: Sequence[SourceRecord], attributes: Sequence[PhysicalAttribute], threshold: float = MATCH_THRESHOLD
) -> Integrated:
    """Run linkage, distances, ABSTRACTEXTRACTION, ABSTRACTINTEGRATION and fusion over the inputs."""
    with cyclic_gc_paused():
        return _integrate(records, attributes, threshold)


def _integrate(
    records: Sequence[SourceRecord], attributes: Sequence[PhysicalAttribute], threshold: float
) -> Integrated:
    linkage = link_records(records)
    direct, compared = direct_distances(attributes, linkage.journal_of, threshold=threshold)
    indirect = indirect_distances(attributes, direct, compared, threshold=threshold)
    positional = {a.name for a in attributes if a.rule and not a.rule.startswith("//")}
    extraction = abstract_extraction([*direct, *indirect], overlaps(attributes), positional)
    kept = [a for a in attributes if a.name not in extraction.weak]
    integration = abstract_integration(kept, extraction.matches)
    far = compared - {frozenset((d.a, d.b)) for d in direct}
    conceptual = name_mappings(integration.mappings, kept, far)
    by_name = {a.name: a for a in attributes}
    items = claims_by_item(conceptual, by_name, linkage)
    by_key = {r.key: r for r in records}
    titles: dict[int, str] = {}
    sources: dict[int, list[str]] = {}
    for journal, keys in enumerate(linkage.clusters):
        counts = Counter(by_key[k].title for k in keys if by_key[k].title)
        if counts:
            titles[journal] = counts.most_common(1)[0][0] or ""
        sources[journal] = sorted({by_key[k].source for k in keys})
    return Integrated(
        linkage=linkage,
        attributes=by_name,
        extraction=extraction,
        integration=integration,
        indirect=indirect,
        conceptual=conceptual,
        items=items,
        fusion=fuse(items),
        titles=titles,
        sources=sources,
    )


def name_mappings(
    mappings: Sequence[AttributeMapping], attributes: Sequence[PhysicalAttribute], far: set[frozenset[str]]
) -> dict[str, list[str]]:
    """Name each mapping after its members' labels; then let labelled leftovers join the mapping of their label.

    A leftover joins when its unit is not in the mapping yet and none of its measured distances to the
    mapping's members exceeded the threshold (``far``); otherwise it stays out. Unlabelled mappings are
    named ``unlabelled_N``; a second mapping with a taken name gets a ``_2`` suffix.
    """
    unit = {a.name: a.unit for a in attributes}
    conceptual: dict[str, list[str]] = {}
    for n, mapping in enumerate(mappings, start=1):
        name = mapping.name or f"unlabelled_{n}"
        while name in conceptual:
            name += "_2"
        conceptual[name] = list(mapping.members)
    mapped = {m for members in conceptual.values() for m in members}
    leftovers: dict[str, list[PhysicalAttribute]] = defaultdict(list)
    for attribute in attributes:
        if attribute.name not in mapped and attribute.label:
            leftovers[attribute.label].append(attribute)
    for label, candidates in sorted(leftovers.items()):
        members = conceptual.setdefault(label, [])
        for attribute in sorted(candidates, key=lambda a: (-len(a.values), a.name)):
            units = {unit[m] for m in members}
            if attribute.unit in units or any(frozenset((attribute.name, m)) in far for m in members):
                continue
            members.append(attribute.name)
        if not members:
            del conceptual[label]
    return conceptual


def claims_by_item(
    conceptual: dict[str, list[str]], attributes: dict[str, PhysicalAttribute], linkage: Linkage
) -> dict[ItemKey, list[Claim]]:
    """Every claim per (journal, conceptual attribute): at most one per source, the first by attribute name."""
    items: dict[ItemKey, list[Claim]] = defaultdict(list)
    for name, members in conceptual.items():
        for member in sorted(members):
            attribute = attributes[member]
            for record, observation in attribute.values.items():
                journal = linkage.journal_of.get(record)
                if journal is None:
                    continue
                claims = items[journal, name]
                if any(c.source == attribute.source for c in claims):
                    continue
                claims.append(
                    Claim(
                        source=attribute.source,
                        attribute=member,
                        text=observation.text,
                        number=observation.number,
                        decimals=observation.decimals,
                        year=observation.year if observation.year is not None else attribute.year,
                        page_url=observation.page_url,
                    )
                )
    return dict(items)
