"""``bench_integration()``: integrate 100,000 journals across 8 sources and time each step.

The inputs are synthetic but shaped like the sandbox: six publishers share out the journals, two
aggregators list half of them each, every source publishes a few metrics with 10% of its values perturbed
(stale, rounded, wrong) and some missing. Run ``python -m lab.integration.bench [--journals N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterable
from typing import Any

from journals.gc_pause import cyclic_gc_paused
from journals.integration.distance import direct_distances, indirect_distances
from journals.integration.fusion import Claim, fuse
from journals.integration.integrator import claims_by_item, name_mappings
from journals.integration.linkage import link_records
from journals.integration.mapping import abstract_extraction, abstract_integration, overlaps
from journals.integration.model import NUMBER, Observation, PhysicalAttribute, SourceRecord
from journals.sandbox.relation import make_issn

PUBLISHERS = ("p1", "p2", "p3", "p4", "p5", "p6")
METRICS = ("impact_factor", "five_year_impact_factor", "citescore", "sjr", "snip")
AGGREGATORS = {"agg_a": ("impact_factor", "citescore", "snip"), "agg_b": ("citescore", "sjr", "snip")}


def synthetic_sources(journals: int, seed: int = 1) -> tuple[list[SourceRecord], list[PhysicalAttribute]]:
    """Records and physical attributes of 6 publishers and 2 aggregators over ``journals`` journals."""
    rng = random.Random(seed)
    truth = [
        {
            name: round(rng.lognormvariate(1.0, 0.7) * factor, 3)
            for name, factor in zip(METRICS, (1, 1.2, 1.5, 0.3, 0.6), strict=True)
        }
        for _ in range(journals)
    ]
    records: list[SourceRecord] = []
    columns: dict[tuple[str, str], dict[str, Observation]] = {}
    for j, values in enumerate(truth):
        listed = [PUBLISHERS[j % len(PUBLISHERS)], *(a for a in AGGREGATORS if rng.random() < 0.5)]
        for source in listed:
            key = f"{source}|{j}"
            issns = frozenset({make_issn(j)}) if rng.random() < 0.97 else frozenset()
            records.append(SourceRecord(key, source, f"Journal {j}", issns))
            odd_publisher = source in PUBLISHERS and int(source[1]) % 2 == 1
            published = AGGREGATORS.get(source, METRICS[:4] if odd_publisher else METRICS)
            for name in published:
                if rng.random() < 0.05:
                    continue
                value = values[name]
                if rng.random() < 0.1:
                    value = round(value * rng.choice((0.85, 0.9, 1.1, 0.99, 1.01)), 3)
                columns.setdefault((source, name), {})[key] = Observation(f"{value:.3f}", value, 3)
    attributes = [
        PhysicalAttribute(f"{s}.{n}", s, s, NUMBER, obs, label=n if s in PUBLISHERS else None)
        for (s, n), obs in sorted(columns.items())
    ]
    return records, attributes


def bench_integration(journals: int = 100_000, seed: int = 1) -> dict[str, Any]:
    """Seconds per step of the integration of ``journals`` journals × 8 sources, and what it found."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    records, attributes = synthetic_sources(journals, seed)
    timings["generate"] = time.perf_counter() - started

    def step(name: str, since: float) -> float:
        now = time.perf_counter()
        timings[name] = round(now - since, 3)
        return now

    with cyclic_gc_paused():
        mark = time.perf_counter()
        linkage = link_records(records)
        mark = step("linkage", mark)
        direct, compared = direct_distances(attributes, linkage.journal_of)
        indirect = indirect_distances(attributes, direct, compared)
        mark = step("distances", mark)
        extraction = abstract_extraction([*direct, *indirect], overlaps(attributes))
        integration = abstract_integration(attributes, extraction.matches)
        far = compared - {frozenset((d.a, d.b)) for d in direct}
        conceptual = name_mappings(integration.mappings, attributes, far)
        mark = step("mapping", mark)
        items: dict[tuple[int, str], list[Claim]] = claims_by_item(conceptual, {a.name: a for a in attributes}, linkage)
        fusion = fuse(items)
        step("fusion", mark)
    return {
        "journals": journals,
        "sources": 8,
        "records": len(records),
        "physical_attributes": len(attributes),
        "linked_journals": len(linkage.clusters),
        "mappings": {name: sorted(members) for name, members in conceptual.items()},
        "fused_values": len(fusion.values),
        "seconds": timings,
        "total_seconds": round(sum(timings.values()), 3),
    }


def main(argv: Iterable[str] | None = None) -> int:
    """Print :func:`bench_integration` as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journals", type=int, default=100_000)
    args = parser.parse_args(list(argv) if argv is not None else None)
    print(json.dumps(bench_integration(args.journals), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
