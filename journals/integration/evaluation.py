"""Scoring an integration against the sandbox's truth: linkage, mappings and fused values vs a majority vote.

``scrapy integrate --truth truth.json`` scores a crawl's integration with it; the lab's simulation
(``python -m lab.integration.simulation``) scores the integration of a perfect extraction the same way.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from rapidfuzz.utils import default_process

from journals.domain.numbers import decimals_of
from journals.domain.sites import load_sites
from journals.integration.fusion import majority_vote
from journals.integration.integrator import Integrated
from journals.integration.linkage import linked_pairs
from journals.integration.model import Observation, PhysicalAttribute, record_key
from journals.vocabulary import core_attribute_names, label_key, load_attributes

LABEL_LESS = tuple(site.name for site in load_sites() if not site.labelled)
"""The sites whose pages label no value: their attributes are mapped by integration alone."""
EVALUATED = tuple(name for name in core_attribute_names() if name != "title")
"""The attributes an integration is scored on: the ``JournalItem`` fields but the title, which links records."""


def label_vocabulary() -> dict[str, str]:
    """Normalised label → vocabulary attribute, from ``settings/vocabulary.json`` (names count as labels)."""
    labels: dict[str, str] = {}
    for attribute in load_attributes():
        for label in (*attribute.labels, attribute.name.replace("_", " ")):
            labels.setdefault(label_key(label), attribute.name)
    return labels


def gold_records(truth: Mapping[str, Any]) -> dict[str, int]:
    """Record key → the true journal id, from every site's journal URLs."""
    return {
        record_key(site, j["url"]): j["journal_id"] for site, data in truth["sites"].items() for j in data["journals"]
    }


def gold_attribute(attribute: PhysicalAttribute, truth: Mapping[str, Any]) -> str | None:
    """What a physical attribute truly holds: the attribute its values equal on at least 80% of its records."""
    if attribute.extractor != "candidate" and attribute.label:
        return attribute.label
    shown = {record_key(site, j["url"]): j["values"] for site, data in truth["sites"].items() for j in data["journals"]}
    hits: Counter[str] = Counter()
    for key, observation in attribute.values.items():
        for name, value in shown.get(key, {}).items():
            if value is not None and not isinstance(value, bool) and _same(observation, value):
                hits[name] += 1
    if not hits:
        return None
    name, count = hits.most_common(1)[0]
    return name if count >= 0.8 * len(attribute.values) else None


def _same(observation: Observation, value: object) -> bool:
    if isinstance(value, float | int) and observation.number is not None:
        return abs(observation.number - float(value)) <= 0.5 * 10.0 ** -(observation.decimals or 0) + 1e-9
    return bool(default_process(observation.text) == default_process(str(value)))


def _correct(value: object, truth_value: object) -> bool:
    if isinstance(truth_value, float | int) and not isinstance(truth_value, bool):
        tolerance = 0.5 * 10 ** -decimals_of(float(truth_value)) + 1e-9
        return isinstance(value, float) and abs(value - float(truth_value)) <= tolerance
    return default_process(str(value)) == default_process(str(truth_value))


def _prf(found: set[Any], true: set[Any]) -> dict[str, float]:
    hit = len(found & true)
    return {
        "precision": hit / len(found) if found else 1.0,
        "recall": hit / len(true) if true else 1.0,
        "found": len(found),
        "true": len(true),
    }


def evaluate(result: Integrated, truth: Mapping[str, Any]) -> dict[str, Any]:
    """Linkage, mapping and fusion figures of ``result`` against ``truth``."""
    gold = gold_records(truth)
    clusters = [[k for k in keys if k in gold] for keys in result.linkage.clusters]
    true_clusters: dict[int, list[str]] = defaultdict(list)
    for key in result.linkage.journal_of:
        if key in gold:
            true_clusters[gold[key]].append(key)
    linkage = _prf(linked_pairs(clusters), linked_pairs(true_clusters.values()))
    linkage["merged_distinct_journals"] = sum(len({gold[k] for k in keys}) > 1 for keys in clusters)
    return {
        "linkage": linkage,
        "mappings": evaluate_mappings(result, truth),
        "fusion": evaluate_fusion(result, truth, gold),
    }


def evaluate_mappings(result: Integrated, truth: Mapping[str, Any]) -> dict[str, Any]:
    """Pairwise precision/recall of mapping membership, and whether each mapping is named after its gold."""
    gold = {name: gold_attribute(a, truth) for name, a in result.attributes.items()}
    kept = {n for n in result.attributes if n not in result.extraction.weak}
    predicted = {m: concept for concept, members in result.conceptual.items() for m in members}
    found = {
        frozenset((a, b))
        for members in result.conceptual.values()
        for i, a in enumerate(members)
        for b in members[i + 1 :]
    }
    by_gold: dict[str, list[str]] = defaultdict(list)
    for name in sorted(kept):
        gold_name = gold[name]
        if gold_name and result.attributes[name].values:
            by_gold[gold_name].append(name)
    true: set[frozenset[str]] = set()
    for names in by_gold.values():
        for i, a in enumerate(names):
            unit = result.attributes[a].unit
            true.update(frozenset((a, b)) for b in names[i + 1 :] if result.attributes[b].unit != unit)
    pairwise = _prf(found, true)
    named = [(m, predicted[m], gold[m]) for m in predicted]
    label_less = {
        name: {"mapping": predicted.get(name), "gold": gold[name]}
        for name, attribute in sorted(result.attributes.items())
        if attribute.source in LABEL_LESS and gold[name] and name in kept
    }
    return {
        "pairwise": pairwise,
        "named_right": sum(p == g for _, p, g in named),
        "named": len(named),
        "label_less": label_less,
        "weak_rules_dropped": len(result.extraction.weak),
    }


def evaluate_fusion(result: Integrated, truth: Mapping[str, Any], gold: Mapping[str, int]) -> dict[str, Any]:
    """Per attribute: accuracy of the fused values, of a majority vote, and the oracle (some source right)."""
    relation = {row["journal_id"]: row for row in truth["relation"]}
    journal_id = {}
    for journal, keys in enumerate(result.linkage.clusters):
        ids = Counter(gold[k] for k in keys if k in gold)
        if ids:
            journal_id[journal] = ids.most_common(1)[0][0]
    voted = majority_vote(result.items)
    figures: dict[str, Any] = {}
    for attribute in EVALUATED:
        scores: Counter[str] = Counter()
        for (journal, name), fused in result.fusion.values.items():
            if name != attribute or journal not in journal_id:
                continue
            true_value = relation[journal_id[journal]].get(attribute)
            if true_value is None:
                continue
            value = fused.number if fused.number is not None else fused.text
            scores["items"] += 1
            scores["fused"] += _correct(value, true_value)
            vote = voted[journal, name]
            scores["majority"] += _correct(vote.number if vote.number is not None else vote.text, true_value)
            scores["oracle"] += any(
                _correct(c.number if c.number is not None else c.text, true_value) for c in result.items[journal, name]
            )
        if scores["items"]:
            figures[attribute] = {
                "items": scores["items"],
                "fused_accuracy": scores["fused"] / scores["items"],
                "majority_accuracy": scores["majority"] / scores["items"],
                "oracle_accuracy": scores["oracle"] / scores["items"],
            }
    return figures
