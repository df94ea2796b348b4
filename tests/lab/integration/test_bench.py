from lab.integration.bench import bench_integration


def test_bench_integration_maps_the_synthetic_sources_and_times_each_step():
    figures = bench_integration(journals=1500)
    assert figures["linked_journals"] == 1500
    assert figures["mappings"]["impact_factor"] == sorted(
        ["agg_a.impact_factor", *(f"p{n}.impact_factor" for n in range(1, 7))]
    )
    assert set(figures["seconds"]) == {"generate", "linkage", "distances", "mapping", "fusion"}
