import pytest

from journals.integration.distance import (
    Distance,
    attribute_distance,
    direct_distances,
    indirect_distances,
    number_distance,
    string_distance,
)
from journals.integration.model import NUMBER, Observation, PhysicalAttribute


def obs(x, decimals=3):
    return Observation(f"{x}", x, decimals)


def test_rounding_tolerance_and_scale_sensitivity():
    assert number_distance(3.2, 1, 3.25, 2) == 0.0
    assert number_distance(42.778, 3, 42.8, 1) == 0.0
    assert number_distance(4.117, 3, 4.5, 3) == pytest.approx(0.851, abs=0.001)
    assert number_distance(0.5, 3, 0.05, 3) == 1.0
    # Correlated attributes at different scales stay far apart (no z-normalisation).
    impact = {j: obs(1.0 + j) for j in range(10)}
    citescore = {j: obs(round(1.5 * (1.0 + j), 1), 1) for j in range(10)}
    assert attribute_distance(NUMBER, impact, citescore) == 1.0


def test_strings_and_too_few_shared_journals():
    assert string_distance("Ada Costa", "ada costa") == 0.0
    assert string_distance("Journal of Applied Optics", "Zoology Letters") == 1.0
    few = {j: obs(1.0) for j in range(4)}
    assert attribute_distance(NUMBER, few, few) is None
    assert attribute_distance(NUMBER, few, few, min_shared=3) == 0.0


def attr(name, unit, values):
    return PhysicalAttribute(name, unit, unit, NUMBER, {f"{unit}|{j}": obs(v) for j, v in values.items()})


def test_indirect_distance_through_an_aggregator_is_the_shortest_path_bound():
    a = attr("elsevier.if", "elsevier", {j: 1.0 + j for j in range(10)})
    hub = attr("metricsdb.td3", "metricsdb", {j: 1.0 + j for j in range(20)})
    b = attr("wiley.if", "wiley", {j: 1.0 + j for j in range(10, 20)})
    journal_of = {f"{u}|{j}": j for u in ("elsevier", "metricsdb", "wiley") for j in range(20)}
    hub.values["metricsdb|3"] = obs(1.4)  # one disagreement: d(a, hub) = 0.1
    close, compared = direct_distances([a, hub, b], journal_of)
    assert {(d.a, d.b) for d in close} == {("elsevier.if", "metricsdb.td3"), ("metricsdb.td3", "wiley.if")}
    assert frozenset(("elsevier.if", "wiley.if")) not in compared
    [indirect] = indirect_distances([a, hub, b], close, compared)
    assert indirect == Distance("elsevier.if", "wiley.if", pytest.approx(0.1), ("metricsdb.td3",))
