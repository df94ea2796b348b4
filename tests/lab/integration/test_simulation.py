from journals.integration.evaluation import evaluate
from journals.integration.integrator import integrate
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from lab.integration.simulation import simulated_inputs


def test_perfect_extraction_of_a_small_world_links_maps_and_beats_the_majority_vote():
    web = SandboxWeb(seed=2, size=400)
    truth = world_truth(web, "http://sandbox")
    records, attributes = simulated_inputs(truth, web)
    figures = evaluate(integrate(records, attributes), truth)
    assert figures["linkage"]["merged_distinct_journals"] == 0
    assert figures["linkage"]["recall"] >= 0.995
    assert figures["mappings"]["pairwise"]["precision"] == 1.0
    assert figures["mappings"]["pairwise"]["recall"] == 1.0
    assert all(v["gold"] == v["mapping"] for v in figures["mappings"]["label_less"].values())
    fusion = figures["fusion"]
    assert fusion["impact_factor"]["fused_accuracy"] > fusion["impact_factor"]["majority_accuracy"]
    assert fusion["impact_factor"]["fused_accuracy"] >= 0.99
