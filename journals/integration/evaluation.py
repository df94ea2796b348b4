"""Scoring an integration against the sandbox's truth: linkage, mappings and fused values vs a majority vote.

Run ``python -m journals.integration.evaluation [--seed 1 --journals 2000 | --truth truth.json]``: it
simulates a perfect extraction from :func:`journals.sandbox.truth.world_truth` for the labelled sites,
generates candidate rules from the rendered pages of the label-less one (``metricsdb``), integrates and
prints the figures. ``scrapy integrate --truth truth.json`` scores a real crawl the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rapidfuzz.utils import default_process

from journals.domain.numbers import decimals_of
from journals.domain.sites import load_sites
from journals.integration.candidates import CachedJournalPage, candidate_attributes
from journals.integration.fusion import majority_vote
from journals.integration.integrator import Integrated, integrate
from journals.integration.linkage import linked_pairs
from journals.integration.model import NUMBER, STRING, Observation, PhysicalAttribute, SourceRecord
from journals.vocabulary import core_attribute_names, label_key, load_attributes

LABEL_LESS = tuple(site.name for site in load_sites() if not site.labelled)
"""The sites whose pages label no value: their attributes are mapped by integration alone."""
EVALUATED = tuple(name for name in core_attribute_names() if name != "title")
"""The attributes an integration is scored on: the ``JournalItem`` fields but the title, which links records."""
_SHOWN_DECIMALS = {"citescore": 1}


def label_vocabulary() -> dict[str, str]:
    """Normalised label → vocabulary attribute, from ``settings/vocabulary.json`` (names count as labels)."""
    labels: dict[str, str] = {}
    for attribute in load_attributes():
        for label in (*attribute.labels, attribute.name.replace("_", " ")):
            labels.setdefault(label_key(label), attribute.name)
    return labels


def record_key(source: str, url: str) -> str:
    """The key of one source's record of a journal."""
    return f"{source}|{url}"


def simulated_inputs(truth: Mapping[str, Any], web: Any = None) -> tuple[list[SourceRecord], list[PhysicalAttribute]]:
    """Records and physical attributes as a perfect extraction of every labelled site would give them.

    With ``web`` (the :class:`~journals.sandbox.web.SandboxWeb` of ``truth``), the label-less sites' pages are
    rendered and their candidate rules generated; without it they contribute records only.
    """
    records: list[SourceRecord] = []
    attributes: list[PhysicalAttribute] = []
    numeric = {a.name for a in load_attributes() if a.type == "number"}
    for site, data in truth["sites"].items():
        columns: dict[str, dict[str, Observation]] = defaultdict(dict)
        pages: list[CachedJournalPage] = []
        titles: dict[str, str] = {}
        for journal in data["journals"]:
            values = journal["values"]
            key = record_key(site, journal["url"])
            issns = frozenset(v for v in (values.get("issn"), values.get("eissn")) if v)
            records.append(SourceRecord(key=key, source=site, title=values["title"], issns=issns))
            titles[key] = values["title"]
            if site in LABEL_LESS:
                if web is not None:
                    html = web.sites[site].journal_home(journal["journal_id"])
                    pages.append(CachedJournalPage(key, site, journal["url"], html))
                continue
            for name, value in values.items():
                if value is None or name == "title" or isinstance(value, bool):
                    continue
                if name in numeric:
                    shown = _SHOWN_DECIMALS.get(name, 3)
                    columns[name][key] = Observation(
                        f"{value:.{shown}f}", round(float(value), shown), shown, page_url=journal["url"]
                    )
                else:
                    columns[name][key] = Observation(str(value), page_url=journal["url"])
        for name, observed in columns.items():
            kind = NUMBER if name in numeric else STRING
            attributes.append(PhysicalAttribute(f"{site}.{name}", site, site, kind, observed, label=name))
        if pages:
            attributes.extend(candidate_attributes(pages, label_vocabulary(), titles))
    return records, attributes


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
        return abs(observation.number - float(value)) <= 0.5 * 10 ** -(observation.decimals or 0) + 1e-9
    return default_process(observation.text) == default_process(str(value))


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
        if gold[name] and result.attributes[name].values:
            by_gold[gold[name]].append(name)
    true = set()
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
        scores = Counter()
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


def _print(figures: Mapping[str, Any], out: Any) -> None:
    json.dump(figures, out, indent=2, sort_keys=True)
    out.write("\n")


def main(argv: Iterable[str] | None = None) -> int:
    """Simulate a perfect extraction of a sandbox world, integrate it and print the figures as JSON."""
    from journals.sandbox.truth import world_truth
    from journals.sandbox.web import SandboxWeb

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journals", type=int, default=2000)
    parser.add_argument("--truth", type=Path, help="a truth.json (its seed and size are used)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    seed, size = args.seed, args.journals
    if args.truth:
        stored = json.loads(args.truth.read_text(encoding="utf-8"))
        seed, size = stored["seed"], stored["size"]
    web = SandboxWeb(seed, size)
    truth = world_truth(web, "http://sandbox")
    records, attributes = simulated_inputs(truth, web)
    result = integrate(records, attributes)
    _print(evaluate(result, truth), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
