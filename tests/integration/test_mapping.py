from journals.integration.distance import Distance
from journals.integration.mapping import abstract_extraction, abstract_integration, overlaps
from journals.integration.model import NUMBER, Observation, PhysicalAttribute


def attr(name, unit, label=None, occurrences=()):
    values = {f"r{n}": Observation("1", 1.0, 0, occurrence=o) for n, o in enumerate(occurrences)}
    return PhysicalAttribute(name, unit, unit, NUMBER, values, label=label)


def test_greedy_clustering_never_puts_two_attributes_of_one_source_together_and_stops_there():
    attributes = [
        attr("s1.if", "s1", "impact_factor"),
        attr("s2.if", "s2"),
        attr("s3.if", "s3", "impact_factor"),
        attr("s1.cs", "s1", "citescore"),
        attr("s2.cs", "s2"),
        attr("s3.cs", "s3"),
    ]
    matches = [
        Distance("s1.if", "s2.if", 0.01),
        Distance("s2.if", "s3.if", 0.02),
        Distance("s1.cs", "s2.cs", 0.03),
        Distance("s1.if", "s2.cs", 0.3),  # would put s2 twice: the paper stops here
        Distance("s2.cs", "s3.cs", 0.4),  # never reached
    ]
    result = abstract_integration(attributes, matches)
    assert [(m.name, m.members) for m in result.mappings] == [
        ("impact_factor", ["s1.if", "s2.if", "s3.if"]),
        ("citescore", ["s1.cs", "s2.cs"]),
    ]
    assert result.stopped_at == matches[3]


def test_weak_rule_overlapping_a_correct_rule_is_dropped():
    label_rule = attr("a:label", "a", occurrences=["p1#td", "p2#td"])
    positional = attr("a:tr3", "a", occurrences=["p1#td", "p2#other"])
    hub = attr("hub:td3", "hub")
    overlapping = overlaps([label_rule, positional, hub])
    assert overlapping == {"a:label": {"a:tr3"}, "a:tr3": {"a:label"}}
    result = abstract_extraction(
        [Distance("a:tr3", "hub:td3", 0.05), Distance("a:label", "hub:td3", 0.01)], overlapping, ["a:tr3"]
    )
    assert result.correct == {"a:label", "hub:td3"}
    assert result.weak == {"a:tr3"}
    assert [(m.a, m.b) for m in result.matches] == [("a:label", "hub:td3")]
