from journals.integration.fusion import Claim, agree, current_claims, fuse, majority_vote


def c(source, x, decimals=3, year=None):
    return Claim(source, f"{source}.if", f"{x}", x, decimals, year)


def test_accuracy_measured_where_sources_agree_outweighs_a_majority():
    items = {}
    # Ten journals where the publisher and scimago agree and metricsdb is off: metricsdb earns a low accuracy.
    for j in range(10):
        items[j, "impact_factor"] = [c("pub", 2.0 + j), c("scimago", 2.0 + j), c("metricsdb", 9.0 + j)]
    # Then metricsdb and a second poor source outvote the publisher on one journal.
    items[99, "impact_factor"] = [c("pub", 4.117), c("metricsdb", 4.5), c("other", 4.5)]
    for j in range(10):
        items[100 + j, "impact_factor"] = [c("pub", 1.0 + j), c("other", 7.0 + j), c("scimago", 1.0 + j)]
    result = fuse(items)
    fused = result.values[99, "impact_factor"]
    assert fused.number == 4.117
    assert fused.supporters == ["pub"]
    assert [cl.source for cl in fused.claims] == ["pub", "metricsdb", "other"]
    assert fused.conflicting
    assert result.accuracy["pub"] > result.accuracy["metricsdb"]
    assert majority_vote(items)[99, "impact_factor"].number == 4.5


def test_rounding_agrees_and_the_more_precise_value_wins():
    assert agree(c("a", 4.1, 1), c("b", 4.117))
    result = fuse({(1, "sjr"): [c("a", 4.1, 1), c("b", 4.117)]})
    assert result.values[1, "sjr"].number == 4.117


def test_older_metric_year_is_set_aside():
    claims = [c("a", 3.0, year=2023), c("b", 3.5, year=2024), c("c", 3.0)]
    assert [x.source for x in current_claims(claims)] == ["b", "c"]
    assert fuse({(1, "impact_factor"): claims}).values[1, "impact_factor"].year == 2024
